"""The chains of many tables: each table's records follow one another.

A log may interleave the records of many tables. Records of format 2 name
their table (``table_id``); records of format 1, and of format 2 with a
``null`` table id, belong to one table without a name (``None``), as a log
of one table always has. :class:`Chains` keeps, per table, the digest its
next record must follow and the round ids and nonces it has used, so that a
record out of its chain, or a second record of a round id or a nonce within
a table, is named. A void record (a round dealt never, its commitment
published) takes its place in its table's chain and uses its round id and
nonce as a round record does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import EllipsisType

from capsa import _core

__all__ = ["Chains", "Link", "TableChain", "check_link"]

Link = str | None | EllipsisType
"""The digest a table's next record must follow: a digest (hex), ``None``
(the next record starts the chain) or ``...`` (not checked)."""


def check_link(value: object, what: str) -> Link:
    """A chain link given by a caller: 64 lowercase hex digits, ``None`` or
    ``...``, read as the engine reads a digest. Raises ``ArgumentError`` for
    other text, ``TypeError`` for another type."""
    if value is ...:
        return value
    return _core.read_digest(value, what)  # type: ignore[arg-type]


@dataclass
class TableChain:
    """One table's chain: the digest its next record must follow, and the
    round ids and nonces its records have used."""

    last: Link = ...
    round_ids: set[str] = field(default_factory=set)
    nonces: set[int] = field(default_factory=set)


class Chains:
    """The chains of the tables of a log, by table id (``None``: the table
    without a name). ``start`` is the link of each table's first record
    (``...``: not checked, ``None``: it must start its chain); ``starts``
    gives single tables their own first link. Raises ``ArgumentError`` or
    ``TypeError`` for a link that is not a digest, None or ``...``."""

    __slots__ = ("_start", "_tables")

    def __init__(self, start: Link = ..., starts: Mapping[str | None, Link] | None = None) -> None:
        self._start = check_link(start, "previous_digest")
        self._tables: dict[str | None, TableChain] = {}
        for table_id, link in (starts or {}).items():
            self.start(table_id, link)

    def start(self, table_id: str | None, link: Link) -> None:
        """Sets the link of a table's first record (before any is booked).
        Raises for a table id as :class:`capsa.Round` does."""
        table_id = _core.read_table_id(table_id)
        name = "previous_digest" if table_id is None else f"previous_digest[{table_id!r}]"
        self._tables[table_id] = TableChain(last=check_link(link, name))

    def table(self, table_id: str | None) -> TableChain:
        """The chain of a table (a new one, at ``start``, when not seen)."""
        chain = self._tables.get(table_id)
        if chain is None:
            chain = self._tables[table_id] = TableChain(last=self._start)
        return chain

    @property
    def tables(self) -> dict[str | None, TableChain]:
        """Every table seen, by id."""
        return dict(self._tables)

    def duplicates(self, view: _core.RecordView | _core.VoidView) -> list[tuple[str, str]]:
        """(field, message) for a round id or a nonce the record's table has
        already used."""
        chain = self._tables.get(view.table_id)
        if chain is None:
            return []
        where = "its table" if view.table_id is None else f"table {view.table_id!r}"
        found: list[tuple[str, str]] = []
        if view.round_id in chain.round_ids:
            found.append(("round_id", f"round_id {view.round_id!r} is already used in {where}"))
        if view.nonce in chain.nonces:
            found.append(("deal.nonce", f"deal.nonce {view.nonce} is already used in {where}"))
        return found

    def unlink(self) -> None:
        """Leaves the next link of every table unchecked, the tables not yet
        seen too: after a record that cannot be read, whose table is not
        known."""
        self._start = ...
        for chain in self._tables.values():
            chain.last = ...

    def book(self, view: _core.RecordView | _core.VoidView, digest: Link) -> None:
        """Records that the record was read: its round id and nonce are used
        and its table's next record must follow ``digest``."""
        chain = self.table(view.table_id)
        chain.last = digest
        chain.round_ids.add(view.round_id)
        chain.nonces.add(view.nonce)
