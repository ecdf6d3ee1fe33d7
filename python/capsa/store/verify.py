"""The check of a whole store: every record read back from its exact text,
its columns (``played_at`` and ``played_at_ms`` among them) and its seats'
rows against its contents, its link to the record before it in its table,
then replayed (digest, deal, every arrangement, settlement; a void
record's digest, and it has no seat rows); each table's
head against its last record, and with the store key against its MAC; the
chains against the checkpoints given; and seats' rows that belong to no
record.

The walk (:func:`capsa.store.walk.walk`) hands heads and records over in
table order, a page at a time; this module keeps one table's state at a
time, plus what the checkpoints hold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from capsa import _core
from capsa.records.read import RecordError, ReplayError, View, read_records, replay_view
from capsa.records.times import PLAYED_AT, moment_ms, played_at_text
from capsa.store.anchors import Checkpoint, head_problem
from capsa.store.rows import column_text, meta_of, table_id_of, table_key
from capsa.store.walk import SEAT_FIELDS, Head, Row, Seat

__all__ = ["Progress", "Verifier", "VerifyProblem", "VerifyReport"]

Progress = Callable[[int], None]
"""Called with the number of records checked so far."""


@dataclass(frozen=True, slots=True)
class VerifyProblem:
    """One thing of the store that does not check: its table (``table_id``)
    and round (``round_id``, None for what is not one record), the fields
    named (``fields``), why (``message``), and what it is about (``kind``):
    ``"record"`` (a record's row, text or seats), ``"head"`` (a table's head:
    missing, not its last record, or its MAC), ``"checkpoint"`` (a chain
    against a checkpoint given, or the checkpoint's MAC), ``"seats"`` (seats'
    rows of no record). Raises nothing."""

    table_id: str | None
    round_id: str | None
    fields: tuple[str, ...]
    message: str
    kind: str = "record"

    def __str__(self) -> str:
        if self.kind == "seats" or (self.kind == "checkpoint" and self.fields == ("mac",)):
            return self.message
        where = f"table {self.table_id!r}" if self.table_id is not None else "the table of no id"
        if self.round_id is not None:
            return f"{where}, round {self.round_id!r}: {self.message}"
        what = "its head" if self.kind == "head" else "against a checkpoint"
        return f"{where}, {what}: {self.message}"


@dataclass(slots=True)
class VerifyReport:
    """What :meth:`capsa.store.Store.verify` found: how many ``records``,
    ``tables`` and seats' rows (``seats``) were checked, every problem
    (``problems``, each a :class:`VerifyProblem`; in table order, then seats'
    rows of no record), whether head and checkpoint MACs were checked
    (``macs_checked``: the store has a key) and against how many
    checkpoints the chains were checked (``checkpoints``). Raises nothing."""

    records: int = 0
    tables: int = 0
    seats: int = 0
    problems: list[VerifyProblem] = field(default_factory=list)
    macs_checked: bool = False
    checkpoints: int = 0

    @property
    def ok(self) -> bool:
        """Whether everything checked."""
        return not self.problems

    @property
    def unchecked(self) -> list[str]:
        """What this verify could not check, in words (empty when it checked
        everything a store can be checked against)."""
        notes = []
        if not self.macs_checked:
            notes.append("head MACs not checked: no store key")
        if not self.checkpoints:
            notes.append("no checkpoint given")
        return notes


_COLUMNS = (
    "table_id",
    "round_id",
    "nonce",
    "digest",
    "previous_digest",
    "played_at",
    "played_at_ms",
)


def _columns(row: Row, view: View) -> list[str]:
    """The columns that are not what the record's text holds."""
    meta = meta_of(row.text)
    played = meta.get(PLAYED_AT) if meta is not None else None
    stored = (row[1], row[2], row[3], row[4], row[5], row.played_at, row.played_at_ms)
    held = (
        table_key(view.table_id),
        view.round_id,
        str(view.nonce),
        view.digest,
        view.previous_digest,
        column_text(played_at_text(played)),
        moment_ms(played),
    )
    if stored == held:
        return []
    return [name for name, a, b in zip(_COLUMNS, stored, held, strict=True) if a != b]


