"""One round of one table, as a game server runs it, dealt provably fair.

:class:`Round` is a state machine: ``open`` (the commitment to the server
seed can be published), ``dealt`` (players submit arrangements, surrender
and declare or decline naturals, as often as they like), ``closed`` (every
seat that did not submit was arranged by the solver), ``settled`` (the
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

The state serialises (:meth:`Round.to_dict`, :meth:`Round.from_dict`) for a
server that keeps no objects between requests. The state holds the server
seed before it is revealed: keep it on the server, never send it to a player
before the round is settled.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from capsa import _core
from capsa._core import (
    ArgumentError,
    CapsaError,
    Card,
    RulesError,
    TableError,
)
from capsa.arrangement import Arrangement
from capsa.records import rules_for_record
from capsa.rules import Rules
from capsa.settlement import Seat, Settlement, settle
from capsa.solver import best_arrangement

__all__ = ["PHASES", "Round", "RoundError"]

PHASES = ("open", "dealt", "closed", "settled")
"""The phases of a round, in order."""

STATE_FORMAT = "capsa-round-state"
STATE_VERSION = 1

_DEFAULT_RULES: list[Rules] = []


class RoundError(CapsaError):
    """An action a round does not allow now: out of its order (a submission
    before the deal or after the close, a settlement before the close), or
    a decision the seat cannot make (declining a natural it does not hold);
    or a round state (``Round.from_dict``) that is not one. ``seat`` names
    the seat when the action was on one."""


def _round_error(message: str, seat: int | None = None) -> RoundError:
    error = RoundError(message)
    error.seat = seat
    return error


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_rules(rules: Rules | None) -> Rules:
    if rules is None:
        if not _DEFAULT_RULES:
            _DEFAULT_RULES.append(Rules())
        return _DEFAULT_RULES[0]
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a capsa.Rules or None, not {type(rules).__name__}")
    return rules


def _read_stakes(
    stakes: int | Sequence[Sequence[int]] | None, seats: int, rules: Rules
) -> int | list[list[int]]:
    """One stake for every pair, or a seats x seats symmetric matrix, every
    entry >= 0 (the diagonal too), as the record holds them."""
    if stakes is None:
        return int(rules["money.stake"])
    return _core.read_stakes(stakes, seats, for_record=True)


def _read_server_seed(seed: bytes | None) -> bytes:
    if seed is None:
        return secrets.token_bytes(32)
    return _core.read_server_seed(seed)


def _arrangement(ids: Sequence[int]) -> Arrangement:
    """An Arrangement of 13 ids the engine has already checked."""
    arrangement = Arrangement.__new__(Arrangement)
    object.__setattr__(arrangement, "_ids", tuple(ids))
    return arrangement


class _SeatPlay:
    """What one seat has done so far."""

    __slots__ = ("arrangement", "auto", "declare_natural", "surrender")

    def __init__(self) -> None:
        self.arrangement: tuple[int, ...] | None = None
        self.auto = False
        self.surrender = False
        self.declare_natural: bool | None = None  # None: not decided


class Round:
    """One round of one table: commitment, deal, submissions, close, settle, record.

    ``Round(rules, seats=4, stakes=100, round_id="table-7/round-12")``:

    * ``rules``: a :class:`capsa.Rules` (``None``: ``capsa-susun``);
    * ``seats``: 2 to 4 (``TableError``);
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
      system's entropy. Give it only to recreate a round (tests, examples).

    Raises ``TableError``/``ArgumentError`` naming the argument for a bad
    value, ``TypeError`` for a wrong type.
    """

    __slots__ = (
        "_client_seeds",
        "_commitment",
        "_digest",
        "_hand_cards",
        "_hands",
        "_meta",
        "_nonce",
        "_phase",
        "_play",
        "_players",
        "_previous_digest",
        "_record_text",
        "_round_id",
        "_rules",
        "_seats",
        "_server_seed",
        "_settlement",
        "_stakes",
        "_table_id",
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
        table_id: str | None = None,
        players: Sequence[str | Mapping[str, str | None]] | None = None,
    ) -> None:
        self._rules = _check_rules(rules)
        self._seats = _core.read_seat_count(seats)
        self._stakes = _read_stakes(stakes, self._seats, self._rules)
        self._round_id = _core.read_round_id(round_id)
        self._nonce = _core.read_nonce(nonce)
        self._previous_digest = _core.read_digest(previous_digest, "previous_digest")
        self._meta = _core.read_meta(meta)
        self._table_id = _core.read_table_id(table_id)
        self._players = _core.read_players(players, self._seats)
        self._server_seed = _read_server_seed(server_seed)
        self._commitment = hashlib.sha256(self._server_seed).hexdigest()
        self._phase = "open"
        self._client_seeds: list[str] = []
        self._hands: list[tuple[int, ...]] = []
        self._hand_cards: list[list[Card]] = []
        self._play = [_SeatPlay() for _ in range(self._seats)]
        self._settlement: Settlement | None = None
        self._record_text: str | None = None
        self._digest: str | None = None

    # ------------------------------------------------------------ reading

    @property
    def phase(self) -> str:
        """``"open"``, ``"dealt"``, ``"closed"`` or ``"settled"``."""
        return self._phase

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
    def client_seeds(self) -> list[str]:
        """The client seeds the deal mixed in (empty before the deal or when none)."""
        return list(self._client_seeds)

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's 13 cards, sorted (``RoundError`` before the deal)."""
        self._need("dealt", "closed", "settled", action="read the hands")
        return [list(h) for h in self._hand_cards]

    @property
    def server_seed(self) -> bytes:
        """The server seed: ``RoundError`` until the round is settled (it is
        revealed in the record, never before)."""
        self._need("settled", action="reveal the server seed")
        return self._server_seed

    def arrangement(self, seat: int) -> Arrangement | None:
        """The seat's arrangement so far (submitted, or arranged at the
        close), or ``None``. Raises ``ArgumentError`` for a seat the table
        does not have."""
        ids = self._play[self._seat(seat)].arrangement
        return None if ids is None else _arrangement(ids)

    def submitted(self, seat: int) -> bool:
        """True when the seat submitted an arrangement itself. Raises
        ``ArgumentError`` for a seat the table does not have."""
        play = self._play[self._seat(seat)]
        return play.arrangement is not None and not play.auto

    # ------------------------------------------------------------ checks

    def _need(self, *phases: str, action: str) -> None:
        if self._phase in phases:
            return
        now, needed = PHASES.index(self._phase), [PHASES.index(p) for p in phases]
        if now > max(needed):
            hint = f"the round is already {self._phase}"
        else:
            hint = f"the round is not {PHASES[min(needed)]} yet"
        raise _round_error(f"cannot {action}: {hint}")

    def _seat(self, seat: object) -> int:
        if not _is_int(seat):
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

    def deal(self, client_seeds: Sequence[str] | None = None) -> list[list[Card]]:
        """Deals: mixes in the client seeds (one str of at most 256 bytes per
        seat, or none) and returns each seat's 13 cards, sorted.

        Raises ``RoundError`` when already dealt; ``ArgumentError`` for the wrong
        number of client seeds or one too long; ``TypeError`` for a wrong type
        (each raised).
        """
        self._need("open", action="deal")
        hands, cards = _core.fair_deal(self._server_seed, client_seeds, self._nonce, self._seats)
        self._client_seeds = list(client_seeds) if client_seeds is not None else []
        self._hands = [tuple(h) for h in hands]
        self._hand_cards = cards
        self._phase = "dealt"
        return [list(h) for h in cards]

    def submit(
        self, seat: int, arrangement: Arrangement | str | Sequence[int | str | Card]
    ) -> None:
        """The seat's arrangement: an :class:`Arrangement`, ``"top / middle /
        bottom"`` text or 13 cards in row order, holding exactly the seat's
        13 cards. A later submission replaces it, until the close.

        Raises ``RoundError`` out of the dealt phase; ``ArgumentError`` for a seat
        the table does not have; ``HandError``/``CardError`` naming the seat
        and the cards it was not dealt.
        """
        self._need("dealt", action="submit")
        k = self._seat(seat)
        ids = _core.submission(arrangement, self._hands[k], k)
        self._play[k].arrangement = tuple(ids)

    def surrender(self, seat: int, surrender: bool = True) -> None:
        """The seat surrenders (or, with ``False``, takes it back), until the
        close. Raises ``TableError`` when the rules do not allow surrender."""
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

    def declare_natural(self, seat: int, declare: bool = True) -> None:
        """The seat declares its natural (or, with ``False``, declines it and
        plays its rows), until the close. Raises ``RoundError`` when its hand holds
        no natural the rules enable. A seat that decides nothing declares."""
        self._need("dealt", action="declare a natural")
        k = self._seat(seat)
        flag = _core.read_flag(declare, "declare")
        if not self._has_natural(k):
            raise _round_error(
                f"seat {k} holds no natural that the rules {self._rules.name!r} enable, "
                "so it has none to declare or decline",
                k,
            )
        self._play[k].declare_natural = flag

    def close(self) -> None:
        """Closes the round (the arranging time is over): every seat that did
        not submit is arranged by the solver, which never fouls, and declares
        its natural when the solver would. Raises ``RoundError`` out of the
        dealt phase."""
        self._need("dealt", action="close")
        for k, play in enumerate(self._play):
            if play.arrangement is not None:
                continue
            choice = best_arrangement(self._hands[k], self._rules, seats=self._seats)
            play.arrangement = choice.ids
            play.auto = True
            if play.declare_natural is None and self._has_natural(k):
                play.declare_natural = choice.declare_natural
        for play in self._play:
            if play.declare_natural is None:
                play.declare_natural = True
        self._phase = "closed"

    def settle(self) -> Settlement:
        """The settlement (a :class:`capsa.Settlement`); settling again returns
        the same one. Raises ``RoundError`` before the close."""
        self._need("closed", "settled", action="settle")
        if self._settlement is None:
            seats: list[Seat | tuple[int, ...]] = [
                # 13 ids are a seat that declares and does not surrender
                p.arrangement or ()
                if p.declare_natural and not p.surrender
                else Seat(_arrangement(p.arrangement or ()), p.surrender, bool(p.declare_natural))
                for p in self._play
            ]
            self._settlement = settle(seats, self._rules, self._stakes)
            self._phase = "settled"
        return self._settlement

    def _seat_args(self) -> list[tuple[tuple[int, ...], bool, bool, bool]]:
        return [
            (p.arrangement or (), p.auto, p.surrender, bool(p.declare_natural)) for p in self._play
        ]

    def record_json(self) -> str:
        """The round's record as canonical JSON text, one line (what a JSON
        Lines log holds). Raises ``RoundError`` before the settlement."""
        self._need("settled", action="write the record")
        if self._record_text is None:
            text, digest = _core.write_round_record(
                rules_for_record(self._rules),
                self._round_id,
                self._stakes,
                self._server_seed,
                self._client_seeds,
                self._nonce,
                self._seat_args(),
                self._previous_digest,
                self._meta or None,
                table_id=self._table_id,
                players=self._players,
            )
            self._record_text, self._digest = text, digest
        return self._record_text

    def record(self) -> dict[str, Any]:
        """The round's record as a JSON-ready dict (``docs/records.md``).
        Raises ``RoundError`` before the settlement."""
        return dict(json.loads(self.record_json()))

    @property
    def digest(self) -> str:
        """The record's digest (hex): the next round's ``previous_digest``."""
        self.record_json()
        assert self._digest is not None
        return self._digest

    # ------------------------------------------------------------ state

    def to_dict(self) -> dict[str, Any]:
        """The round's state as a JSON-ready dict, for :meth:`from_dict`.

        It holds the unrevealed server seed: keep it on the server. Raises
        nothing."""
        return {
            "format": STATE_FORMAT,
            "format_version": STATE_VERSION,
            "phase": self._phase,
            "rules": self._rules.to_dict(),
            "seats": self._seats,
            "stakes": self.stakes,
            "round_id": self._round_id,
            "nonce": self._nonce,
            "previous_digest": self._previous_digest,
            "meta": dict(self._meta),
            "server_seed": self._server_seed.hex(),
            "client_seeds": list(self._client_seeds),
            "play": [
                {
                    "arrangement": None
                    if p.arrangement is None
                    else str(_arrangement(p.arrangement)),
                    "auto": p.auto,
                    "surrender": p.surrender,
                    "declare_natural": p.declare_natural,
                }
                for p in self._play
            ],
        }

    @classmethod
    def from_dict(cls, state: Mapping[str, Any]) -> Round:
        """A round from :meth:`to_dict`'s dict. The hands are dealt again from
        the seeds and every action checked again, so a state that could not
        have been reached raises (``RoundError`` naming the key, or the
        error the action would raise); a wrong type is a ``TypeError``."""
        return _restore(state)

    def __repr__(self) -> str:
        return (
            f"Round(round_id={self._round_id!r}, seats={self._seats}, "
            f"rules={self._rules.name!r}, phase={self._phase!r})"
        )


