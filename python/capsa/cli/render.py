"""``capsa render``: rounds drawn as showdown pages.

``capsa render FILE -o OUT.html`` reads FILE as ``capsa settle`` does (JSON
Lines or one JSON document, the same reader and limits), settles every round
with the same core, and draws it: one round is the page OUT.html; several
are an index OUT.html (:mod:`capsa.render._index`, titled by the input's
name) linking to a page per round in the directory beside it
(``OUT-rounds/round-N.html``). A round record (a JSON object with a
``settlement``, see :mod:`capsa.render._records`) is drawn with its
verification; a void record (a round never played, see
:mod:`capsa.render._void`) as a void round with its reason. A round that
cannot be settled gets the error record ``capsa settle`` gives it, written
to standard output and listed on the index; the others go on. Exit codes as
``capsa settle``. No folder is created but the one beside OUT.html.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from capsa import _core
from capsa.cli.common import (
    EXIT_FAILED,
    Prefixed,
    UsageError,
    check_writable,
    int_in,
    is_blank,
    lines,
    load_rules,
    open_input,
    prepare_folder,
    read_document,
    sniff,
    write_file,
)
from capsa.cli.render_player import PlayerPages
from capsa.json_faults import int_or_text
from capsa.render._html import page_html
from capsa.render._index import Chains, IndexEntry, index_head, index_row, index_tail
from capsa.render._model import Table, display_id, table_from_settlement
from capsa.render._nav import Nav
from capsa.render._records import is_round_record, table_from_record
from capsa.render._void import is_void_record, table_from_void
from capsa.render._words import LANGUAGES
from capsa.rules import Rules
from capsa.rules.known import default_known_rules

__all__ = ["register"]

_ID_PREFIX = b'{"id":'


class _Pages:
    """Where the pages go: the one round's page, or an index and a page per
    round, each written as it comes (memory holds no more than one round)."""

    def __init__(self, out: Path, lang: str, source: str) -> None:
        self.out = out
        self.lang = lang
        self.source = source
        self.folder = out.with_name(out.stem + "-rounds")
        self.count = 0
        self.failed = 0
        self.void = 0
        self.held: tuple[Table, int | None] | None = None
        self.pending: tuple[int, Table] | None = None
        self.last_page = 0
        self.chains = Chains()
        self.index: IO[str] | None = None

    def _href(self, number: int) -> str:
        return f"{self.folder.name}/round-{number}.html"

    def _page(self, number: int, table: Table, nav: Nav) -> None:
        if not self.folder.is_dir():
            prepare_folder(self.folder, "the round pages' folder")
        path = self.folder / f"round-{number}.html"
        write_file(path, page_html(table, self.lang, operator=True, nav=nav).encode("utf-8"))

    def _nav(self, number: int, next_number: int | None) -> Nav:
        """The links of round ``number``'s page: the round drawn before it and
        the one after (a round that failed has no page), and the index."""
        return Nav(
            back=f"../{self.out.name}",
            number=number,
            previous=f"round-{self.last_page}.html" if self.last_page else None,
            next=f"round-{next_number}.html" if next_number is not None else None,
            back_key="index.back",
            label_key="index.nav",
        )

    def _hold_page(self, number: int, table: Table) -> str:
        """Holds round ``number``'s page until the next round's number is
        known (its page links to it), writing the one held before."""
        self._write_pending(number)
        self.pending = (number, table)
        return self._href(number)

    def _write_pending(self, next_number: int | None) -> None:
        if self.pending is None:
            return
        number, table = self.pending
        self.pending = None
        self._page(number, table, self._nav(number, next_number))
        self.last_page = number

    def _put(self, text: str) -> None:
        try:
            if self.index is None:
                self.index = open(self.out, "w", encoding="utf-8")  # noqa: SIM115 - closed in finish
            self.index.write(text)
        except OSError as exc:
            raise UsageError(f"cannot write {self.out}: {exc.strerror or exc}") from None

    def _row(self, entry: IndexEntry) -> None:
        if self.index is None:
            self._put(index_head(self.lang, source=self.source))
            if self.held is not None:
                # a second round: the first one's page goes beside the index too
                table, line = self.held
                self.held = None
                first = IndexEntry.settled(1, line, self._hold_page(1, table), table)
                self._put(index_row(self.chains.link(first), self.lang))
        self._put(index_row(self.chains.link(entry), self.lang))

    def add(self, table: Table, line: int | None, record: Any = None) -> None:
        """One drawn round (its record, when it came from one, unused here)."""
        del record
        self.count += 1
        self.void += table.void is not None
        if self.count == 1:
            self.held = (table, line)
            return
        entry = IndexEntry.settled(self.count, line, self._href(self.count), table)
        self._row(entry)
        self._hold_page(self.count, table)

    def error(self, record: bytes, line: int | None) -> None:
        self.count += 1
        self.failed += 1
        text = record.decode("utf-8", "replace")
        value = json.loads(text, parse_int=int_or_text)
        round_id = display_id(_raw_id_after(text, text.find(',"id":') + len(',"id":')))
        self._row(IndexEntry(self.count, line, round_id=round_id, error=value, record=text))

    def finish(self) -> None:
        if self.index is None:
            if self.held is not None:
                write_file(
                    self.out, page_html(self.held[0], self.lang, operator=True).encode("utf-8")
                )
            else:
                head = index_head(self.lang, source=self.source)
                write_file(self.out, (head + index_tail(self.lang, 0, 0)).encode("utf-8"))
            return
        self._write_pending(None)
        settled = self.count - self.failed - self.void
        self._put(index_tail(self.lang, settled, self.failed, self.void))
        self.close()

    def close(self) -> None:
        if self.index is not None:
            index, self.index = self.index, None
            try:
                index.close()
            except OSError as exc:
                raise UsageError(f"cannot write {self.out}: {exc.strerror or exc}") from None


def _raw_id_after(text: str, start: int) -> str | None:
    """The id written at ``start`` of a record: a string's text, a number's
    digits as written (``-0``, ``1e400``), None for null."""
    value, end = json.JSONDecoder(parse_int=int_or_text).raw_decode(text, start)
    if value is None or isinstance(value, str):
        return value
    return text[start:end]


def _raw_id(record: bytes) -> str | None:
    """The id of a settlement record as written."""
    if not record.startswith(_ID_PREFIX):
        return None
    return _raw_id_after(record.decode("utf-8"), len(_ID_PREFIX))


def _json(data: bytes | str) -> Any:
    try:
        return json.loads(data, parse_int=int_or_text)
    except (ValueError, RecursionError):
        return None


class _Tally:
    """The rounds drawn so far, on a terminal's standard error (a line
    rewritten at most twice a second); silent elsewhere."""

    def __init__(self, stream: IO[str], clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.clock = clock
        self.live = stream.isatty()
        self.count = 0
        self.shown = 0.0

    def tick(self) -> None:
        self.count += 1
        now = self.clock()
        if self.live and now - self.shown >= 0.5:
            self.shown = now
            print(f"\rcapsa render: {self.count:,} rounds", end="", file=self.stream, flush=True)

    def done(self) -> None:
        if self.live and self.shown:
            print(f"\rcapsa render: {self.count:,} rounds", file=self.stream, flush=True)


class _Renderer:
    """Settles each round with the core's stream functions and draws it."""

    def __init__(self, default: Rules, pages: _Pages | PlayerPages, errors: IO[bytes]) -> None:
        self.rules = default_known_rules(default)
        self.default = default.name
        self.known: dict[str, _core.RuleSet] = dict(self.rules)
        self.pages = pages
        self.errors = errors
        self.failed = 0
        self.tally = _Tally(sys.stderr)

    def _rules_of(self, round_value: Any) -> Rules:
        name = round_value.get("rules") if isinstance(round_value, dict) else None
        if isinstance(name, str) and name in self.rules:
            return self.rules[name]
        return self.rules[self.default]

    def _fail(self, record: bytes, line: int | None) -> None:
        self.failed += 1
        self.errors.write(record + b"\n")
        self.pages.error(record, line)
        self.tally.tick()

    def _record(self, value: Any, line: int | None) -> None:
        """A round record or a void record: drawn through its adapter."""
        try:
            table = table_from_void(value) if is_void_record(value) else table_from_record(value)
        except _core.CapsaError as exc:
            error = {
                "error": type(exc).__name__,
                "id": value.get("round_id", value.get("id")),
                "line": line,
                "message": str(exc),
                "row": exc.row,
                "seat": exc.seat,
            }
            text = json.dumps(error, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            self._fail(text.encode("utf-8"), line)
            return
        self.pages.add(table, line, value)
        self.tally.tick()

    def _settled(self, record: bytes, round_value: Any, line: int | None) -> None:
        data = json.loads(record, parse_int=int_or_text)
        table = table_from_settlement(
            data, rules=self._rules_of(round_value), round_id=display_id(_raw_id(record))
        )
        self.pages.add(table, line)
        self.tally.tick()

    def lines(self, stream: IO[bytes] | Prefixed) -> None:
        """Every line of a JSON Lines stream."""
        for number, line in enumerate(lines(stream), start=1):
            self.line(line, number)

    def line(self, line: bytes | int, number: int) -> None:
        """One line of a JSON Lines stream."""
        data, _ = _core.settle_json_lines([line], self.known, self.default, number)
        if not data:
            return  # a blank line
        record = data.rstrip(b"\n")
        if record.startswith(b'{"error":'):
            value = _json(line) if isinstance(line, bytes) else None
            if is_round_record(value) or is_void_record(value):
                self._record(value, number)
            else:
                self._fail(record, number)
            return
        assert isinstance(line, bytes)
        self._settled(record, _json(line), number)

    def document(self, text: bytes) -> None:
        """One JSON document: a round or a list of rounds."""
        data, _ = _core.settle_json_document(text, self.known, self.default, None)
        document = None
        if data.startswith(b"["):
            document = _json(text)
            rounds = document if isinstance(document, list) else []
            for k, record in enumerate(_elements(data)):
                value = rounds[k] if k < len(rounds) else None
                self._one(record, value)
        else:
            self._one(data, _json(text))

    def _one(self, record: bytes, value: Any) -> None:
        if record.startswith(b'{"error":'):
            line = json.loads(record, parse_int=int_or_text).get("line")
            if is_round_record(value) or is_void_record(value):
                self._record(value, line)
            else:
                self._fail(record, line)
        else:
            self._settled(record, value, None)


def _elements(data: bytes) -> list[bytes]:
    """The records of a compact JSON list, each as its own text."""
    text = data.decode("utf-8")
    decoder = json.JSONDecoder()
    out = []
    pos = 1
    while text[pos] != "]":
        _, end = decoder.raw_decode(text, pos)
        out.append(text[pos:end].encode("utf-8"))
        pos = end + (text[end] == ",")
    return out


def _run(args: argparse.Namespace) -> int:
    out = Path(args.output)
    check_writable(out)
    source = "-" if args.input in (None, "-") else Path(args.input).name
    pages: _Pages | PlayerPages
    if args.player is not None:
        pages = PlayerPages(out, args.lang, args.player, args.page_size)
    else:
        pages = _Pages(out, args.lang, source)
    renderer = _Renderer(load_rules(args.rules), pages, sys.stdout.buffer)
    with contextlib.ExitStack() as stack:
        stack.callback(pages.close)
        stream = open_input(args.input, stack)
        if args.format == "json":
            renderer.document(read_document(stream))
        elif args.format == "jsonl":
            renderer.lines(stream)
        else:
            fmt, head = sniff(stream)
            if fmt == "json":
                if not is_blank(head):
                    renderer.document(head)
            else:
                renderer.lines(Prefixed(head, stream))
        pages.finish()
    renderer.tally.done()
    sys.stdout.buffer.flush()
    if isinstance(pages, PlayerPages) and pages.mine == 0:
        shown = args.player if len(args.player) <= 40 else args.player[:37] + "..."
        print(f"capsa render: player {shown!r} sat at none of the rounds read", file=sys.stderr)
        return EXIT_FAILED
    if renderer.failed:
        print(f"capsa render: {renderer.failed} round(s) could not be settled", file=sys.stderr)
    # as capsa settle: a failure fails under --strict, and so does an input of
    # rounds none of which could be drawn
    drew_none = renderer.failed == pages.count
    return EXIT_FAILED if renderer.failed and (args.strict or drew_none) else 0


def register(subparsers: Any) -> None:
    """Adds ``capsa render``."""
    render = subparsers.add_parser(
        "render",
        help="draw rounds as showdown pages (HTML): the table, the row results, every payment",
        description="Reads rounds (or round records) from FILE or standard input as "
        "'capsa settle' does and draws each as a self-contained HTML page: one round is "
        "OUT.html itself; several are an index OUT.html and a page per round in "
        "OUT-rounds/. A round that cannot be settled gets the error record 'capsa settle' "
        "gives it, on standard output and on the index.",
    )
    render.add_argument("input", nargs="?", help="input file (default: standard input)")
    render.add_argument("-o", "--output", required=True, help="the page to write, e.g. OUT.html")
    render.add_argument("--rules", help="rules for rounds that name none (preset or TOML file)")
    render.add_argument(
        "--format",
        choices=["auto", "jsonl", "json"],
        default="auto",
        help="the input's format (default: auto, told from its first bytes)",
    )
    render.add_argument("--lang", choices=LANGUAGES, default="en", help="en (default) or id")
    render.add_argument("--strict", action="store_true", help="exit 1 when any round failed")
    render.add_argument(
        "--player",
        metavar="ID",
        help="draw this player's hand history from round records: their rounds only, "
        "their seat first, a running balance (default: every round, for an operator)",
    )
    render.add_argument(
        "--page-size",
        type=int_in(1, 10_000, "--page-size"),
        default=100,
        help="rounds on each page of a hand history (default 100)",
    )
    render.set_defaults(run=_run)