def _seats_of(view: View) -> tuple[Seat, ...]:
    """The seats' rows a record gives; none for a void record."""
    if isinstance(view, _core.VoidView):
        return ()
    figures = view.net_and_rake()
    return tuple(
        (k, player, column_text(name), int(net), int(rake))
        for k, ((player, name), (net, rake)) in enumerate(zip(view.players, figures, strict=True))
    )


def _seat_problems(got: tuple[Seat, ...], expected: tuple[Seat, ...]) -> tuple[list[str], str]:
    """The fields of seats' rows that are not the record's, and in words."""
    if len(got) != len(expected):
        return ["seats"], f"{len(got)} seat row(s) for the record's {len(expected)} seat(s)"
    wrong = [
        f"seats[{k}].{name}"
        for k, (row, seat) in enumerate(zip(got, expected, strict=True))
        for name, a, b in zip(SEAT_FIELDS, row, seat, strict=True)
        if a != b
    ]
    return wrong, "the seats' rows are not the record's: " + ", ".join(wrong)


def _check_row(row: Row, link: str | None, view: View | RecordError) -> VerifyProblem | None:
    """The problem of one stored record, its text read as ``view``: its
    columns and seats' rows against its text, then its replay against the
    record before it in its table (all named)."""
    table_id = table_id_of(row.table_key)
    if isinstance(view, RecordError):
        return VerifyProblem(
            table_id, row.round_id, (view.field,), f"{type(view).__name__}: {view}"
        )
    wrong = _columns(row, view)
    fields = list(wrong)
    messages = ["the stored columns are not the record's: " + ", ".join(wrong)] if wrong else []
    expected = _seats_of(view)
    if row.seats != expected:
        seat_fields, message = _seat_problems(row.seats, expected)
        fields += seat_fields
        messages.append(message)
    try:
        replay_view(view, link)
    except ReplayError as exc:
        fields += exc.fields
        messages.append(f"{type(exc).__name__}: {exc}")
    if not fields:
        return None
    return VerifyProblem(table_id, row.round_id, tuple(fields), "; ".join(messages))


# rows whose texts are read in one call, on every core
_READ_TOGETHER = 256


def _read_rows(
    items: Iterable[Head | Row],
) -> Iterator[tuple[Head | Row, View | RecordError | None]]:
    """Each item, a record's row with its text read (many at a time)."""
    chunk: list[Head | Row] = []
    rows = 0

    def read() -> Iterator[tuple[Head | Row, View | RecordError | None]]:
        views = iter(read_records([item.text for item in chunk if isinstance(item, Row)]))
        for item in chunk:
            yield item, next(views) if isinstance(item, Row) else None

    for item in items:
        chunk.append(item)
        if isinstance(item, Row):
            rows += 1
            if rows == _READ_TOGETHER:
                yield from read()
                chunk, rows = [], 0
    yield from read()


@dataclass(slots=True)
class _Table:
    """The table being walked."""

    key: str
    head: Head | None
    # position (1-based) -> [(the digest a checkpoint holds there, it)]
    marks: dict[int, list[tuple[str | None, Checkpoint]]]
    link: str | None = None
    count: int = 0


