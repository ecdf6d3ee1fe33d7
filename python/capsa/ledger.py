"""The ledger of one table: many rounds, each seat's running balance and the
house's rake, zero-sum at every step.

A :class:`Ledger` books round records in order. Each record is replayed
(:func:`capsa.replay`) and must follow the one before it in the table's
chain (its ``previous_digest`` is the last record's digest), so the ledger
only ever holds rounds that replay exactly. After every round the seats'
balances and the house's rake sum to zero. The ledger exports as CSV (one
row a round) or JSON Lines (one object a round).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass
from types import EllipsisType
from typing import IO

from capsa._core import TableError
from capsa.records import RecordLike, ReplayError, read_record, replay

__all__ = ["Ledger", "LedgerEntry"]


@dataclass(frozen=True)
class LedgerEntry:
    """One booked round: ``round`` (its place, from 1), ``round_id`` and
    ``digest`` (of its record), ``net`` and ``rake`` per seat, ``balances``
    and ``house`` after it. Built by :class:`Ledger`; raises nothing."""

    round: int
    """The round's place in the ledger, from 1."""
    round_id: str
    digest: str
    net: tuple[int, ...]
    """Each seat's money after rake for the round."""
    rake: tuple[int, ...]
    """The house's rake from each seat for the round."""
    balances: tuple[int, ...]
    """Each seat's running balance after the round."""
    house: int
    """The house's running total of rake after the round."""

    def to_dict(self) -> dict[str, object]:
        """The entry as a JSON-ready dict (one line of the JSON Lines export)."""
        return {
            "round": self.round,
            "round_id": self.round_id,
            "digest": self.digest,
            "net": list(self.net),
            "rake": list(self.rake),
            "balances": list(self.balances),
            "house": self.house,
        }


class Ledger:
    """The running balances of a table of ``seats`` seats (2 to 4).

    ``previous_digest`` is the digest the first booked record must follow:
    ``None`` when the ledger starts the table's chain, or left out to take
    the first record's link as it is (a ledger started part-way through a
    table's history).

    Raises ``TableError`` for ``seats`` outside 2..4 and ``TypeError`` for
    a non-int; booking a record raises as its method says.
    """

    __slots__ = ("_balances", "_entries", "_house", "_last_digest", "_seats")

    def __init__(self, seats: int = 4, *, previous_digest: str | EllipsisType | None = ...) -> None:
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise TypeError(f"seats must be an int, not {type(seats).__name__}")
        if not 2 <= seats <= 4:
            raise TableError(f"a table has 2 to 4 seats, got {seats}")
        self._seats = seats
        self._balances = [0] * seats
        self._house = 0
        self._entries: list[LedgerEntry] = []
        self._last_digest: str | EllipsisType | None = previous_digest

    @property
    def seats(self) -> int:
        """The table's seat count."""
        return self._seats

    @property
    def balances(self) -> tuple[int, ...]:
        """Each seat's running balance (money after rake)."""
        return tuple(self._balances)

    @property
    def house(self) -> int:
        """The house's running total of rake."""
        return self._house

    @property
    def entries(self) -> list[LedgerEntry]:
        """Every booked round, in order."""
        return list(self._entries)

    @property
    def last_digest(self) -> str | None:
        """The digest of the last booked record (the next one's
        ``previous_digest``), or the ledger's starting link."""
        last = self._last_digest
        return None if last is ... else last

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, record: RecordLike) -> LedgerEntry:
        """Replays a round record and books it; returns its entry.

        Raises what :func:`capsa.replay` raises (``ReplayError`` naming
        ``previous_digest`` when the record does not follow the last one),
        and ``TableError`` for a record of a table of another size. A record
        that raises is not booked.
        """
        view = read_record(record)
        if view.seat_count != self._seats:
            raise TableError(
                f"record {view.round_id!r} is of a {view.seat_count}-seat table; "
                f"this ledger is of {self._seats} seats"
            )
        digest = replay(record, previous_digest=self._last_digest)
        figures = view.net_and_rake()
        net = tuple(int(n) for n, _ in figures)
        rake = tuple(int(r) for _, r in figures)
        if sum(net) + sum(rake) != 0:  # replay recomputed them: a bug, not bad input
            raise ReplayError(view.round_id, [("settlement", "net plus rake is not zero")], "")
        balances = [b + n for b, n in zip(self._balances, net, strict=True)]
        house = self._house + sum(rake)
        entry = LedgerEntry(
            round=len(self._entries) + 1,
            round_id=view.round_id,
            digest=digest,
            net=net,
            rake=rake,
            balances=tuple(balances),
            house=house,
        )
        self._balances, self._house = balances, house
        self._entries.append(entry)
        self._last_digest = digest
        return entry

    def extend(self, records: Sequence[RecordLike]) -> None:
        """Books each record in order (stopping at the first that raises)."""
        for record in records:
            self.add(record)

    def write_csv(self, out: IO[str]) -> None:
        """One row a round: round, round_id, digest, then net, rake and
        balance of each seat, then house (the running rake). Raises what
        ``out.write`` raises (``OSError``)."""
        n = range(self._seats)
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            [
                "round",
                "round_id",
                "digest",
                *(f"net_{k}" for k in n),
                *(f"rake_{k}" for k in n),
                *(f"balance_{k}" for k in n),
                "house",
            ]
        )
        for e in self._entries:
            writer.writerow([e.round, e.round_id, e.digest, *e.net, *e.rake, *e.balances, e.house])

    def write_jsonl(self, out: IO[str]) -> None:
        """One JSON object a round (keys sorted, compact), as
        :meth:`LedgerEntry.to_dict`. Raises what ``out.write`` raises
        (``OSError``)."""
        for e in self._entries:
            out.write(json.dumps(e.to_dict(), sort_keys=True, separators=(",", ":")))
            out.write("\n")

    def __repr__(self) -> str:
        return f"Ledger(seats={self._seats}, rounds={len(self)}, balances={self.balances})"
