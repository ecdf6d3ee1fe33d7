"""One round of one table, as a game server runs it, dealt provably fair.

:class:`Round` is a state machine: ``open`` (the commitment to the server
seed can be published), ``dealt`` (players submit arrangements, surrender
and declare or decline naturals, as often as they like), ``closed`` (every
seat that did not submit was arranged by the round's auto-arrange policy:
the solver, capsa's greedy strategy or a fouling split), ``settled`` (the
settlement and the record are fixed). Every action out of order, on a seat
the table does not have, with cards the seat was not dealt or not allowed
by the rules raises a :class:`capsa.CapsaError` subclass naming what was
wrong, and changes nothing.

The deal is provably fair (algorithm ``capsa-fair-1``, ``docs/records.md``):
the server seed is 32 bytes from the operating system's entropy
(:func:`secrets.token_bytes`), its SHA-256 is the commitment published before
the deal, and the deck is derived from the server seed, the players' client
seeds and the nonce through HMAC-SHA256 feeding an unbiased Fisher-Yates
shuffle. The record reveals the seed, so anyone can check the deal
(:func:`capsa.verify_deal`) and replay the whole round (:func:`capsa.replay`).

Every method is atomic: one lock per round is held through each action
and reading (across the solver at the close), so threads serving the same
round cannot lose a submission or settle a round that cannot be recorded.

The state serialises (:meth:`Round.to_dict`, :meth:`Round.from_dict`) for a
server that keeps no objects between requests, sealed by a MAC under the
server's key (:mod:`capsa.round.state`). The state holds the server seed
before it is revealed: keep it on the server, never send it to a player
before the round is settled; :meth:`Round.view` is what a player may see.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Mapping, Sequence
from types import EllipsisType
from typing import Any

from capsa import _core
from capsa._core import ArgumentError, CapsaError, Card, TableError
from capsa.arrangement import Arrangement
from capsa.round.args import check_rules, is_int, read_client_seed
from capsa.round.play import (
    SeatPlay,
    check_auto_seat,
    checked_arrangement,
    close_seats,
    record_rules,
    refused_foul,
    seat_roles,
    settle_play,
)
from capsa.round.state import (
    PHASES,
    STATE_FORMAT,
    STATE_VERSION,
    RoundError,
    StaleStateError,
    checked_state,
    is_mapping,
    play_flag,
    round_arguments,
    round_error,
    rules_of_state,
    rules_text,
    seal,
    settled_digest,
    state_getter,
)
from capsa.round.timers import Timers, read_now, read_policy
from capsa.round.view import player_view
from capsa.rules import Rules
from capsa.settlement import Settlement

__all__ = ["PHASES", "Round", "RoundError", "StaleStateError"]


class Round:
    """One round of one table: commitment, deal, submissions, close, settle, record.

    ``Round(rules, seats=4, stakes=100, round_id="table-7/round-12")``:

    * ``rules``: a :class:`capsa.Rules` (``None``: ``capsa-susun``);
    * ``seats``: 2 to 4, up to as many as the rules' deck deals 13 cards to
      under a larger deck (``TableError``);
    * ``stakes``: minor units per point, one int for every pair or a
      seats x seats symmetric matrix, every entry >= 0 (``None``: the rules'
      ``money.stake``);
    * ``round_id``: 1 to 256 bytes of text naming the round in the record;
    * ``nonce``: an int 0..2**64-1 mixed into the deal (e.g. the round's
      number at the table);
    * ``previous_digest``: the digest of the table's previous record, so
      that the records form a chain (``None`` for the first);
    * ``meta``: the server's own notes for the record (times, table names):
      at most 32 entries of str, int, bool or None;
    * ``table_id``: 1 to 256 bytes of text naming the table in the record,
      so that a log of many tables replays table by table (``None``: a
      server of one table);
    * ``players``: the player at each seat, one per seat, each a str (its
      id) or ``{"id": str, "name": str | None}`` (ids and names 1 to 256
      bytes, no id at two seats; ``None``: seat k's player is ``"seat-k"``
      with no name);
    * ``server_seed``: leave it out: 32 bytes are drawn from the operating
      system's entropy. Give it only to recreate a round (tests, examples);
    * ``deadline``: when the arranging time ends, in milliseconds since the
      Unix epoch (an int), or ``None`` for none: :meth:`close` refuses
      before it unless forced;
    * ``arrangement_ms``: instead of ``deadline``, the arranging time's
      length (an int >= 1): the deal sets the deadline to its own time plus
      ``arrangement_ms``, so a late deal takes none of it (both given: an
      ``ArgumentError``);
    * ``require_client_seeds``: when true, :meth:`deal` waits until every
      seat's client seed is in (:meth:`add_client_seed`) or the seed
      deadline has passed;
    * ``seed_deadline``: with ``require_client_seeds``, when the deal goes
      ahead without the missing seeds, in milliseconds since the Unix epoch
      (``None``: the ``deadline``; none with ``arrangement_ms``), never
      after ``deadline``;
    * ``auto_arrange``: what arranges a seat that did not submit by the
      close, as the record names it: ``"solver"`` (never fouls; the default
      under the 52-card deck, a ``RulesError`` under a larger deck, which
      the solver does not play), ``"greedy"`` (capsa's greedy strategy;
      never fouls; the default under a larger deck) or
      ``"foul"`` (the hand's first fouling split: the rules' foul penalty
      applies; a seat that decided nothing declines its natural; an
      ``ArgumentError`` under ``foul.mode = "refuse"``);
    * ``banker``: the banker seat of a banker game (``banker.enabled``),
      required there and refused elsewhere (``docs/rules.md``, "Banker
      games");
    * ``multipliers``: in a banker game, each seat's stake multiplier, one
      int per seat, the banker's 1 and every other in
      ``1..banker.max_multiplier`` (``None``: each 1).

    Under ``foul.mode = "refuse"`` :meth:`submit` refuses a fouled
    arrangement, so that the player arranges again.

    Every method and property holds the round's lock, so threads may share
    a round. Raises ``TableError``/``ArgumentError`` naming the argument for
    a bad value (the stake and the bound for stakes a round could settle
    beyond 64-bit money, ``docs/rules.md``), ``TypeError`` for a wrong type.
    """

    __slots__ = (
        "_auto",
        "_banker",
        "_client_seeds",
        "_commitment",
        "_digest",
        "_hand_cards",
        "_hands",
        "_lock",
        "_meta",
        "_multipliers",
        "_nonce",
        "_phase",
        "_play",
        "_players",
        "_previous_digest",
        "_record_spans",
        "_record_text",
        "_require_seeds",
        "_round_id",
        "_rules",
        "_rules_text",
        "_seats",
        "_seeds_in",
        "_sequence",
        "_server_seed",
        "_settlement",
        "_settlement_of_text",
        "_stakes",
        "_table_id",
        "_timers",
    )

    def __init__(
        self,
        rules: Rules | None = None,
        seats: int = 4,
        stakes: int | Sequence[Sequence[int]] | None = None,
        *,
        round_id: str,
        nonce: int = 0,
        previous_digest: str | None = None,
        meta: Mapping[str, str | int | bool | None] | None = None,
        server_seed: bytes | None = None,
        deadline: int | None = None,
        require_client_seeds: bool = False,
        table_id: str | None = None,
        players: Sequence[str | Mapping[str, str | None]] | None = None,
        seed_deadline: int | None = None,
        arrangement_ms: int | None = None,
        auto_arrange: str | None = None,
        banker: int | None = None,
        multipliers: Sequence[int] | None = None,
    ) -> None:
        self._lock = threading.RLock()
        self._rules = check_rules(rules)
        # every argument the engine reads, in one call
        given = (seats, stakes, round_id, nonce, previous_digest, meta, table_id, players)
        (
            self._seats,
            stakes_read,
            self._round_id,
            self._nonce,
            self._previous_digest,
            self._meta,
            self._table_id,
            self._players,
            seed,
        ) = _core.read_round_args(self._rules, *given, server_seed)
        self._stakes = int(self._rules["money.stake"]) if stakes_read is None else stakes_read
        self._banker, self._multipliers = _core.read_seat_roles(
            self._rules, self._seats, banker, multipliers
        )
        # a round that is made can always be settled
        _core.check_settlement_fits(self._rules, self._seats, self._stakes)
        self._server_seed = secrets.token_bytes(32) if seed is None else seed
        self._require_seeds = _core.read_flag(require_client_seeds, "require_client_seeds")
        self._timers = Timers(deadline, seed_deadline, arrangement_ms, self._require_seeds)
        self._auto = read_policy(auto_arrange, self._rules)
        self._commitment = _core.fair_commitment(self._server_seed)
        self._phase = "open"
        self._sequence = 0
        self._client_seeds: list[str] = []
        self._seeds_in: list[str | None] = [None] * self._seats
        self._hands: list[tuple[int, ...]] = []
        self._hand_cards: list[list[Card]] = []
        self._play = [SeatPlay() for _ in range(self._seats)]
        self._settlement: Settlement | None = None
        # the settlement the record's text was written from, when it was
        self._settlement_of_text: Settlement | None = None
        self._record_text: str | None = None
        # where the text written with that settlement holds rules and settlement
        self._record_spans: tuple[int, int, int, int] = (0, 0, 0, 0)
        self._digest: str | None = None
        self._rules_text: str | None = None

    # ------------------------------------------------------------ reading

    @property
    def phase(self) -> str:
        """``"open"``, ``"dealt"``, ``"closed"`` or ``"settled"``."""
        with self._lock:
            return self._phase

    @property
    def sequence(self) -> int:
        """The round's changes so far (a seed added, the deal, each
        submission, surrender and natural decided, the close, the
        settlement): what :meth:`from_dict` binds a state to."""
        with self._lock:
            return self._sequence

    @property
    def commitment(self) -> str:
        """The SHA-256 of the server seed (hex): publish it before the deal."""
        return self._commitment

    @property
    def rules(self) -> Rules:
        """The rules the round is played under."""
        return self._rules

    @property
    def seats(self) -> int:
        """The table's seat count."""
        return self._seats

    @property
    def stakes(self) -> int | list[list[int]]:
        """The stakes (one int, or a copy of the matrix)."""
        return self._stakes if isinstance(self._stakes, int) else [r[:] for r in self._stakes]

    @property
    def banker(self) -> int | None:
        """The banker seat of a banker game (``None``: no banker)."""
        return self._banker

    @property
    def multipliers(self) -> list[int]:
        """Each seat's stake multiplier (each 1 outside a banker game)."""
        return list(self._multipliers)

    @property
    def round_id(self) -> str:
        """The round's id, as the record holds it."""
        return self._round_id

    @property
    def table_id(self) -> str | None:
        """The table's id, as the record holds it (``None``: not given)."""
        return self._table_id

    @property
    def players(self) -> list[dict[str, str | None]]:
        """The player at each seat, ``{"id": ..., "name": ...}`` (a copy)."""
        return [dict(p) for p in self._players]

    @property
    def nonce(self) -> int:
        """The nonce mixed into the deal."""
        return self._nonce

    @property
    def previous_digest(self) -> str | None:
        """The digest of the table's previous record (``None`` for the first)."""
        return self._previous_digest

    @property
    def deadline(self) -> int | None:
        """When the arranging time ends (milliseconds since the Unix epoch), or
        ``None`` (none; with ``arrangement_ms``, none until the deal sets it)."""
        with self._lock:
            return self._timers.deadline

    @property
    def seed_deadline(self) -> int | None:
        """When a deal waiting for client seeds goes ahead without the
        missing ones (milliseconds since the Unix epoch), or ``None`` (it
        waits for every one, or for none)."""
        return self._timers.seed_deadline

    @property
    def arrangement_ms(self) -> int | None:
        """The arranging time the deal gives (milliseconds), or ``None``."""
        return self._timers.arrangement_ms

    @property
    def auto_arrange(self) -> str:
        """The auto-arrange policy: ``"solver"``, ``"greedy"`` or ``"foul"``."""
        return self._auto

    @property
    def require_client_seeds(self) -> bool:
        """Whether the deal waits for every seat's client seed (or the seed deadline)."""
        return self._require_seeds

    @property
    def client_seeds(self) -> list[str]:
        """The client seeds the deal mixed in (empty before the deal or when none)."""
        with self._lock:
            return list(self._client_seeds)

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's 13 cards, sorted (``RoundError`` before the deal)."""
        with self._lock:
            self._need("dealt", "closed", "settled", action="read the hands")
            return [list(h) for h in self._cards()]

    @property
    def server_seed(self) -> bytes:
        """The server seed: ``RoundError`` until the round is settled (it is
        revealed in the record, never before)."""
        with self._lock:
            self._need("settled", action="reveal the server seed")
            return self._server_seed

    def arrangement(self, seat: int) -> Arrangement | None:
        """The seat's arrangement so far (submitted, or arranged at the
        close), or ``None``. Raises ``ArgumentError`` for a seat the table
        does not have."""
        with self._lock:
            ids = self._play[self._seat(seat)].arrangement
            return None if ids is None else checked_arrangement(ids)

    def submitted(self, seat: int) -> bool:
        """True when the seat submitted an arrangement itself. Raises
        ``ArgumentError`` for a seat the table does not have."""
        with self._lock:
            play = self._play[self._seat(seat)]
            return play.arrangement is not None and not play.auto

    def view(self, seat: int) -> dict[str, Any]:
        """What the seat's player may see now, as a JSON-ready dict
        (``docs/records.md``, "What a player sees"): never another seat's
        cards, arrangement or client seed before the settlement, never the
        server seed before it; after the settlement the whole record.
        Raises ``ArgumentError`` for a seat the table does not have."""
        with self._lock:
            k = self._seat(seat)
            play = self._play[k]
            return player_view(
                round_id=self._round_id,
                table_id=self._table_id,
                players=[dict(p) for p in self._players],
                phase=self._phase,
                commitment=self._commitment,
                seats=self._seats,
                stakes=self.stakes,
                rules=self._rules.name,
                deck=self._rules.deck,
                timers=self._timers,
                auto_arrange=self._auto,
                roles=(self._banker, list(self._multipliers)),
                seat=k,
                client_seed=self._client_seeds[k] if self._client_seeds else self._seeds_in[k],
                # after the deal, what the deal mixed in (as a restored round knows it)
                seeds_in=[s is not None for s in self._seeds_in]
                if self._phase == "open"
                else [bool(self._client_seeds)] * self._seats,
                hand=[str(c) for c in self._cards()[k]] if self._hands else None,
                submitted=[p.arrangement is not None and not p.auto for p in self._play],
                own=(play.arrangement_text(), play.auto, play.surrender, play.declare_natural),
                record=self.record() if self._phase == "settled" else None,
            )

    # ------------------------------------------------------------ checks

    def _cards(self) -> list[list[Card]]:
        """Each seat's cards as ``Card`` objects (made once, when first read)."""
        if len(self._hand_cards) != len(self._hands):
            self._hand_cards = [[Card(i) for i in h] for h in self._hands]
        return self._hand_cards

    def _need(self, *phases: str, action: str) -> None:
        if self._phase in phases:
            return
        now, needed = PHASES.index(self._phase), [PHASES.index(p) for p in phases]
        if now > max(needed):
            hint = f"the round is already {self._phase}"
        else:
            hint = f"the round is not {PHASES[min(needed)]} yet"
        raise round_error(f"cannot {action}: {hint}")

    def _seat(self, seat: object) -> int:
        if type(seat) is int and 0 <= seat < self._seats:
            return seat
        if not is_int(seat):
            raise TypeError(f"seat must be an int, not {type(seat).__name__}")
        assert isinstance(seat, int)
        if not 0 <= seat < self._seats:
            raise ArgumentError(
                f"seat {seat} is not at the table: it has seats 0 to {self._seats - 1}"
            )
        return seat

    def _has_natural(self, seat: int) -> bool:
        return _core.natural(self._hands[seat], self._rules) is not None

    # ------------------------------------------------------------ actions

    def add_client_seed(self, seat: int, seed: str) -> None:
        """The seat's client seed (text of at most 256 bytes of UTF-8), before
        the deal; one per seat. Raises ``RoundError`` after the deal or when
        the seat's seed is already in, ``ArgumentError`` for a seat the table
        does not have or a seed too long, ``TypeError`` for a wrong type."""
        with self._lock:
            self._need("open", action="add a client seed")
            k = self._seat(seat)
            text = read_client_seed(k, seed)
            if self._seeds_in[k] is not None:
                raise round_error(f"seat {k}'s client seed is already in", k)
            self._seeds_in[k] = text
            self._sequence += 1

    def deal(
        self, client_seeds: Sequence[str] | None = None, *, now: int | None = None
    ) -> list[list[Card]]:
        """Deals: mixes in the client seeds and returns each seat's 13 cards,
        sorted. The seeds are ``client_seeds`` (one str of at most 256 bytes
        per seat, or none), or those added by :meth:`add_client_seed` (a
        seat without one gives the empty text). With
        ``require_client_seeds``, the deal waits until every seat's seed is in
        or ``now`` (milliseconds since the Unix epoch; default the system
        clock) is past the seed deadline. With ``arrangement_ms`` the deal
        sets the deadline, ``now`` plus ``arrangement_ms``.

        Raises ``RoundError`` when already dealt, when seeds were both added
        and given, or when required seeds are missing; ``ArgumentError`` for
        the wrong number of client seeds or one too long; ``TypeError`` for a
        wrong type (each raised).
        """
        with self._lock:
            if self._phase != "open":
                self._need("open", action="deal")
            at = read_now(now)
            added = self._seeds_in.count(None) != self._seats
            if added and client_seeds is not None:
                raise round_error(
                    "cannot deal: client seeds were added one at a time; give none here"
                )
            if self._require_seeds and not self._timers.seeds_due(at):
                given = self._seeds_in if client_seeds is None else list(client_seeds)
                missing = [k for k in range(self._seats) if k >= len(given) or given[k] is None]
                if missing:
                    raise round_error(
                        "cannot deal: the round requires every seat's client seed before the "
                        f"seed deadline; missing seat {', '.join(map(str, missing))}"
                    )
            if added:
                client_seeds = [s or "" for s in self._seeds_in]
            hands = self._deal_now(client_seeds)
            self._timers.dealt_at(at)
            return hands

    def _deal_now(self, client_seeds: Sequence[str] | None) -> list[list[Card]]:
        hands, cards = _core.fair_deal(
            self._server_seed, client_seeds, self._nonce, self._seats, self._rules
        )
        self._client_seeds = list(client_seeds) if client_seeds is not None else []
        self._hands = hands
        self._hand_cards = cards
        self._phase = "dealt"
        self._sequence += 1
        return [list(h) for h in cards]

    def submit(
        self, seat: int, arrangement: Arrangement | str | Sequence[int | str | Card]
    ) -> None:
        """The seat's arrangement: an :class:`Arrangement`, ``"top / middle /
        bottom"`` text or 13 cards in row order, holding exactly the seat's
        13 cards. A later submission replaces it, until the close; one that
        returned is never replaced by the close.

        Raises ``RoundError`` out of the dealt phase; ``ArgumentError`` for a seat
        the table does not have; ``HandError``/``CardError`` naming the seat
        and the cards it was not dealt; ``TableError`` naming the seat for an
        arrangement that fouls under ``foul.mode = "refuse"`` (the seat's
        arrangement stays as it was).
        """
        with self._lock:
            if self._phase != "dealt":
                self._need("dealt", action="submit")
            k = self._seat(seat)
            play = self._play[k]
            ids = _core.submission(arrangement, self._hands[k], k, self._rules)
            if (refused := refused_foul(ids, self._rules, k)) is not None:
                raise refused
            play.arrangement = ids
            play.text = None
            self._sequence += 1

    def surrender(self, seat: int, surrender: bool = True) -> None:
        """The seat surrenders (or, with ``False``, takes it back), until the
        close. Raises ``TableError`` when the rules do not allow surrender."""
        with self._lock:
            self._need("dealt", action="surrender")
            k = self._seat(seat)
            flag = _core.read_flag(surrender, "surrender")
            if flag and not self._rules["surrender.enabled"]:
                error = TableError(
                    f"seat {k}: the rules {self._rules.name!r} do not allow surrender "
                    "(surrender.enabled is false)"
                )
                error.seat = k
                raise error
            self._play[k].surrender = flag
            self._sequence += 1

    def declare_natural(self, seat: int, declare: bool = True) -> None:
        """The seat declares its natural (or, with ``False``, declines it and
        plays its rows), until the close. Raises ``RoundError`` when its hand holds
        no natural the rules enable. A seat that decides nothing declares."""
        with self._lock:
            self._need("dealt", action="declare a natural")
            k = self._seat(seat)
            flag = _core.read_flag(declare, "declare_natural")
            if not self._has_natural(k):
                raise round_error(
                    f"seat {k} holds no natural that the rules {self._rules.name!r} enable, "
                    "so it has none to declare or decline",
                    k,
                )
            self._play[k].declare_natural = flag
            self._sequence += 1

    def close(self, now: int | None = None, *, force: bool = False) -> None:
        """Closes the round (the arranging time is over): every seat that did
        not submit is arranged by the round's ``auto_arrange`` policy and,
        when it decided nothing, decides its natural as the policy does (the
        solver when it would, greedy declares, foul declines). ``now`` is the
        time in milliseconds since the Unix epoch (default the system clock);
        before the deadline the close is refused unless ``force`` is true.

        Raises ``RoundError`` out of the dealt phase or before the deadline;
        ``TypeError``/``ArgumentError`` for a bad ``now`` (a ``TypeError``
        for a ``force`` that is not a bool)."""
        force = _core.read_flag(force, "force")
        with self._lock:
            if self._phase != "dealt":
                self._need("dealt", action="close")
            if self._timers.before_deadline(now) and not force:
                raise round_error(
                    f"cannot close: the deadline {self._timers.deadline} has not passed "
                    "(close(force=True) closes early)"
                )
            close_seats(self._play, self._hands, self._rules, self._auto, self._has_natural)
            self._phase = "closed"
            self._sequence += 1

    def settle(self) -> Settlement:
        """The settlement (a :class:`capsa.Settlement`); settling again returns
        the same one. The record is written as part of settling, so a round
        that settles can always be recorded. Raises ``RoundError`` before the
        close; a failure changes nothing."""
        with self._lock:
            if self._phase == "closed":
                # the record settles the table as it is written: one settlement
                text, digest, settlement, spans = _core.write_round_record(
                    *self._record_inputs(),
                    table_id=self._table_id,
                    players=self._players,
                    with_settlement=True,
                    auto_arrange=self._auto,
                    **self._roles(),
                )
                self._settlement, self._record_text, self._digest = settlement, text, digest
                self._settlement_of_text = settlement
                self._record_spans = spans
                self._phase = "settled"
                self._sequence += 1
                return settlement
            if self._phase != "settled":
                self._need("closed", "settled", action="settle")
            if self._settlement is None:  # restored
                self._settlement = self._settlement_now()
            return self._settlement

    def _settlement_now(self) -> Settlement:
        return settle_play(self._play, self._rules, self._stakes, self._roles())

    def _roles(self) -> dict[str, Any]:
        """The banker and multipliers, as ``settle`` and the record writer
        take them."""
        return seat_roles(self._banker, self._multipliers)

    def _record_inputs(self) -> tuple[Any, ...]:
        """What the record writer reads, in its positional order."""
        return (
            record_rules(self._rules),
            self._round_id,
            self._stakes,
            self._server_seed,
            self._client_seeds,
            self._nonce,
            [p.played() for p in self._play],
            self._previous_digest,
            self._meta or None,
        )

    def _write_record(self) -> tuple[str, str]:
        """The record's canonical JSON text and digest."""
        return _core.write_round_record(
            *self._record_inputs(),
            table_id=self._table_id,
            players=self._players,
            auto_arrange=self._auto,
            **self._roles(),
        )

    def record_json(self) -> str:
        """The round's record as canonical JSON text, one line (what a JSON
        Lines log holds). Raises ``RoundError`` before the settlement."""
        with self._lock:
            if self._phase != "settled":
                self._need("settled", action="write the record")
            if self._record_text is None:  # restored
                text, digest = self._write_record()
                if digest != self._digest:
                    raise round_error("round state: the record written again has another digest")
                self._record_text = text
            return self._record_text

    def record(self) -> dict[str, Any]:
        """The round's record as a JSON-ready dict (``docs/records.md``).
        Raises ``RoundError`` before the settlement."""
        with self._lock:
            written = self._settlement_of_text
            if written is None:  # restored: the text is written again
                record: dict[str, Any] = _core.json_value(self.record_json())
                return record
            # settled here: the settlement's own dict and the rules' kept one
            # are what their text reads as, and cheaper
            assert self._record_text is not None
            # the record names the settlement version it was settled under
            settlement = {**written.to_dict(), "version": _core.SETTLEMENT_VERSION}
            return _core.record_value(
                self._record_text, settlement, record_rules(self._rules), self._record_spans
            )

    @property
    def digest(self) -> str:
        """The record's digest (hex): the next round's ``previous_digest``.
        Raises ``RoundError`` before the settlement."""
        with self._lock:
            if self._phase != "settled":
                self._need("settled", action="write the record")
            assert self._digest is not None
            return self._digest

    # ------------------------------------------------------------ state

    def to_dict(self, *, key: bytes) -> dict[str, Any]:
        """The round's state as a JSON-ready dict, for :meth:`from_dict`,
        sealed by a MAC under ``key`` (the server's secret: bytes, at least
        16 of them, 32 recommended; :mod:`capsa.round.state`).

        It holds the unrevealed server seed: keep it on the server. Raises
        ``TypeError`` for a key that is not bytes, ``ArgumentError`` for one
        too short."""
        with self._lock:
            if self._rules_text is None:
                self._rules_text = rules_text(self._rules)
            fields: dict[str, Any] = {
                "format": STATE_FORMAT,
                "format_version": STATE_VERSION,
                "sequence": self._sequence,
                "phase": self._phase,
                "commitment": self._commitment,
                "rules": self._rules_text,
                "seats": self._seats,
                "stakes": self.stakes,
                "round_id": self._round_id,
                "nonce": self._nonce,
                "previous_digest": self._previous_digest,
                "meta": dict(self._meta),
                "table_id": self._table_id,
                "players": [dict(p) for p in self._players],
                "server_seed": self._server_seed.hex(),
                "deadline": self._timers.deadline,
                "seed_deadline": self._timers.seed_deadline,
                "arrangement_ms": self._timers.arrangement_ms,
                "auto_arrange": self._auto,
                "banker": self._banker,
                "multipliers": list(self._multipliers),
                "require_client_seeds": self._require_seeds,
                "client_seeds": list(
                    self._seeds_in if self._phase == "open" else self._client_seeds
                ),
                "play": [
                    {
                        "arrangement": p.arrangement_text(),
                        "auto": p.auto,
                        "surrender": p.surrender,
                        "declare_natural": p.declare_natural,
                    }
                    for p in self._play
                ],
            }
            if self._digest is not None:
                # the settled round's record is written again from the state when
                # asked for, and must give this digest
                fields["digest"] = self._digest
            return seal(fields, key)

    @classmethod
    def from_dict(
        cls,
        state: Mapping[str, Any],
        *,
        key: bytes,
        table_id: str | EllipsisType | None = ...,
        round_id: str | EllipsisType = ...,
        sequence: int | EllipsisType = ...,
    ) -> Round:
        """A round from :meth:`to_dict`'s dict, whose MAC is checked under
        ``key`` first: a field changed, added, removed or renamed, or a state
        without a MAC, raises ``RoundError`` naming it. Each of ``table_id``
        (None: no table id), ``round_id`` and ``sequence`` given must be the
        state's, else ``StaleStateError`` names it (``docs/records.md``, "The
        saved state"). The hands are dealt again from the seeds and every
        invariant checked again (each submission holds the seat's cards, no
        seat arranged at the close fouls, the phase fits the play), so a
        state that could not have been reached raises (``RoundError`` naming
        the key, or the error the action would raise); a wrong type is a
        ``TypeError``, a bound that is not an id or an int >= 0 an
        ``ArgumentError``."""
        return _restore(state, key, (table_id, round_id, sequence))

    def __repr__(self) -> str:
        return (
            f"Round(round_id={self._round_id!r}, seats={self._seats}, "
            f"rules={self._rules.name!r}, phase={self._phase!r})"
        )