_STATE_KEYS = frozenset(
    {
        "format",
        "format_version",
        "phase",
        "rules",
        "seats",
        "stakes",
        "round_id",
        "nonce",
        "previous_digest",
        "meta",
        "server_seed",
        "client_seeds",
        "play",
    }
)
_PLAY_KEYS = frozenset({"arrangement", "auto", "surrender", "declare_natural"})


def _state_key(state: Mapping[str, Any], key: str) -> Any:
    if key not in state:
        raise _round_error(f"round state: {key} is missing")
    return state[key]


def _restore(state: Mapping[str, Any]) -> Round:
    if not isinstance(state, Mapping):
        raise TypeError(f"a round state is a mapping, not {type(state).__name__}")
    unknown = sorted(str(k) for k in state if k not in _STATE_KEYS)
    if unknown:
        raise _round_error(f"round state: unknown key {unknown[0][:40]!r}")
    if _state_key(state, "format") != STATE_FORMAT:
        raise _round_error(f"round state: format must be {STATE_FORMAT!r}")
    version = _state_key(state, "format_version")
    if version != STATE_VERSION or not _is_int(version):
        raise _round_error(
            f"round state: format_version must be {STATE_VERSION}, got {str(version)[:20]}"
        )
    phase = _state_key(state, "phase")
    if phase not in PHASES:
        raise _round_error(f"round state: phase must be one of {', '.join(PHASES)}")
    rules_data = _state_key(state, "rules")
    if not isinstance(rules_data, Mapping):
        raise TypeError(f"round state: rules must be a mapping, not {type(rules_data).__name__}")
    try:
        rules = Rules.from_dict(rules_data)
    except RulesError as exc:
        raise _round_error(f"round state: rules: {exc}") from None
    seed_hex = _state_key(state, "server_seed")
    try:
        seed_hex = _core.read_digest(seed_hex, "server_seed")
    except (ArgumentError, TypeError):
        seed_hex = None
    if seed_hex is None:
        raise _round_error("round state: server_seed must be 64 lowercase hexadecimal digits")
    rnd = Round(
        rules,
        _state_key(state, "seats"),
        _state_key(state, "stakes"),
        round_id=_state_key(state, "round_id"),
        nonce=_state_key(state, "nonce"),
        previous_digest=_state_key(state, "previous_digest"),
        meta=_state_key(state, "meta"),
        server_seed=bytes.fromhex(seed_hex),
    )
    play = _state_key(state, "play")
    seeds = _state_key(state, "client_seeds")
    if not isinstance(play, list) or len(play) != rnd.seats:
        raise _round_error(f"round state: play must be a list of {rnd.seats} seats")
    if not isinstance(seeds, list):
        raise TypeError(f"round state: client_seeds must be a list, not {type(seeds).__name__}")
    if phase == "open":
        if seeds or any(p != {"arrangement": None, "auto": False, "surrender": False,
                              "declare_natural": None} for p in play):  # fmt: skip
            raise _round_error("round state: an open round has no client seeds and no play")
        return rnd
    rnd.deal(seeds or None)
    for k, seat in enumerate(play):
        _replay_seat(rnd, k, seat, closed=phase != "dealt")
    if phase == "dealt":
        return rnd
    for k, seat in enumerate(play):
        if seat["declare_natural"] is None:
            raise _round_error(f"round state: play[{k}].declare_natural is decided at the close")
    rnd._phase = "closed"
    if phase == "settled":
        rnd.settle()
    return rnd


