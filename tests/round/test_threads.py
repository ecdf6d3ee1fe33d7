"""capsa.Round under threads: every action is atomic. A submission that
returned normally is never replaced by the close, every seat marked auto
holds the solver's arrangement, a round that settles can be recorded, and
of two deals racing exactly one succeeds."""

from __future__ import annotations

import functools
import hashlib
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest

import capsa

RULES = capsa.Rules()
SEEDS = [hashlib.sha256(f"thread test {k}".encode()).digest() for k in range(6)]
SECONDS = 3.0


@pytest.fixture(autouse=True)
def tiny_switch_interval() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def race(first: Callable[[], object], second: Callable[[], object]) -> list[BaseException | None]:
    """Runs both on their own threads, started together; what each raised."""
    barrier = threading.Barrier(2)
    outcome: list[BaseException | None] = [None, None]

    def run(k: int, action: Callable[[], object]) -> None:
        barrier.wait()
        try:
            action()
        except BaseException as exc:
            outcome[k] = exc

    threads = [threading.Thread(target=run, args=(k, a)) for k, a in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcome


def solver_choices(seed: bytes) -> list[capsa.Arrangement]:
    rnd = capsa.Round(RULES, 4, 100, round_id="solver", server_seed=seed)
    return [capsa.best_arrangement(h, RULES, seats=4).arrangement for h in rnd.deal()]


def fouled(hand: list[capsa.Card]) -> capsa.Arrangement:
    """The strongest cards on top: a foul, which the solver never plays."""
    ids = sorted((c.id for c in hand), key=lambda i: capsa.Card(i).rank, reverse=True)
    arrangement = capsa.Arrangement.from_ids(ids)
    assert arrangement.is_foul(RULES)
    return arrangement


def test_close_racing_submit_loses_nothing() -> None:
    choices = {seed: solver_choices(seed) for seed in SEEDS}
    lost = wrong_auto = unrecordable = trials = 0
    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline or trials < 20:
        seed = SEEDS[trials % len(SEEDS)]
        seat = 3 - trials % 2
        trials += 1
        rnd = capsa.Round(RULES, 4, 100, round_id=f"race/{trials}", server_seed=seed)
        hand = rnd.deal()[seat]
        mine = fouled(hand)
        submitted, closed = race(functools.partial(rnd.submit, seat, mine), rnd.close)
        assert closed is None
        assert submitted is None or isinstance(submitted, capsa.RoundError)
        if submitted is None and (rnd.arrangement(seat) != mine or not rnd.submitted(seat)):
            lost += 1
        for k in range(4):
            auto = not rnd.submitted(k)
            if auto and rnd.arrangement(k) != choices[seed][k]:
                wrong_auto += 1
        try:
            rnd.settle()
        except capsa.CapsaError:
            continue
        try:
            rnd.record_json()
        except capsa.CapsaError:
            unrecordable += 1
    assert (lost, wrong_auto, unrecordable) == (0, 0, 0), f"in {trials} trials"


def test_deal_racing_deal_succeeds_once() -> None:
    twice = trials = 0
    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline or trials < 100:
        trials += 1
        rnd = capsa.Round(RULES, 4, 100, round_id=f"deal/{trials}", server_seed=SEEDS[0])
        outcome = race(rnd.deal, rnd.deal)
        failed = [e for e in outcome if e is not None]
        assert all(isinstance(e, capsa.RoundError) for e in failed), failed
        if not failed:
            twice += 1
    assert twice == 0, f"{twice} of {trials} rounds dealt twice"