_PLAY_KEYS = frozenset({"arrangement", "auto", "surrender", "declare_natural"})
_PLAY_KEYS_TEXT = ", ".join(sorted(_PLAY_KEYS))
_UNPLAYED = {"arrangement": None, "auto": False, "surrender": False, "declare_natural": None}


def _restore(state: Mapping[str, Any], key: bytes, bound: tuple[Any, Any, Any]) -> Round:
    (phase, sequence), field = checked_state(state, key, *bound), state_getter(state)
    rnd = Round(rules_of_state(field("rules")), **round_arguments(state, field))
    rnd._timers.restore_deadline(field("deadline"), dealt=phase != "open")
    rnd._rules_text = state["rules"]
    if field("commitment") != rnd.commitment:
        raise round_error("round state: commitment is not the SHA-256 of server_seed")
    play, seeds = field("play"), field("client_seeds")
    if not isinstance(play, list) or len(play) != rnd.seats:
        raise round_error(f"round state: play must be a list of {rnd.seats} seats")
    if not isinstance(seeds, list):
        raise TypeError(f"round state: client_seeds must be a list, not {type(seeds).__name__}")
    if phase == "open":
        _restore_open(rnd, seeds, play)
        rnd._sequence = sequence
        return rnd
    checked = _deal_checked(rnd, seeds or None, play)
    for k, seat in enumerate(play):
        _replay_seat(
            rnd, k, seat, closed=phase != "dealt", checked=None if checked is None else checked[k]
        )
    if phase != "dealt":
        _restore_closed(rnd, play, checked)
    if phase == "settled":
        # the settlement and the record are computed when asked for; a state
        # without the digest is written again now
        rnd._digest = settled_digest(state)
        if rnd._digest is None:
            rnd._record_text, rnd._digest = rnd._write_record()
        rnd._phase = "settled"
    elif "digest" in state:
        raise round_error(f"round state: a {phase} round has no digest")
    rnd._sequence = sequence  # the actions played again above counted their own
    return rnd


