"""The tables of the server: who sits where, and each table's current round
kept as capsa's sealed state (``Round.to_dict(key=...)``), sealed again
after every change.

Every method runs on the event loop's thread and never awaits, so each
request reads, changes and saves a table's state in one step: the server
needs no lock of its own. A table also keeps the round it sealed last, so a
request unseals the state only when it is not the one the table sealed
(after a change that failed half way). capsa does the rounds, views,
deadlines and records; the store keeps the records and the ledgers.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import time
from collections.abc import Callable, Iterator
from typing import Any

import capsa
from examples.server.errors import ApiError
from examples.server.recorder import Recorder

__all__ = ["Table", "TableHall", "now_ms"]

Publish = Callable[[str, dict[str, Any]], None]
# What anyone at or near the table may see of a round (a seat's view minus
# that seat's own cards and decisions).
_PUBLIC = (
    "round_id",
    "table_id",
    "players",
    "phase",
    "commitment",
    "seats",
    "stakes",
    "rules",
    "deadline",
    "client_seeds_in",
    "submitted",
)


def now_ms() -> int:
    """The time in milliseconds since the Unix epoch, as rounds take it."""
    return int(time.time() * 1000)


class Table:
    """One table: its seats, its current round's sealed state, the digest
    its next record follows. Rounds start once every seat is taken and
    follow one another until the server stops."""

    def __init__(self, hall: TableHall, table_id: str, rounds: int, last: str | None) -> None:
        self.hall = hall
        self.table_id = table_id
        self.players: list[dict[str, str | None] | None] = [None] * hall.seats
        self.number = rounds  # rounds of this table already in the store
        self.previous_digest = last
        self.state: dict[str, Any] | None = None
        self.deadline = 0
        # the round self.state was sealed from; None: unseal self.state
        self._sealed_from: capsa.Round | None = None
        self._tokens: dict[int, str] = {}
        self._seeds_in: set[int] = set()  # the seats that sent this round's seed

    # ------------------------------------------------------------ seats

    def join(self, player: str, name: str | None) -> int:
        """The player's seat: the one they hold, else the first free one."""
        for seat, taken in enumerate(self.players):
            if taken is not None and taken["id"] == player:
                return seat
        if None not in self.players:
            raise ApiError(409, "TableFull", f"table {self.table_id!r} has no free seat")
        seat = self.players.index(None)
        self.players[seat] = {"id": player, "name": name}
        self._tokens.pop(seat, None)
        self.hall.publish(self.table_id, {"event": "joined", "seat": seat, "player": player})
        if None not in self.players:
            self.start_round(now_ms())
        return seat

    def token(self, seat: int) -> str:
        """The seat's token: what its player shows on every request."""
        token = self._tokens.get(seat)
        if token is None:
            player = self.players[seat]
            assert player is not None
            message = f"{self.table_id}\n{seat}\n{player['id']}".encode()
            token = self._tokens[seat] = hmac.new(
                self.hall.key, message, hashlib.sha256
            ).hexdigest()
        return token

    def check_seat(self, seat: int, token: str | None) -> None:
        """Refuses a seat the table does not have, or a token not the seat's."""
        if not 0 <= seat < len(self.players):
            raise ApiError(404, "UnknownSeat", f"table {self.table_id!r} has no seat {seat}")
        if self.players[seat] is None:
            raise ApiError(404, "UnknownSeat", f"seat {seat} of {self.table_id!r} is free")
        if token is None:
            raise ApiError(401, "MissingToken", "the seat's token is missing (Authorization)")
        if not hmac.compare_digest(token, self.token(seat)):
            raise ApiError(403, "NotYourSeat", f"the token is not seat {seat}'s")

    # ------------------------------------------------------------ rounds

    def load(self) -> capsa.Round:
        """The current round: the one the state was sealed from, else the
        state unsealed (refused by capsa when changed)."""
        if self.state is None:
            raise ApiError(409, "NoRound", f"table {self.table_id!r} waits for its players")
        if self._sealed_from is None:
            self._sealed_from = capsa.Round.from_dict(self.state, key=self.hall.key)
        return self._sealed_from

    def save(self, rnd: capsa.Round) -> None:
        self.state = rnd.to_dict(key=self.hall.key)
        self._sealed_from = rnd

    @contextlib.contextmanager
    def _changing(self) -> Iterator[None]:
        """A change of the current round: one that fails before it is saved
        leaves the state as it was sealed, and the next request unseals it."""
        try:
            yield
        except BaseException:
            self._sealed_from = None
            raise

    def current(self, round_id: str) -> capsa.Round:
        """The current round, which must be ``round_id``: a request for an
        earlier round comes too late."""
        rnd = self.load()
        if rnd.round_id != round_id:
            raise ApiError(
                409, "StaleRound", f"round {round_id!r} is over: the table plays {rnd.round_id!r}"
            )
        return rnd

    def start_round(self, now: int) -> None:
        self.number += 1
        hall = self.hall
        self.deadline = now + hall.deadline_ms
        rnd = capsa.Round(
            hall.rules,
            hall.seats,
            hall.stake,
            round_id=f"{self.table_id}-r{self.number}",
            nonce=self.number,
            previous_digest=self.previous_digest,
            table_id=self.table_id,
            players=[p for p in self.players if p is not None],
            deadline=self.deadline,
            require_client_seeds=True,
            meta={"played_at": now},
        )
        self._seeds_in = set()
        self.save(rnd)
        self.hall.publish(
            self.table_id,
            {
                "event": "round",
                "round_id": rnd.round_id,
                "commitment": rnd.commitment,
                "deadline": self.deadline,
            },
        )

    def add_seed(self, seat: int, round_id: str, seed: str, now: int) -> None:
        rnd = self.current(round_id)
        with self._changing():
            rnd.add_client_seed(seat, seed)
            seeds_in = self._seeds_in | {seat}
            if len(seeds_in) == rnd.seats:
                self._deal(rnd, now)
            else:
                self.save(rnd)
            self._seeds_in = seeds_in

    def submit(self, seat: int, round_id: str, arrangement: str, now: int) -> None:
        rnd = self.current(round_id)
        if rnd.phase == "dealt" and now >= self.deadline:
            raise ApiError(409, "LateSubmission", f"the deadline of {round_id!r} has passed")
        with self._changing():
            rnd.submit(seat, arrangement)
            self.hall.publish(
                self.table_id, {"event": "submitted", "round_id": round_id, "seat": seat}
            )
            if all(rnd.submitted(s) for s in range(rnd.seats)):
                self._finish(rnd, now, force=True)
            else:
                self.save(rnd)

    def tick(self, now: int) -> None:
        """Deals a round whose seeds did not all come by the deadline and
        closes one whose deadline passed."""
        if self.state is None or now < self.deadline:
            return
        rnd = self.load()
        with self._changing():
            if rnd.phase == "open":
                self._deal(rnd, now)
            if rnd.phase != "open":
                self._finish(rnd, now, force=False)

    def _deal(self, rnd: capsa.Round, now: int) -> None:
        rnd.deal(now=now)
        self.save(rnd)
        self.hall.publish(self.table_id, {"event": "dealt", "round_id": rnd.round_id})

    def _finish(self, rnd: capsa.Round, now: int, *, force: bool) -> None:
        """Closes (the solver arranges the seats that did not submit),
        settles, queues the record for the store, starts the next round."""
        if rnd.phase == "dealt":
            rnd.close(now=now, force=force)
            auto = [not rnd.submitted(s) for s in range(rnd.seats)]
            self.hall.publish(
                self.table_id, {"event": "closed", "round_id": rnd.round_id, "auto": auto}
            )
        settlement = rnd.settle()
        self.previous_digest = rnd.digest
        settled = {
            "event": "settled",
            "round_id": rnd.round_id,
            "digest": rnd.digest,
            "money": list(settlement.money),
        }
        # "settled" is told once the record is durable in the store
        self.hall.recorder.append(
            rnd.record_json(), lambda: self.hall.publish(self.table_id, settled)
        )
        self.start_round(now)

    def public(self) -> dict[str, Any]:
        """What anyone may see of the table now."""
        seen: dict[str, Any] = {
            "table_id": self.table_id,
            "players": self.players,
            "previous_digest": self.previous_digest,
        }
        if self.state is not None:
            view = self.load().view(0)
            seen.update({k: view[k] for k in _PUBLIC})
        return seen


class TableHall:
    """The server's tables, their common settings and the store."""

    def __init__(
        self,
        *,
        key: bytes,
        rules: capsa.Rules,
        seats: int,
        stake: int,
        deadline_ms: int,
        publish: Publish,
    ) -> None:
        self.key = key
        self.rules = rules
        self.seats = seats
        self.stake = stake
        self.deadline_ms = deadline_ms
        self.publish = publish
        self.tables: dict[str, Table] = {}
        self.recorder = Recorder()

    async def open(self, store_url: str, table_ids: list[str]) -> None:
        """Opens the store and each table where its chain stands in it, so a
        restarted server goes on with every table's chain."""
        await self.recorder.open(store_url)
        stored = {t.table_id: t for t in await self.recorder.run(lambda s: s.tables())}
        for table_id in table_ids:
            summary = stored.get(table_id)
            rounds, last = (summary.rounds, summary.last_digest) if summary else (0, None)
            self.tables[table_id] = Table(self, table_id, rounds, last)

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ApiError(404, "UnknownTable", f"there is no table {table_id!r}")
        return table

    def tick(self, now: int) -> None:
        for table in self.tables.values():
            table.tick(now)
