"""The ledger of a house: many rounds of many tables, each player's running
balance and the house's rake, zero-sum at every step.

A :class:`Ledger` books round records in order. Each record is replayed
(:func:`capsa.replay`) and must follow the one before it in its table's
chain (records are grouped by ``table_id``, see :mod:`capsa.records.chains`), and a
round id or nonce its table has already used is refused, so the ledger only
ever holds rounds that replay exactly, once. Money is booked to players, not
seats: a record of format 2 names each seat's player; a record of format 1
(which names none) books seat ``k`` to the player ``"seat-k"``. After every
round the players' balances and the house's rake sum to zero. A void record
(a round whose commitment was published but which was never played) takes
its place in its table's chain, uses its round id and nonce, and books no
money: its entry says it is void.

The ledger saves as JSON-ready data sealed under the server's key
(:meth:`Ledger.to_dict`; :meth:`Ledger.from_dict` checks the seal and every
part again), so a server need not replay its whole log at start-up, and
exports as CSV (one row a seat of a round) or JSON Lines (one object a
round).
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Any

from capsa import _core
from capsa._core import ArgumentError, TableError
from capsa.ledger.data import (
    LEDGER_FORMAT,
    LEDGER_VERSION,
    LedgerEntry,
    check_entry,
    entry_from_dict,
    link_data,
    read_saved,
    seal_saved,
)
from capsa.records.chains import Chains, Link, check_link
from capsa.records.read import RecordLike, ReplayError, read_record, replay_view

__all__ = ["LEDGER_FORMAT", "LEDGER_VERSION", "Ledger", "LedgerEntry"]


def _check_seats(seats: object) -> int | None:
    if seats is None:
        return None
    if not isinstance(seats, int) or isinstance(seats, bool):
        raise TypeError(f"seats must be an int or None, not {type(seats).__name__}")
    if not 2 <= seats <= 4:
        raise TableError(f"a table has 2 to 4 seats, got {seats}")
    return seats


@contextlib.contextmanager
def _text_out(out: str | os.PathLike[str] | IO[str], what: str) -> Iterator[IO[str]]:
    """A text stream for ``out``: a path (str or ``os.PathLike``) opened for
    writing (UTF-8) and closed after, or an open text stream as given."""
    if isinstance(out, str | os.PathLike):
        with open(out, "w", encoding="utf-8", newline="") as stream:
            yield stream
    elif hasattr(out, "write"):
        yield out
    else:
        raise TypeError(f"{what} takes a path or an open text file, not {type(out).__name__}")


class Ledger:
    """The running balances of the players of many tables.

    ``seats`` (2 to 4, or None for any) is the seat count every booked record
    must have. ``previous_digest`` is the digest each table's first booked
    record must follow: ``None`` when the ledger starts the tables' chains,
    a digest (64 hex digits), or left out to take each table's first record
    as it is (a ledger started part-way through a history); a mapping of
    table id (None: the table of no id) to such a link gives tables their
    own, the others left unchecked.

    Raises ``TableError`` for ``seats`` outside 2..4, ``ArgumentError`` for
    a ``previous_digest`` that is not 64 lowercase hex digits or a table id
    :class:`capsa.Round` refuses (empty, too long), ``TypeError`` for a
    wrong type; booking a record raises as its method says.
    """

    __slots__ = ("_balances", "_chains", "_entries", "_house", "_names", "_seats", "_start")

    def __init__(
        self,
        seats: int | None = None,
        *,
        previous_digest: Link | Mapping[str | None, Link] = ...,
    ) -> None:
        self._seats = _check_seats(seats)
        if isinstance(previous_digest, Mapping):
            self._start: Link | dict[str | None, Link] = {
                table: check_link(link, f"previous_digest[{table!r}]")
                for table, link in previous_digest.items()
            }
            self._chains = Chains(..., self._start)
        else:
            self._start = check_link(previous_digest, "previous_digest")
            self._chains = Chains(self._start)
        self._balances: dict[str, int] = {}
        self._names: dict[str, str | None] = {}
        self._house = 0
        self._entries: list[LedgerEntry] = []

    @property
    def seats(self) -> int | None:
        """The seat count every record must have (None: any)."""
        return self._seats

    @property
    def balances(self) -> dict[str, int]:
        """Each player's running balance (money after rake), by player id."""
        return dict(self._balances)

    @property
    def names(self) -> dict[str, str | None]:
        """Each player's display name as the latest record gave it."""
        return dict(self._names)

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
        """The digest of the last booked record, or (before any) the starting
        link of a table of no id."""
        if self._entries:
            return self._entries[-1].digest
        return self.last_digest_of(None)

    def last_digest_of(self, table_id: str | None) -> str | None:
        """The digest the table's next record must follow (None: it starts the
        chain, or is not checked). Raises nothing."""
        tables = self._chains.tables
        if table_id in tables:
            last = tables[table_id].last
        elif isinstance(self._start, dict):
            last = self._start.get(table_id, ...)
        else:
            last = self._start
        return None if last is ... else last

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, record: RecordLike) -> LedgerEntry:
        """Replays a round record and books it; returns its entry. A void
        record advances its table's chain and books no money (its entry's
        ``void`` is true, with no seats).

        Raises what :func:`capsa.replay` raises (``ReplayError`` naming
        ``previous_digest`` when the record does not follow its table's last
        one, ``round_id`` or ``deal.nonce`` when its table has used them),
        and ``TableError`` for a round record of a table of another size than
        ``seats``. A record that raises is not booked.
        """
        view = read_record(record)
        if isinstance(view, _core.VoidView):
            return self._add_void(view)
        if self._seats is not None and view.seat_count != self._seats:
            raise TableError(
                f"record {view.round_id!r} is of a {view.seat_count}-seat table; "
                f"this ledger is of {self._seats} seats"
            )
        duplicates = self._chains.duplicates(view)
        if duplicates:
            raise ReplayError(view.round_id, duplicates, "repeats a round of its table")
        digest = replay_view(view, self._chains.table(view.table_id).last)
        figures = view.net_and_rake()
        net = tuple(int(n) for n, _ in figures)
        rake = tuple(int(r) for _, r in figures)
        if sum(net) + sum(rake) != 0:  # replay recomputed them: a bug, not bad input
            raise ReplayError(view.round_id, [("settlement", "net plus rake is not zero")], "")
        players = view.players
        for (player, name), money in zip(players, net, strict=True):
            self._balances[player] = self._balances.get(player, 0) + money
            self._names[player] = name
        self._house += sum(rake)
        entry = LedgerEntry(
            round=len(self._entries) + 1,
            table_id=view.table_id,
            round_id=view.round_id,
            digest=digest,
            players=tuple(p for p, _ in players),
            net=net,
            rake=rake,
            balances=tuple(self._balances[p] for p, _ in players),
            house=self._house,
        )
        self._entries.append(entry)
        self._chains.book(view, digest)
        return entry

    def _add_void(self, view: _core.VoidView) -> LedgerEntry:
        """Books a void record: its place in its table's chain, no money."""
        duplicates = self._chains.duplicates(view)
        if duplicates:
            raise ReplayError(view.round_id, duplicates, "repeats a round of its table")
        digest = replay_view(view, self._chains.table(view.table_id).last)
        entry = LedgerEntry(
            round=len(self._entries) + 1,
            table_id=view.table_id,
            round_id=view.round_id,
            digest=digest,
            players=(),
            net=(),
            rake=(),
            balances=(),
            house=self._house,
            void=True,
        )
        self._entries.append(entry)
        self._chains.book(view, digest)
        return entry

    def extend(self, records: Sequence[RecordLike]) -> None:
        """Books each record in order (stopping at the first that raises)."""
        for record in records:
            self.add(record)

    def to_dict(self, *, key: bytes) -> dict[str, Any]:
        """The ledger as JSON-ready data, for :meth:`from_dict`: its entries
        (from which the balances and the house are recomputed on load), the
        players' names, each table's chain and the starting links, sealed by
        a MAC under ``key`` (the server's secret: bytes, at least 16 of
        them, 32 recommended), as a round's state is
        (:meth:`capsa.Round.to_dict`). Raises ``TypeError`` for a key that
        is not bytes, ``ArgumentError`` for one too short."""
        start = self._start
        data: dict[str, Any] = {
            "format": LEDGER_FORMAT,
            "format_version": LEDGER_VERSION,
            "seats": self._seats,
            "start": (
                [{"table_id": t, "link": link_data(v)} for t, v in start.items()]
                if isinstance(start, dict)
                else link_data(start)
            ),
            "names": dict(self._names),
            "entries": [e.to_dict() for e in self._entries],
            "nonces": [
                {"table_id": t, "nonces": sorted(c.nonces)} for t, c in self._chains.tables.items()
            ],
        }
        return seal_saved(data, key)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, key: bytes) -> Ledger:
        """A ledger from :meth:`to_dict`'s data, its MAC checked under
        ``key`` first (a field changed, added, removed or renamed, or data
        without a MAC, is refused naming it), then every part: its format,
        each entry's fields, each balance and the house recomputed from the
        entries, each table's chain from its entries in order, and its
        nonces (one for each of its entries). Takes time linear in the
        entries. Raises ``ArgumentError`` naming what is wrong, ``TypeError``
        for data that is not a mapping or a key that is not bytes."""
        state = read_saved(data, key)
        ledger = cls(state.seats, previous_digest=state.start)
        for k, item in enumerate(state.entries):
            ledger._book_entry(entry_from_dict(item, k, state.names), k)
        ledger._book_nonces(state.nonces)
        ledger._names = dict(state.names)
        return ledger

    def _book_entry(self, entry: LedgerEntry, k: int) -> None:
        """Books a saved entry again, checking it follows what came before."""
        chain = self._chains.table(entry.table_id)
        check_entry(entry, k, self._balances, self._house, chain, len(self._entries))
        for player, money in zip(entry.players, entry.net, strict=True):
            self._balances[player] = self._balances.get(player, 0) + money
        self._house = entry.house
        chain.last = entry.digest
        chain.round_ids.add(entry.round_id)
        self._entries.append(entry)

    def _book_nonces(self, nonces: Mapping[str | None, list[int]]) -> None:
        """Books each table's saved nonces, once its entries are: as many
        nonces, each once, as the table has rounds."""
        tables = self._chains.tables
        for table_id, values in nonces.items():
            chain = tables.get(table_id)
            used = set(values)
            if len(used) != len(chain.round_ids if chain else ()) or len(used) != len(values):
                raise ArgumentError(
                    f"saved ledger: the nonces of table {table_id!r} are not one for each of "
                    "its rounds"
                )
            if chain is not None:
                chain.nonces.update(used)
        for table_id, chain in tables.items():
            if chain.round_ids and table_id not in nonces:
                raise ArgumentError(f"saved ledger: nonces has no entry for table {table_id!r}")

    def write_csv(self, out: str | os.PathLike[str] | IO[str]) -> None:
        """One row a seat of a round: round, table_id, round_id, digest,
        seat, player, name, net, rake, balance (the player's after the
        round), house (the running rake); a void round, which has no seats,
        has no row (:meth:`write_jsonl` lists it). ``out`` is a path (str or
        ``os.PathLike``, written as UTF-8) or an open text file. Raises
        ``OSError`` for a file that cannot be written, ``TypeError`` for
        another ``out``."""
        with _text_out(out, "write_csv") as stream:
            writer = csv.writer(stream, lineterminator="\n")
            writer.writerow(
                [
                    "round", "table_id", "round_id", "digest", "seat", "player", "name",
                    "net", "rake", "balance", "house",
                ]
            )  # fmt: skip
            for e in self._entries:
                for seat, player in enumerate(e.players):
                    writer.writerow(
                        [
                            e.round, e.table_id or "", e.round_id, e.digest, seat, player,
                            self._names.get(player) or "", e.net[seat], e.rake[seat],
                            e.balances[seat], e.house,
                        ]
                    )  # fmt: skip

    def write_jsonl(self, out: str | os.PathLike[str] | IO[str]) -> None:
        """One JSON object a round (keys sorted, compact), as
        :meth:`LedgerEntry.to_dict`, a void round's too. ``out`` as for
        :meth:`write_csv`; raises as it does."""
        with _text_out(out, "write_jsonl") as stream:
            for e in self._entries:
                stream.write(json.dumps(e.to_dict(), sort_keys=True, separators=(",", ":")))
                stream.write("\n")

    def __repr__(self) -> str:
        return f"Ledger(seats={self._seats}, rounds={len(self)}, players={len(self._balances)})"
