"""The check of every stored chain: each record read back from its exact
text, its columns against its contents, its link to the record before it in
its table, then replayed (digest, deal, every arrangement, settlement; a
void record's digest, and it has no seat rows), and each table's head
against its last record."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from capsa import _core
from capsa.records import RecordError, ReplayError, View, read_records, replay_view
from capsa.store.rows import column_text, table_id_of

__all__ = ["Progress", "Row", "VerifyProblem", "VerifyReport", "verify_rows"]

Progress = Callable[[int], None]
"""Called with the number of records checked so far."""

Seats = tuple[tuple[str, "str | None", int, int], ...]
Row = tuple[int, str, str, str, str, "str | None", str, Seats]
"""A stored record as verify reads it: (seq, table key, round id, nonce,
digest, previous digest, text, its seats' (player id, name, net, rake))."""


@dataclass(frozen=True, slots=True)
class VerifyProblem:
    """One stored record (or table head) that does not check: its table
    (``table_id``) and round (``round_id``, None for a table's head), the
    fields named (``fields``) and why (``message``). Raises nothing."""

    table_id: str | None
    round_id: str | None
    fields: tuple[str, ...]
    message: str

    def __str__(self) -> str:
        where = f"table {self.table_id!r}" if self.table_id is not None else "the table of no id"
        what = f"round {self.round_id!r}" if self.round_id is not None else "its head"
        return f"{where}, {what}: {self.message}"


@dataclass(slots=True)
class VerifyReport:
    """What :meth:`capsa.store.Store.verify` found: how many ``records`` and
    ``tables`` were checked and every problem (``problems``, each a
    :class:`VerifyProblem`), in the order stored. Raises nothing."""

    records: int = 0
    tables: int = 0
    problems: list[VerifyProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every record and head checked."""
        return not self.problems


def _columns(row: Row, view_values: tuple[str, str, str, str | None]) -> list[str]:
    """The columns that are not what the record's text holds."""
    _, _, round_id, nonce, digest, previous, _, _ = row
    names = ("round_id", "nonce", "digest", "previous_digest")
    return [
        n
        for n, a, b in zip(names, (round_id, nonce, digest, previous), view_values, strict=True)
        if a != b
    ]


def _seats_of(view: View) -> Seats:
    """The seats' rows a record gives: (player id, name, net, rake); none
    for a void record."""
    if isinstance(view, _core.VoidView):
        return ()
    figures = view.net_and_rake()
    return tuple(
        (player, column_text(name), int(net), int(rake))
        for (player, name), (net, rake) in zip(view.players, figures, strict=True)
    )


def _check_row(row: Row, link: str | None, view: View | RecordError) -> VerifyProblem | None:
    """The problem of one stored record, its text read as ``view``: its
    columns against its text, then its replay against the record before it
    in its table (both named)."""
    _, key, round_id, _, _, _, _, seats = row
    table_id = table_id_of(key)
    if isinstance(view, RecordError):
        return VerifyProblem(table_id, round_id, (view.field,), f"RecordError: {view}")
    found = (view.round_id, str(view.nonce), view.digest, view.previous_digest)
    wrong = _columns(row, found)
    if table_id != view.table_id:
        wrong.insert(0, "table_id")
    if seats != _seats_of(view):
        wrong.append("seats")
    fields = list(wrong)
    messages = ["the stored columns are not the record's: " + ", ".join(wrong)] if wrong else []
    try:
        replay_view(view, link)
    except ReplayError as exc:
        fields += exc.fields
        messages.append(f"{type(exc).__name__}: {exc}")
    if not fields:
        return None
    return VerifyProblem(table_id, round_id, tuple(fields), "; ".join(messages))


# rows whose texts are read in one call, on every core
_READ_TOGETHER = 256


def _read_rows(rows: Iterable[Row]) -> Iterator[tuple[Row, View | RecordError]]:
    """Each row with its record's text read, many at a time."""
    page: list[Row] = []
    for row in rows:
        page.append(row)
        if len(page) == _READ_TOGETHER:
            yield from zip(page, read_records([r[6] for r in page]), strict=True)
            page = []
    if page:
        yield from zip(page, read_records([r[6] for r in page]), strict=True)


def verify_rows(
    rows: Iterable[Row],
    heads: dict[str, tuple[str | None, int]],
    report: VerifyReport,
    progress: Progress | None = None,
) -> VerifyReport:
    """Checks rows in table order (by table key, then as stored) into
    ``report``; ``heads`` is each table's (last digest, round count)."""
    key: str | None = None
    link: str | None = None
    count = 0

    def close_table() -> None:
        if key is None:
            return
        report.tables += 1
        if heads.get(key) != (link, count):
            report.problems.append(
                VerifyProblem(
                    table_id_of(key),
                    None,
                    ("last_digest",),
                    f"the head is {heads.get(key)!r}, the records end at ({link!r}, {count})",
                )
            )

    for row, view in _read_rows(rows):
        if row[1] != key:
            close_table()
            key, link, count = row[1], None, 0
        problem = _check_row(row, link, view)
        if problem is not None:
            report.problems.append(problem)
        link = row[4]
        count += 1
        report.records += 1
        if progress is not None:
            progress(report.records)
    close_table()
    return report