class Verifier:
    """Checks a walk of the store into ``report``: with ``key``, head MACs
    and the checkpoints' MACs; against ``checkpoints``, each chain's first
    rounds (of the table keyed ``only``, when given); ``progress`` is called
    with the count of records checked."""

    def __init__(
        self,
        report: VerifyReport,
        key: bytes | None,
        checkpoints: Sequence[Checkpoint],
        only: str | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.report = report
        self.key = key
        self.progress = progress
        report.macs_checked = key is not None
        report.checkpoints = len(checkpoints)
        # table key -> [(rounds, last digest, checkpoint)] not yet met
        self.pending: dict[str, list[tuple[int, str | None, Checkpoint]]] = {}
        for checkpoint in checkpoints:
            if key is not None and checkpoint.mac is not None and not checkpoint.signed_by(key):
                report.problems.append(
                    VerifyProblem(
                        None,
                        None,
                        ("mac",),
                        f"the checkpoint made at {checkpoint.made_at}: its MAC is not the store "
                        "key's (changed, or signed under another key)",
                        "checkpoint",
                    )
                )
            for table in checkpoint.tables:
                key_text = table_key(table.table_id)
                if only is None or key_text == only:
                    self.pending.setdefault(key_text, []).append(
                        (table.rounds, table.last_digest, checkpoint)
                    )
        self.table: _Table | None = None

    def _problem(self, kind: str, fields: tuple[str, ...], message: str) -> None:
        assert self.table is not None
        self.report.problems.append(
            VerifyProblem(table_id_of(self.table.key), None, fields, message, kind)
        )

    def _open(self, key: str, head: Head | None) -> None:
        self._close()
        marks: dict[int, list[tuple[str | None, Checkpoint]]] = {}
        for rounds, digest, checkpoint in self.pending.pop(key, ()):
            marks.setdefault(rounds, []).append((digest, checkpoint))
        self.table = _Table(key, head, marks)

    def _close(self) -> None:
        table = self.table
        if table is None:
            return
        self.report.tables += 1
        end = f"round {table.count}, digest {table.link!r}"
        head = table.head
        if head is None:
            if table.count:
                self._problem(
                    "head", ("head",), f"the table has no head row; its records end at {end}"
                )
        elif (head.last_digest, head.rounds) != (table.link, table.count):
            fields = tuple(
                name
                for name, differs in (
                    ("last_digest", head.last_digest != table.link),
                    ("rounds", head.rounds != table.count),
                )
                if differs
            )
            held = f"round {head.rounds}, digest {head.last_digest!r}"
            if table.count:
                message = f"the head is at {held}, the records end at {end}"
            else:
                message = f"the head is at {held}, and the store holds no record of the table"
            self._problem("head", fields, message)
        if head is not None and self.key is not None:
            problem = head_problem(
                self.key, table.key, head.rounds, head.last_digest, head.head_mac
            )
            if problem is not None:
                self._problem("head", ("head_mac",), problem)
        for rounds in sorted(r for r in table.marks if r > table.count):
            for digest, checkpoint in table.marks[rounds]:
                self._problem(
                    "checkpoint",
                    ("rounds",),
                    f"the checkpoint made at {checkpoint.made_at} holds {rounds} round(s), "
                    f"the last {digest!r}; the store holds {table.count}: the chain was cut short",
                )
        self.table = None

    def _row(self, row: Row, view: View | RecordError) -> None:
        table = self.table
        if table is None or table.key != row.table_key:
            self._open(row.table_key, None)
            table = self.table
            assert table is not None
        problem = _check_row(row, table.link, view)
        if problem is not None:
            self.report.problems.append(problem)
        table.link = row.digest
        table.count += 1
        self.report.seats += len(row.seats)
        for digest, checkpoint in table.marks.get(table.count, ()):
            held = view.digest if not isinstance(view, RecordError) else row.digest
            if held != digest:
                self.report.problems.append(
                    VerifyProblem(
                        table_id_of(row.table_key),
                        row.round_id,
                        ("digest",),
                        f"the checkpoint made at {checkpoint.made_at} holds {digest!r} as the "
                        f"table's round {table.count}; the store's is {held!r}: the chain was "
                        "rewritten up to here",
                        "checkpoint",
                    )
                )
        self.report.records += 1
        if self.progress is not None:
            self.progress(self.report.records)

    def walk(self, items: Iterable[Head | Row]) -> None:
        """Checks every head and record of the walk."""
        for item, view in _read_rows(items):
            if isinstance(item, Head):
                self._open(item.table_key, item)
            else:
                assert view is not None
                self._row(item, view)
        self._close()

    def seats_of_no_record(self, orphans: Iterable[tuple[int, int]]) -> None:
        """Each record number whose seats' rows have no record, and how many."""
        for seq, count in orphans:
            self.report.seats += count
            self.report.problems.append(
                VerifyProblem(
                    None,
                    None,
                    ("seats",),
                    f"{count} seat row(s) of record number {seq}, which the store does not hold",
                    "seats",
                )
            )

    def finish(self) -> VerifyReport:
        """The report, with the tables the checkpoints hold that the store
        has nothing of."""
        for key, marks in self.pending.items():
            for rounds, digest, checkpoint in marks:
                self.report.problems.append(
                    VerifyProblem(
                        table_id_of(key),
                        None,
                        ("rounds",),
                        f"the checkpoint made at {checkpoint.made_at} holds {rounds} round(s), "
                        f"the last {digest!r}; the store holds no record and no head of the table",
                        "checkpoint",
                    )
                )
        self.pending.clear()
        return self.report