def _restore_open(rnd: Round, seeds: list[Any], play: list[Any]) -> None:
    if len(seeds) != rnd.seats:
        raise round_error(f"round state: client_seeds of an open round has {rnd.seats} entries")
    for k, seed in enumerate(seeds):
        if seed is not None:
            rnd.add_client_seed(k, seed)
    if any(p != _UNPLAYED for p in play):
        raise round_error("round state: an open round has no play")


def _restore_closed(rnd: Round, play: list[Any], checked: list[_Checked] | None) -> None:
    """Checks what the close decided: every seat's natural, and every seat
    arranged at the close as the round's policy arranges."""
    for k, seat in enumerate(play):
        if seat["declare_natural"] is None:
            raise round_error(f"round state: play[{k}].declare_natural is decided at the close")
        ids = rnd._play[k].arrangement
        if not seat["auto"] or ids is None:
            continue
        fouls = checked_arrangement(ids).is_foul(rnd.rules) if checked is None else checked[k][2]
        check_auto_seat(k, rnd.auto_arrange, bool(fouls))
    rnd._phase = "closed"


_Checked = tuple[list[int] | None, bool, bool | None]
"""A seat's arrangement checked against its hand, whether the hand holds a
natural, whether the arrangement fouls."""


def _deal_checked(rnd: Round, seeds: list[Any] | None, play: list[Any]) -> list[_Checked] | None:
    """Deals again and checks every seat's arrangement against its hand in
    one call. A state that fails any check (``None``) is dealt alone, its
    seats checked one by one, so the error is the one the action names."""
    texts = [p.get("arrangement") if type(p) is dict else None for p in play]
    try:
        hands, arranged, naturals, fouls = _core.fair_deal_checked(
            rnd._server_seed, seeds, rnd._nonce, rnd._seats, texts, rnd._rules
        )
    except (CapsaError, TypeError, ValueError):
        rnd._deal_now(seeds)
        return None
    rnd._client_seeds = list(seeds) if seeds is not None else []
    rnd._hands = [tuple(h) for h in hands]
    rnd._hand_cards = []  # made when read
    rnd._phase = "dealt"
    return list(zip(arranged, naturals, fouls, strict=True))