def _replay_seat(rnd: Round, k: int, seat: Any, *, closed: bool) -> None:
    """Plays one seat's recorded actions again, checked as the actions are."""
    where = f"round state: play[{k}]"
    if not isinstance(seat, Mapping) or set(seat) != _PLAY_KEYS:
        raise _round_error(f"{where} must have exactly the keys {', '.join(sorted(_PLAY_KEYS))}")
    arrangement, auto = seat["arrangement"], _core.read_flag(seat["auto"], f"{where}.auto")
    surrender = _core.read_flag(seat["surrender"], f"{where}.surrender")
    declare = seat["declare_natural"]
    if arrangement is not None:
        rnd.submit(k, arrangement)
    elif closed:
        raise _round_error(f"{where}: a closed round has every seat's arrangement")
    if auto and not closed:
        raise _round_error(f"{where}.auto: seats are arranged automatically only at the close")
    if surrender:
        rnd.surrender(k)
    if declare is not None:
        _core.read_flag(declare, f"{where}.declare_natural")
        # a closed round holds True for a seat without a natural; before the
        # close only a seat with one has decided
        if rnd._has_natural(k) or not closed or not declare:
            rnd.declare_natural(k, declare)
    play = rnd._play[k]
    play.auto = auto
    play.declare_natural = declare
