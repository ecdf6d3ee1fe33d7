"""The tables of the server: who sits where, and each table's current round
kept as capsa's sealed state (``Round.to_dict(key=...)``), sealed again
after every change.

Every method runs on the event loop's thread and never awaits, so each
request reads, changes and saves a table's state in one step: the server
needs no lock of its own. A table also keeps the round it sealed last, so a
request unseals the state only when it is not the one the table sealed
(after a change that failed half way). capsa does the rounds, views and
records; the store keeps the records and the ledgers.

A table acknowledges only what is durable. A round is opened in the store
(its commitment recorded as the table's pending round) before its
commitment is shown to anyone; once it settles, its record and the next
round's opening go to the store together, and only when they are
committed does the table publish the result (``settled``) and the next
round. Meanwhile the table shows the round closed. A table whose record
the store refuses for good, whose round fails, or whose lease is lost is
paused: it plays no more rounds, says why, and the others go on.

Two windows time a round: the seed window (``seed_ms`` from the round's
publication: a seat that sends no seed by then is dealt without it) and
the arrangement window (``deadline_ms`` from the deal: each seat has all of
it, however late the deal came).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import capsa
import capsa.store
from capsa.records import AUTO_ARRANGE_POLICIES
from examples.server.errors import ApiError, reason_of
from examples.server.recorder import Job, Recorder

__all__ = ["AUTO_ARRANGE", "Table", "TableHall", "now_ms"]

Publish = Callable[[str, dict[str, Any]], None]
_LOG = logging.getLogger("capsa.server")
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
    "client_seeds_in",
    "submitted",
    "arrangement_ms",
    "auto_arrange",
)
AUTO_ARRANGE = AUTO_ARRANGE_POLICIES
"""The auto-arrange policies: what arranges a seat that did not submit."""


def now_ms() -> int:
    """The time in milliseconds since the Unix epoch, as rounds take it."""
    return int(time.time() * 1000)


class Table:
    """One table: its seats, its current round's sealed state, the digest
    its next record follows, and where it stands (``status``: ``seating``,
    ``opening`` (its round's opening on its way to the store), ``playing``,
    ``recording`` (its round's record on its way), ``stopped`` (the
    server stops) or ``paused``, with the reason in ``paused``). Rounds
    start once every seat is taken and follow one another."""

    def __init__(self, hall: TableHall, table_id: str, rounds: int, last: str | None) -> None:
        self.hall = hall
        self.table_id = table_id
        self.players: list[dict[str, str | None] | None] = [None] * hall.seats
        self.number = rounds  # the table's rounds in the store, then the latest made
        self.previous_digest = last
        self.state: dict[str, Any] | None = None
        self.status = "seating"
        self.paused: str | None = None
        self.seed_deadline = 0  # the seed window's end (ms), once published
        self.deadline = 0  # the arrangement window's end (ms), once dealt
        # the round self.state was sealed from; None: unseal self.state
        self._sealed_from: capsa.Round | None = None
        # the round id and sequence of the state saved last, which binds it
        self._saved: tuple[str, int] = ("", 0)
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
        if None not in self.players and self.status == "seating" and not self.paused:
            self._open(now_ms())
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
            raise ApiError(409, "NoRound", f"table {self.table_id!r} has no round yet")
        if self._sealed_from is None:
            # bound to what the table saved last: an older state of the
            # round, or another table's, is refused (StaleStateError)
            round_id, sequence = self._saved
            self._sealed_from = capsa.Round.from_dict(
                self.state,
                key=self.hall.key,
                table_id=self.table_id,
                round_id=round_id,
                sequence=sequence,
            )
        return self._sealed_from

    def save(self, rnd: capsa.Round) -> None:
        self.state = rnd.to_dict(key=self.hall.key)
        self._saved = (rnd.round_id, rnd.sequence)
        self._sealed_from = rnd

    def view(self, seat: int) -> dict[str, Any]:
        """The seat's view of the current round, with the table's windows."""
        seen = self.load().view(seat)
        seen.update(self._windows())
        return seen

    def _windows(self) -> dict[str, int | None]:
        return {"seed_deadline": self.seed_deadline or None, "deadline": self.deadline or None}

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
        """The current round, which must be ``round_id`` and in play: a
        request for an earlier round comes too late, one at a paused table
        is refused."""
        if self.paused is not None:
            raise ApiError(409, "TablePaused", f"table {self.table_id!r} is paused: {self.paused}")
        rnd = self.load()
        if rnd.round_id != round_id:
            raise ApiError(
                409, "StaleRound", f"round {round_id!r} is over: the table plays {rnd.round_id!r}"
            )
        return rnd

    def _new_round(self, now: int, previous: str | None) -> capsa.Round:
        """The table's next round, not shown to anyone yet."""
        self.number += 1
        hall = self.hall
        return capsa.Round(
            hall.rules,
            hall.seats,
            hall.stake,
            round_id=f"{self.table_id}-r{self.number}",
            nonce=self.number,
            previous_digest=previous,
            table_id=self.table_id,
            players=[p for p in self.players if p is not None],
            # the seed window counted from now: the table counts it again
            # from the round's publication, and deals then
            seed_deadline=now + hall.seed_ms,
            arrangement_ms=hall.deadline_ms,
            require_client_seeds=True,
            meta={"played_at": now},
            auto_arrange=hall.auto_arrange,
            # a banker game's bank passes round the table, one seat a round
            banker=self.number % hall.seats if hall.rules["banker.enabled"] else None,
        )

    def _opening(self, rnd: capsa.Round) -> capsa.store.Opening:
        return capsa.store.Opening(
            self.table_id, rnd.round_id, rnd.nonce, rnd.commitment, rnd.previous_digest
        )

    def _open(self, now: int) -> None:
        """Opens the table's first round in the store; it is published once
        it is recorded."""
        if self.hall.stopping:
            return
        rnd = self._new_round(now, self.previous_digest)
        self.status = "opening"

        def stored(opened: bool) -> None:
            self._publish_round(rnd if opened else None)

        self.hall.recorder.submit(
            Job(self.table_id, stored, self.pause, opening=self._opening(rnd))
        )

    def _publish_round(self, rnd: capsa.Round | None) -> None:
        """Shows the round now recorded as pending (None: no next round)."""
        if rnd is None or self.hall.stopping or self.paused is not None:
            if self.paused is None:
                self.status = "stopped"
            return
        now = now_ms()
        self._seeds_in = set()
        self.save(rnd)
        self.status = "playing"
        self.seed_deadline = now + self.hall.seed_ms
        self.deadline = 0
        self.hall.publish(
            self.table_id,
            {
                "event": "round",
                "round_id": rnd.round_id,
                "commitment": rnd.commitment,
                "seed_deadline": self.seed_deadline,
                "arrangement_ms": self.hall.deadline_ms,
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
                self._finish(rnd, now)
            else:
                self.save(rnd)

    def tick(self, now: int) -> None:
        """Deals a round whose seed window ended and closes one whose
        arrangement window ended; a round that fails to pauses its table."""
        if self.status != "playing" or self.paused is not None:
            return
        try:
            rnd = self.load()
            with self._changing():
                if rnd.phase == "open" and now >= self.seed_deadline:
                    self._deal(rnd, now)
                if rnd.phase == "dealt" and now >= self.deadline:
                    self._finish(rnd, now)
        except Exception as exc:  # tried again every tick, it would fail every tick
            _LOG.exception("table %s: the round failed", self.table_id)
            self.pause(f"its round failed: {reason_of(exc)}")

    def _deal(self, rnd: capsa.Round, now: int) -> None:
        rnd.deal(now=now)  # its arrangement window starts now
        self.deadline = rnd.deadline or 0
        self.save(rnd)
        self.hall.publish(
            self.table_id, {"event": "dealt", "round_id": rnd.round_id, "deadline": self.deadline}
        )

    def _finish(self, rnd: capsa.Round, now: int) -> None:
        """Closes (the auto-arrange policy arranges the seats that did not
        submit) and settles the round, and sends its record with the next
        round's opening to the store; the table shows the round closed
        until they are stored."""
        if rnd.phase == "dealt":
            rnd.close(now=now, force=True)  # every seat submitted, or the window ended
            auto = [not rnd.submitted(s) for s in range(rnd.seats)]
            self.hall.publish(
                self.table_id, {"event": "closed", "round_id": rnd.round_id, "auto": auto}
            )
        self.save(rnd)
        try:
            self._record(rnd, now)
        except Exception as exc:  # the submission stands; the round cannot go on
            _LOG.exception("table %s: the round failed", self.table_id)
            self.pause(f"its round could not be settled: {reason_of(exc)}")

    def _record(self, rnd: capsa.Round, now: int) -> None:
        """Settles the closed round and sends its record, with the next
        round's opening, to the store."""
        settlement = rnd.settle()
        record, digest = rnd.record_json(), rnd.digest
        self._sealed_from = None  # the settled round is shown once it is stored
        hall = self.hall
        following = None if hall.stopping or self.paused else self._new_round(now, digest)
        self.status = "recording"
        settled = {
            "event": "settled",
            "round_id": rnd.round_id,
            "digest": digest,
            "money": list(settlement.money),
        }

        def stored(opened: bool) -> None:
            self.previous_digest = digest
            hall.publish(self.table_id, settled)
            self._publish_round(following if opened else None)

        hall.recorder.submit(
            Job(
                self.table_id,
                stored,
                self.pause,
                record=record,
                round_id=rnd.round_id,
                opening=None if following is None else self._opening(following),
            )
        )

    def pause(self, reason: str) -> None:
        """Pauses the table: no more rounds, every action refused (409
        ``TablePaused``), a ``paused`` event and an alarm in the log."""
        if self.paused is not None:
            return
        self.paused = reason
        self.status = "paused"
        _LOG.error("ALARM: table %s paused: %s", self.table_id, reason)
        self.hall.publish(self.table_id, {"event": "paused", "reason": reason})

    def public(self) -> dict[str, Any]:
        """What anyone may see of the table now."""
        seen: dict[str, Any] = {
            "table_id": self.table_id,
            "status": self.status,
            "players": self.players,
            "previous_digest": self.previous_digest,
        }
        recorder = self.hall.recorder
        if self.paused is not None:
            seen["paused"] = self.paused
        elif self.status in ("opening", "recording") and recorder.unavailable is not None:
            seen["status"] = "waiting for the store"
            seen["store"] = recorder.unavailable
        if self.state is not None:
            view = self.load().view(0)
            seen.update({k: view[k] for k in _PUBLIC})
            seen.update(self._windows())
        return seen


class TableHall:
    """The server's tables, their common settings and the store: rounds of
    ``seats`` at ``stake`` under ``rules``, a seed window of ``seed_ms``
    and an arrangement window of ``deadline_ms``, seats left unarranged
    arranged by ``auto_arrange``."""

    def __init__(
        self,
        *,
        key: bytes,
        rules: capsa.Rules,
        seats: int,
        stake: int,
        deadline_ms: int,
        publish: Publish,
        seed_ms: int = 5_000,
        auto_arrange: str = "solver",
        recorder: Recorder | None = None,
    ) -> None:
        self.key = key
        self.rules = rules
        self.seats = seats
        self.stake = stake
        self.deadline_ms = deadline_ms
        self.seed_ms = seed_ms
        self.auto_arrange = auto_arrange
        self.publish = publish
        self.tables: dict[str, Table] = {}
        self.recorder = recorder or Recorder()
        self.stopping = False

    async def open(
        self, store_url: str, table_ids: list[str], *, store_key: bytes | None = None
    ) -> None:
        """Opens the store, leases the tables (when the recorder has a
        tenancy), closes by a void record each round another server left
        pending, and opens each table where its chain stands, so a
        restarted server goes on with every table's chain. A table whose
        pending round cannot be voided starts paused. Raises
        ``LeaseError`` for a table another live server holds."""
        recorder = self.recorder
        await recorder.open(store_url, store_key)
        tenancy, holder = recorder.tenancy, recorder.holder
        if tenancy is not None:
            await recorder.run(tenancy.claim)
        pending = await recorder.run(lambda store: store.pending_rounds())
        refused: dict[str, str] = {}
        for opening in pending:
            table_id = opening.table_id
            if table_id is None or table_id not in table_ids:
                continue
            reason = (
                f"round {opening.round_id} was dealt but never recorded: its server "
                f"stopped first (voided at the start of {holder or 'the next server'})"
            )
            try:
                await recorder.void(opening.table_id, reason)
            except capsa.store.DatabaseUnavailableError:
                raise
            except Exception as exc:
                refused[table_id] = (
                    f"its pending round {opening.round_id} could not be voided: {reason_of(exc)}"
                )
            else:
                _LOG.warning("table %s: round %s voided", table_id, opening.round_id)
        stored = {t.table_id: t for t in await recorder.run(lambda store: store.tables())}
        for table_id in table_ids:
            summary = stored.get(table_id)
            rounds, last = (summary.rounds, summary.last_digest) if summary else (0, None)
            table = self.tables[table_id] = Table(self, table_id, rounds, last)
            if table_id in refused:
                table.pause(refused[table_id])

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ApiError(404, "UnknownTable", f"there is no table {table_id!r}")
        return table

    def tick(self, now: int) -> None:
        for table in self.tables.values():
            table.tick(now)

    def stop_opening(self) -> None:
        """The server stops: no table opens another round."""
        self.stopping = True

    async def close(self, seconds: float) -> None:
        """Stops: stores what is queued (at most ``seconds``), closes by a
        void record every round of the tables still pending (in play, or
        opened and never shown), releases the leases, closes the store."""
        self.stopping = True
        recorder = self.recorder
        drained = await recorder.close(seconds)
        holder, tenancy = recorder.holder, recorder.tenancy
        if drained:
            reason = f"the server stopped before the round was played out ({holder or 'stop'})"
            held = set(self.tables) if tenancy is None else set(tenancy.held)
            voided: list[str] = []
            try:
                pending = await recorder.run(lambda store: store.pending_rounds())
                for opening in pending:
                    if opening.table_id in held:
                        await recorder.void(opening.table_id, reason)
                        voided.append(opening.round_id)
            except Exception as exc:
                _LOG.error("stopping: the rounds in play are left pending (%s)", reason_of(exc))
            if voided:
                _LOG.warning("stopping: the rounds in play voided: %s", ", ".join(voided))
        if tenancy is not None:
            try:
                await recorder.run(tenancy.release)
            except Exception as exc:
                _LOG.error("stopping: the leases were not released (%s)", reason_of(exc))
        await recorder.shut()
