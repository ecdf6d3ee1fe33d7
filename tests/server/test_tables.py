"""The reference server's tables in-process: a table keeps the round it
sealed last, and a change that fails half way leaves the state as sealed."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

import capsa

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from examples.server.tables import Table, TableHall, now_ms


def _arrangement(hand: list[capsa.Card]) -> str:
    cards = [str(card) for card in hand]
    return f"{' '.join(cards[:3])} / {' '.join(cards[3:8])} / {' '.join(cards[8:])}"


async def _until(check: Any) -> None:
    for _ in range(500):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the table did not get there")


def test_a_change_that_fails_half_way_leaves_the_sealed_state(tmp_path: Path) -> None:
    refused: set[str] = set()
    events: list[dict[str, Any]] = []

    def publish(table_id: str, event: dict[str, Any]) -> None:
        if event["event"] in refused:
            raise RuntimeError("the event could not be queued")
        events.append(event)

    async def run() -> None:
        hall = TableHall(
            key=b"k" * 32,
            rules=capsa.Rules(),
            seats=2,
            stake=100,
            deadline_ms=600_000,
            publish=publish,
        )
        await hall.open(f"sqlite:///{tmp_path}/records.db", ["t0"])
        table: Table = hall.tables["t0"]
        try:
            for player in ("a", "b"):
                table.join(player, None)
            await _until(lambda: table.status == "playing")  # its opening stored
            round_id = table.load().round_id
            for seat in range(2):
                table.add_seed(seat, round_id, f"seed {seat}", now_ms())
            rnd = table.load()
            assert rnd is table.load() and rnd.phase == "dealt"  # unsealed once, then kept
            older = table.state
            refused.add("submitted")
            with pytest.raises(RuntimeError):
                table.submit(0, round_id, _arrangement(rnd.hands[0]), now_ms())
            restored = table.load()
            assert restored is not rnd and not restored.submitted(0)  # the state as sealed
            refused.clear()
            table.submit(0, round_id, _arrangement(restored.hands[0]), now_ms())
            assert table.load().submitted(0)
            assert capsa.Round.from_dict(table.state or {}, key=hall.key).submitted(0)
            assert [e["event"] for e in events].count("submitted") == 1
            # an older state of the round, sealed under the same key, put back
            # in its place: refused, being bound to what the table saved last
            current = table.state
            table.state = older
            table._sealed_from = None
            with pytest.raises(capsa.StaleStateError, match="sequence"):
                table.load()
            table.state, table._sealed_from = current, None
            assert table.load().submitted(0)
        finally:
            await hall.close(5)

    asyncio.run(run())


def test_a_banker_games_bank_passes_round_the_table(tmp_path: Path) -> None:
    async def run() -> None:
        hall = TableHall(
            key=b"k" * 32,
            rules=capsa.Rules.preset("shisanshui-banker"),
            seats=2,
            stake=100,
            deadline_ms=600_000,
            publish=lambda table_id, event: None,
        )
        await hall.open(f"sqlite:///{tmp_path}/records.db", ["t0"])
        table: Table = hall.tables["t0"]
        try:
            for player in ("a", "b"):
                table.join(player, None)
            bankers = []
            for _ in range(2):
                await _until(lambda: table.status == "playing" and table.load().phase == "open")
                rnd = table.load()
                bankers.append(rnd.banker)
                assert table.view(0)["banker"] == rnd.banker
                for seat in range(2):
                    table.add_seed(seat, rnd.round_id, f"seed {seat}", now_ms())
                for seat in range(2):
                    hand = table.load().hands[seat]
                    table.submit(seat, rnd.round_id, _arrangement(hand), now_ms())
                played = rnd.round_id
                await _until(lambda: table.load().round_id != played)  # noqa: B023
            assert bankers == [1, 0]
        finally:
            await hall.close(5)

    asyncio.run(run())