def _replay_seat(rnd: Round, k: int, seat: Any, *, closed: bool, checked: _Checked | None) -> None:
    """Plays one seat's recorded actions again, checked as the actions are."""
    if not is_mapping(seat) or seat.keys() != _PLAY_KEYS:
        raise round_error(f"round state: play[{k}] must have exactly the keys {_PLAY_KEYS_TEXT}")
    arrangement, auto = seat["arrangement"], play_flag(seat["auto"], k, "auto")
    surrender = play_flag(seat["surrender"], k, "surrender")
    declare = seat["declare_natural"]
    checked_ids = None if checked is None else checked[0]
    if arrangement is not None:
        rnd._play[k].arrangement = (
            _core.submission(arrangement, rnd._hands[k], k, rnd._rules)
            if checked_ids is None
            else tuple(checked_ids)
        )
        if refused_foul(rnd._play[k].arrangement or (), rnd.rules, k) is not None:
            raise round_error(f"round state: play[{k}].arrangement fouls, which the rules refuse")
    elif closed:
        raise round_error(f"round state: play[{k}]: a closed round has every seat's arrangement")
    if auto and not closed:
        raise round_error(
            f"round state: play[{k}].auto: seats are arranged automatically only at the close"
        )
    if surrender:
        rnd.surrender(k)
    if declare is not None:
        play_flag(declare, k, "declare_natural")
        # a closed round holds True for a seat without a natural; before the
        # close only a seat with one has decided
        natural = rnd._has_natural(k) if checked is None else checked[1]
        if not natural and (not closed or not declare):
            rnd.declare_natural(k, declare)  # raises: the seat holds no natural
    play = rnd._play[k]
    play.auto = auto
    play.declare_natural = declare
    if isinstance(arrangement, str) and play.arrangement is not None:
        # the text this state was written with: the MAC vouches for it
        play.text = arrangement
