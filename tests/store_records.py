"""Chains of round records for the store tests, made with capsa.Round: every
seat submits its hand as dealt (fouled or not), so that a record replays
without the solver."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import capsa
from capsa.records import canonical_json, read_record, record_digest

__all__ = ["digest_of", "make_chain", "make_round", "played", "rewritten"]


def digest_of(text: str) -> str:
    """The digest a record carries."""
    return read_record(text).digest


def rewritten(text: str, edit: Callable[[dict[str, Any]], None]) -> str:
    """The record ``text`` with ``edit`` made to its data and its digest
    written again: a record as another writer (an older capsa) could have
    written it, which capsa.Round no longer writes."""
    data = json.loads(text)
    edit(data)
    data["digest"] = record_digest(data)
    return canonical_json(data)


def played(rnd: capsa.Round) -> str:
    """The record of ``rnd`` dealt, each seat submitting its hand in the
    order dealt, closed and settled."""
    rnd.deal()
    for seat, hand in enumerate(rnd.hands):
        rnd.submit(seat, list(hand))
    rnd.close()
    rnd.settle()
    return rnd.record_json()


def make_round(table_id: str | None, k: int, previous: str | None, tag: str = "") -> str:
    """Round ``k`` of a table (round id ``{table}/r{k}{tag}``, nonce ``k``),
    following ``previous``; three players of the table's own and one
    ``"shared"`` player who sits at every table."""
    name = table_id or "none"
    rnd = capsa.Round(
        seats=4,
        round_id=f"{name}/r{k}{tag}",
        nonce=k,
        previous_digest=previous,
        table_id=table_id,
        players=[f"{name}-p{i}" for i in range(3)] + [{"id": "shared", "name": "Bảo"}],
        server_seed=hashlib.sha256(f"{name} {k} {tag}".encode()).digest(),
        meta={"played_at": f"2026-12-0{1 + k % 2}T10:00:00Z"},
    )
    return played(rnd)


def make_chain(table_id: str | None, rounds: int, start: int = 0) -> list[str]:
    """``rounds`` chained records of one table, from its first."""
    texts: list[str] = []
    previous: str | None = None
    for k in range(start, start + rounds):
        texts.append(make_round(table_id, k, previous))
        previous = digest_of(texts[-1])
    return texts
