"""Every bool argument of the public API is a bool: the text ``"false"`` (which
is true), an int or None is a ``TypeError`` naming the argument, read by
the one reader of a flag (``_core.read_flag``), never taken for its truth.
``close(force="false")`` closed a round before its deadline."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import capsa
import capsa.dask
import capsa.oracle
import capsa.render
import capsa.store
import capsa.strategies
from capsa.conformance import vectors

NOT_FLAGS = ["false", 0, 1, None]
FUTURE = 2**62  # a deadline far ahead


def _dealt(**kw: Any) -> capsa.Round:
    rnd = capsa.Round(capsa.Rules.preset("1-6"), 4, 1, round_id="r", deadline=FUTURE, **kw)
    rnd.deal()
    return rnd


def test_close_with_force_false_as_text_is_refused_before_the_deadline() -> None:
    rnd = _dealt()
    for value in NOT_FLAGS:
        with pytest.raises(TypeError, match="force must be true or false"):
            rnd.close(force=value)  # type: ignore[arg-type]
    assert rnd.phase == "dealt" and rnd.sequence == 1
    with pytest.raises(capsa.RoundError, match="deadline"):
        rnd.close(force=False)
    rnd.close(force=True)
    assert rnd.phase == "closed"


def _summary() -> capsa.Summary:
    return capsa.simulate(None, 2, seats=2, strategy="greedy")


def _table() -> capsa.render.Table:
    rnd = capsa.Round(None, 2, 1, round_id="r", server_seed=bytes(32))
    rnd.deal()
    rnd.close()
    rnd.settle()
    return capsa.render.table_from_record(rnd.record())


def _store(tmp: Path) -> capsa.store.Store:
    return capsa.store.open(f"sqlite:///{tmp}/flags.db")


def _record() -> str:
    rnd = capsa.Round(None, 2, 1, round_id="r", server_seed=bytes(32))
    rnd.deal()
    rnd.close()
    rnd.settle()
    return rnd.record_json()


HAND = list(range(13))

# (the argument's name, a call with the value given for it)
CALLS: list[tuple[str, Callable[[Any, Path], object]]] = [
    ("require_client_seeds", lambda v, _: capsa.Round(round_id="r", require_client_seeds=v)),
    ("surrender", lambda v, _: _dealt().surrender(0, v)),
    ("declare_natural", lambda v, _: _dealt().declare_natural(0, v)),
    ("force", lambda v, _: _dealt().close(force=v)),
    ("surrender", lambda v, _: capsa.Seat(capsa.Arrangement.from_ids(HAND), v)),
    ("declare_natural", lambda v, _: capsa.Seat(capsa.Arrangement.from_ids(HAND), False, v)),
    ("net", lambda v, _: _summary().money_histogram(net=v)),
    ("net", lambda v, _: _summary().money_stats(net=v)),
    ("declared", lambda v, _: _summary().natural_frequency("dragon", declared=v)),
    ("progress", lambda v, _: capsa.simulate(None, 1, seats=2, strategy="greedy", progress=v)),
    ("create", lambda v, tmp: capsa.store.open(f"sqlite:///{tmp}/flags.db", create=v)),
    ("create", lambda v, tmp: capsa.store.Store(f"sqlite:///{tmp}/flags.db", create=v)),
    ("replay", lambda v, tmp: _store(tmp).append(_record(), replay=v)),
    ("replay", lambda v, tmp: _store(tmp).append_many([_record()], replay=v)),
    ("naturals", lambda v, _: capsa.strategies.tables(naturals=v)),
    ("stakes", lambda v, _: capsa.strategies.tables(stakes=v)),
    ("valid", lambda v, _: capsa.strategies.arrangements(valid=v)),
    ("operator", lambda v, _: capsa.render.page_html(_table(), operator=v)),
    ("verify", lambda v, _: capsa.render.table_from_record(_table_record(), verify=v)),
    ("check", lambda v, _: vectors.generate(["compare"], check=v)),
    ("progress", lambda v, tmp: capsa.dask.settle_parquet(tmp, tmp / "out", progress=v)),
    (
        "progress",
        lambda v, _: capsa.dask.simulate_on_cluster(None, capsa.Rules(), deals=1, progress=v),
    ),
]


def _table_record() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(_record())
    return record


@pytest.mark.parametrize(
    ("name", "call"), CALLS, ids=[f"{k}-{n}" for k, (n, _) in enumerate(CALLS)]
)
def test_a_flag_that_is_not_a_bool_is_a_type_error(
    name: str, call: Callable[[Any, Path], object], tmp_path: Path
) -> None:
    for value in ("false", 0):
        with pytest.raises(TypeError, match=name):
            call(value, tmp_path)


def test_the_oracle_types_its_flag_too() -> None:
    rules = capsa.oracle.default_rules()
    with pytest.raises(TypeError, match="valid_only"):
        capsa.oracle.splits(HAND, rules, valid_only="false")  # type: ignore[arg-type]
    assert len(capsa.oracle.splits(HAND, rules, valid_only=False)) == 72_072
