"""The index of rounds: one self-contained HTML page listing many rounds, one
row each, for an operator to find a round by its time, table, players or
outcome and open its page.

Each row holds the round's number and input line, when it was played, its
table and id, every seat's player and net, its outcome in a few words
(naturals, fouls, surrenders, sweep-alls, scoops), its pot (the money its
winners collect) and rake, the seats the server arranged at the close, and
the verification of its record with its place in its table's chain (the
first, following a round listed above, or following one not listed). A
round read as ``capsa settle`` input (not a record) has no time, table,
players' ids, auto-arranged seats or verification: those cells stay empty.

The page is written as it goes (:func:`index_head`, :func:`index_row` per
round, :func:`index_tail`), so an index of many rounds is never held whole.
An inline script, fetching nothing, sorts the rows by a column and filters
them by the words typed; without scripts the rows are all there, in input
order, and the filter stays hidden. On a phone each row is laid out as a
card, each cell labelled; a wider screen too narrow for every column
scrolls the table in its own box.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

from capsa.render._html import _DOCUMENT_TAIL, _document_head
from capsa.render._model import Table
from capsa.render._text import esc
from capsa.render._words import Words, words

__all__ = ["Chains", "IndexEntry", "index_head", "index_html", "index_row", "index_tail"]


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One round of an index page: what the index shows of a settled round
    (its id, each seat's player and net, what happened, its pot and rake,
    its record's table, time, auto-arranged seats and verification, its
    page ``href``), or the error record it got instead. Small: an index of
    many rounds holds no tables."""

    number: int
    line: int | None
    href: str | None = None
    round_id: str | None = None
    nets: tuple[tuple[str | None, int], ...] = ()
    """Each seat's name (None: the page's own) and net."""
    marks: tuple[str, ...] = ()
    """The word keys of what happened (``natural.dragon``, ``badge.foul``, ...)."""
    error: dict[str, object] | None = None
    record: str | None = None
    """The error record as ``capsa settle`` writes it."""
    table_id: str | None = None
    played_at: str | None = None
    """When the round was played, ISO 8601 text (a record's ``meta.played_at``)."""
    pot: int = 0
    """The money the round's winners collect (each seat's money, when positive)."""
    rake: int = 0
    auto: tuple[int, ...] = ()
    """The seats the server arranged at the close."""
    player_ids: tuple[str | None, ...] = ()
    """Each seat's player id in a round record (None without one)."""
    verified: str | None = None
    """The record's verification: ``ok``, ``fail``, ``partly``, ``skip`` (not
    checked), or None for a round that is no record."""
    digest: str | None = None
    """The record's digest (hex)."""
    previous_digest: str | None = None
    """The digest of the record before it in its table's chain (None: the first)."""
    follows: int | None = None
    """The number of the round whose record this one follows in its chain,
    when that round is in the same index (see :class:`Chains`)."""
    void_reason: str | None = None
    """Why the round is void (a void record: never played), else None."""

    @classmethod
    def settled(cls, number: int, line: int | None, href: str | None, table: Table) -> IndexEntry:
        """The entry of a settled round."""
        return cls(
            number,
            line,
            href,
            table.round_id,
            tuple((seat.name, seat.net) for seat in table.seats),
            _marks(table),
            table_id=table.table_id,
            played_at=table.played_at,
            pot=sum(seat.money for seat in table.seats if seat.money > 0),
            rake=sum(seat.rake for seat in table.seats),
            auto=tuple(seat.index for seat in table.seats if seat.auto),
            player_ids=tuple(seat.player_id for seat in table.seats),
            verified=_verified(table),
            digest=table.digest,
            previous_digest=table.previous_digest,
            void_reason=None if table.void is None else table.void.reason,
        )


class Chains:
    """Links each record of an index to the record before it in its table's
    chain (the one whose digest is its ``previous_digest``), when that one
    came earlier in the same index; remembers one digest per record."""

    def __init__(self) -> None:
        self._numbers: dict[str, int] = {}

    def link(self, entry: IndexEntry) -> IndexEntry:
        """The entry with the round it follows, if listed before it."""
        if entry.digest is None:
            return entry
        before = entry.previous_digest
        follows = self._numbers.get(before) if before is not None else None
        self._numbers.setdefault(entry.digest, entry.number)
        return entry if follows is None else replace(entry, follows=follows)


def _marks(table: Table) -> tuple[str, ...]:
    marks = []
    for seat in table.seats:
        if seat.natural is not None:
            marks.append(f"natural.{seat.natural}")
        if seat.declined is not None:
            marks.append(f"declined.{seat.declined}")
        if seat.foul:
            marks.append("badge.foul")
        if seat.surrender:
            marks.append("badge.surrender")
        if seat.swept_all:
            marks.append("badge.sweep_all")
    if any(p.outcome == "rows" and p.scoop and not p.sweep_all for p in table.pairs):
        marks.append("badge.scoop")
    return tuple(dict.fromkeys(marks))


def _verified(table: Table) -> str | None:
    results = {check.ok for check in table.checks}
    if not results:
        return None
    if False in results:
        return "fail"
    if results == {True}:
        return "ok"
    return "skip" if results == {None} else "partly"


@cache
def _style() -> str:
    return resources.files("capsa.render").joinpath("index.css").read_text(encoding="utf-8")


# below this width (CSS px) each round is a card: a tablet's window is too
# narrow for every column, and a table scrolled sideways hides its right half
CARD_WIDTH_MAX = 1199
# rows in the document at a time, with a script (every row is in the HTML)
PER_PAGE = 100

# (key, sorted as numbers, right-aligned, word key) of each column; a key of
# None is not sortable
_COLUMNS = (
    ("number", True, True, "index.number"),
    ("round", False, False, "index.round"),
    ("time", False, False, "index.time"),
    ("table", False, False, "index.table"),
    (None, False, False, "index.players"),
    ("outcome", False, False, "index.marks"),
    ("pot", True, True, "index.pot"),
    ("rake", True, True, "index.rake"),
    ("auto", True, False, "index.auto"),
    ("verified", False, False, "index.verified"),
    ("line", True, True, "index.line"),
)
_VERIFIED_WORDS = {
    "ok": "verify.passed",
    "fail": "verify.failed",
    "partly": "index.partly",
    "skip": "verify.not_checked",
}


def _header(w: Words) -> str:
    # the buttons sort only with the page's script, which enables them
    cells = []
    for key, numeric, right, word in _COLUMNS:
        label = "#" if key == "number" else w[word]
        num = ' class="num"' if right else ""
        if key is None:
            cells.append(f'<th scope="col"{num}>{w[word]}</th>')
            continue
        sort = ' aria-sort="ascending"' if key == "number" else ""
        name = f' aria-label="{w[word]}"' if key == "number" else ""
        cells.append(
            f'<th scope="col"{num} data-key="{key}" data-type="{"num" if numeric else "text"}"'
            f'{sort}><button type="button" disabled{name}>{label}</button></th>'
        )
    return "<thead><tr>" + "".join(cells) + "</tr></thead>\n"


def _css_string(text: str) -> str:
    """A word (escaped for HTML) as a CSS string: the raw text, quoted."""
    raw = html.unescape(text).replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
    return f'"{raw}"'


@cache
def _card_labels(lang: str) -> str:
    """The label of each cell of a round laid out as a card (a phone's width),
    and of the headers, there a row of sort buttons."""
    w = words(lang)
    rules = []
    for k, (_, _, _, word) in enumerate(_COLUMNS, start=1):
        if k <= 2:
            continue  # the number and round id head the card
        # an error row has the first four cells and the last (the line) of a round's
        if k == len(_COLUMNS):
            cell = "td:last-child"
        else:
            cell = f"td:nth-child({k})" if k <= 4 else f"tr.round td:nth-child({k})"
        rules.append(f'.index tbody {cell}::before{{content:{_css_string(w[word])} ": "}}')
    sort_by = _css_string(w["index.sort_by"])
    rules.append(f'.index thead tr::before{{content:{sort_by} ":";align-self:center}}')
    return f"@media (max-width:{CARD_WIDTH_MAX}px){{\n" + "\n".join(rules) + "\n}\n"


def index_head(lang: str, title: str | None = None, *, source: str | None = None) -> str:
    """The start of an index page, up to its first round (see :func:`index_html`).

    Its title is ``title``, or says where the rounds come from (``source``:
    the input file's name, ``-`` for standard input), or is the index's own."""
    w = words(lang)
    if title is not None:
        heading = esc(title)
    elif source is not None:
        shown = w["index.stdin"] if source == "-" else esc(source)
        heading = w.fill("index.title_of", v=shown)
    else:
        heading = w["index.title"]
    return (
        _document_head(w, heading, _style() + _card_labels(w.lang))
        + f'<header>\n<h1 id="index-heading">{heading}</h1>\n</header>\n<section>\n'
        '<div class="index-tools" hidden>'
        f'<label for="index-filter">{w["index.filter"]}</label>'
        '<input id="index-filter" type="search" autocomplete="off" spellcheck="false">'
        f'<output id="index-count" for="index-filter" aria-live="polite" '
        f'data-template="{w["index.shown"]}" data-thousands="{w.number(1000)[1]}"></output>'
        f'<div class="index-pager" hidden><button type="button">{w["index.page_back"]}</button>'
        f'<output aria-live="polite" data-template="{w["index.page_rows"]}"></output>'
        f'<button type="button">{w["index.page_ahead"]}</button></div>'
        "</div>\n"
        '<div class="index-box" role="region" aria-labelledby="index-heading" tabindex="0">\n'
        f'<table class="index" data-per-page="{PER_PAGE}">\n' + _header(w) + "<tbody>\n"
    )


def _time(text: str | None) -> tuple[str, str]:
    """The time's cell and its sort key: ISO 8601 text shown as its date and
    time of day, each kept on one line."""
    if text is None:
        return "<td></td>", ""
    parts = (text[:10], text[11:]) if len(text) > 10 and text[10] == "T" else (text,)
    shown = " ".join(f"<span>{esc(part)}</span>" for part in parts)
    return f'<td><time datetime="{esc(text)}">{shown}</time></td>', esc(text)


def _players(entry: IndexEntry, w: Words) -> str:
    items = []
    for k, (name, net) in enumerate(entry.nets):
        shown = esc(name) if name is not None else w.fill("seat.name", v=str(k))
        items.append(f'<span class="net-item"><bdi>{shown}</bdi> {w.signed(net)}</span>')
    return ", ".join(items)


def _outcome(entry: IndexEntry, w: Words) -> list[str]:
    """What happened, each in a few words (escaped)."""
    if entry.void_reason is not None:
        return [w.fill("index.void", v=esc(entry.void_reason))]
    if not entry.marks:
        return [w["index.plain"]]
    return [
        w.fill("index.natural", v=w[key])
        if key.startswith("natural.")
        else w.fill("index.declined", v=w["natural." + key.removeprefix("declined.")])
        if key.startswith("declined.")
        else w[key]
        for key in entry.marks
    ]


def _error_row(entry: IndexEntry, start: str, keys: str, line: str) -> str:
    err = entry.error or {}
    return (
        f'<tr class="error" data-number="{entry.number}"{keys}>{start}'
        f'<td colspan="{len(_COLUMNS) - 5}"><strong>{esc(str(err.get("error")))}</strong>: '
        f"{esc(str(err.get('message')))}"
        f'<pre class="error-record">{esc(entry.record or "")}</pre></td>{line}</tr>\n'
    )


def _chain(entry: IndexEntry, w: Words) -> str:
    """Where the record stands in its table's chain, as far as the index shows."""
    if entry.digest is None:
        return ""
    if entry.previous_digest is None:
        text = w["index.chain_first"]
    elif entry.follows is not None:
        text = w.fill("index.chain_follows", v=str(entry.follows))
    else:
        text = w["index.chain_outside"]
    return f' <span class="chain">{text}</span>'


def _record_cells(entry: IndexEntry, w: Words) -> str:
    """The pot, rake, auto-arranged seats and verification cells."""
    names = [
        esc(name) if name is not None else w.fill("seat.name", v=str(k))
        for k, (name, _) in enumerate(entry.nets)
    ]
    auto = ", ".join(f"<bdi>{names[k]}</bdi>" for k in entry.auto if k < len(names))
    if entry.verified is None and entry.digest is None:
        verified = "<td></td>"
    else:
        title = f' title="{w.fill("index.digest", v=esc(entry.digest))}"' if entry.digest else ""
        status = entry.verified
        word = w[_VERIFIED_WORDS[status]] if status else ""
        kind = f"verified {status}" if status else "verified"
        verified = f'<td class="{kind}"{title}>{word}{_chain(entry, w)}</td>'
    return (
        f'<td class="num pot">{w.number(entry.pot)}</td>'
        f'<td class="num rake">{w.number(entry.rake)}</td><td class="auto">{auto}</td>{verified}'
    )


def index_row(entry: IndexEntry, lang: str) -> str:
    """One round's row of an index page: the round's id links to its page."""
    w = words(lang)
    line = "" if entry.line is None else str(entry.line)
    rid = "" if entry.round_id is None else f"<bdi>{esc(entry.round_id)}</bdi>"
    if entry.href:
        # a long id is cut short on the page: its whole text shows on hover
        long = entry.round_id is not None and len(entry.round_id) > 20
        whole = f' title="{esc(entry.round_id or "")}"' if long else ""
        rid = f'<a href="{esc(entry.href)}"{whole}>{rid or w["index.open"]}</a>'
    time, time_key = _time(entry.played_at)
    table = ""
    if entry.table_id is not None:
        whole = f' title="{esc(entry.table_id)}"' if len(entry.table_id) > 12 else ""
        table = f"<bdi{whole}>{esc(entry.table_id)}</bdi>"
    keys = (
        f' data-line="{line}" data-time="{time_key}"'
        f' data-table="{"" if entry.table_id is None else esc(entry.table_id)}"'
        f' data-round="{"" if entry.round_id is None else esc(entry.round_id)}"'
    )
    start = f'<td class="num">{entry.number}</td><td>{rid}</td>{time}<td>{table}</td>'
    end = f'<td class="num">{line}</td>'
    if entry.error is not None:
        return _error_row(entry, start, keys, end)
    ids = " ".join(esc(i) for i in entry.player_ids if i is not None)
    found = f' data-filter="{ids} {esc(entry.digest or "")}"' if ids or entry.digest else ""
    outcome = _outcome(entry, w)
    # sorted by the words shown (escaped for text: quotes too, for the attribute)
    sort_outcome = ", ".join(outcome).replace('"', "&quot;")
    keys += (
        f' data-outcome="{sort_outcome}"'
        f' data-pot="{entry.pot}" data-rake="{entry.rake}"'
        f' data-auto="{len(entry.auto)}" data-verified="{entry.verified or ""}"{found}'
    )
    kind = "round void" if entry.void_reason is not None else "round"
    return (
        f'<tr class="{kind}" data-number="{entry.number}"{keys}>{start}'
        f'<td class="players">{_players(entry, w)}</td>'
        '<td class="outcome">'
        + ", ".join(f'<span class="mark">{text}</span>' for text in outcome)
        + f"</td>{_record_cells(entry, w)}{end}</tr>\n"
    )


# Sorts the rows by the column whose header is clicked (again: the other
# way), empty values last; filters them by every word typed, and counts the
# rows shown with their pot and rake (exact: BigInt). Only a page of rows is
# in the document at a time: laying out a thousand rows again takes the
# browser most of a second, a hundred a few milliseconds.
_SCRIPT = """<script>
(() => {
  const table = document.querySelector('table.index');
  const PER_PAGE = +table.dataset.perPage || 100;
  const tools = document.querySelector('.index-tools');
  const filter = document.getElementById('index-filter');
  const count = document.getElementById('index-count');
  const pager = document.querySelector('.index-pager');
  const [back, where, ahead] = [...pager.children];
  const body = table.tBodies[0];
  let rows = [...body.rows];
  const texts = new Map(rows.map((r) => [r, (r.textContent + ' ' +
    (r.dataset.filter || '')).toLowerCase()]));
  const collator = new Intl.Collator(document.documentElement.lang, {numeric: true});
  const sep = count.dataset.thousands;
  const num = (n) => String(n).replace(/\\B(?=(\\d{3})+(?!\\d))/g, sep);
  let shown = rows, page = 0;
  const draw = () => {
    const pages = Math.max(1, Math.ceil(shown.length / PER_PAGE));
    page = Math.min(Math.max(page, 0), pages - 1);
    const first = page * PER_PAGE;
    body.replaceChildren(...shown.slice(first, first + PER_PAGE));
    pager.hidden = shown.length <= PER_PAGE;
    back.disabled = page === 0;
    ahead.disabled = page === pages - 1;
    const last = Math.min(first + PER_PAGE, shown.length);
    where.textContent = where.dataset.template.replace('{a}', num(shown.length ? first + 1 : 0))
      .replace('{b}', num(last)).replace('{n}', num(shown.length));
  };
  const show = () => {
    const terms = filter.value.toLowerCase().split(/\\s+/).filter(Boolean);
    let pot = 0n, rake = 0n;
    shown = rows.filter((row) => terms.every((t) => texts.get(row).includes(t)));
    for (const row of shown) {
      pot += BigInt(row.dataset.pot || 0);
      rake += BigInt(row.dataset.rake || 0);
    }
    count.textContent = count.dataset.template.replace('{v}', num(shown.length))
      .replace('{n}', num(rows.length)).replace('{pot}', num(pot)).replace('{rake}', num(rake));
    page = 0;
    draw();
  };
  // every numeric column holds integers: compared exactly, as numbers when exact
  const numeric = (x) => {
    const n = Number(x);
    return Number.isSafeInteger(n) ? n : BigInt(x);
  };
  const sortBy = (th) => {
    const key = th.dataset.key, isNumber = th.dataset.type === 'num';
    const down = th.getAttribute('aria-sort') === 'ascending';
    for (const other of table.tHead.rows[0].cells) other.removeAttribute('aria-sort');
    th.setAttribute('aria-sort', down ? 'descending' : 'ascending');
    const keyed = rows.map((r) => {
      const x = r.dataset[key] ?? '';
      return {r, empty: x === '', x: x === '' || !isNumber ? x : numeric(x), n: +r.dataset.number};
    });
    keyed.sort((a, b) => {
      const empty = a.empty - b.empty;
      if (empty) return empty;
      const c = a.empty ? 0 : isNumber ? (a.x > b.x) - (a.x < b.x) : collator.compare(a.x, b.x);
      return (down ? -c : c) || a.n - b.n;
    });
    rows = keyed.map((k) => k.r);
    show();
  };
  for (const th of table.tHead.rows[0].cells) {
    const button = th.querySelector('button');
    if (!button) continue;
    button.addEventListener('click', () => sortBy(th));
    button.disabled = false;
  }
  back.addEventListener('click', () => { page -= 1; draw(); });
  ahead.addEventListener('click', () => { page += 1; draw(); });
  filter.addEventListener('input', show);
  tools.hidden = false;
  show();
})();
</script>
"""


def index_tail(lang: str, settled: int, failed: int, void: int = 0) -> str:
    """The end of an index page: how many rounds were settled, how many were
    void (never played) and how many could not be settled."""
    w = words(lang)
    if void:
        summary = w.fill(
            "index.summary_void", v=w.number(settled), x=w.number(void), e=w.number(failed)
        )
    else:
        summary = w.fill("index.summary", v=w.number(settled), e=w.number(failed))
    empty = f"<p>{w['index.no_rounds']}</p>\n" if settled + failed + void == 0 else ""
    return (
        f'</tbody>\n</table>\n</div>\n</section>\n{empty}<p class="meta summary">{summary}</p>\n'
        + _SCRIPT
        + _DOCUMENT_TAIL
    )


def index_html(
    entries: Sequence[IndexEntry],
    lang: str = "en",
    title: str | None = None,
    *,
    source: str | None = None,
) -> str:
    """A page listing many rounds in order: each settled or void one linked
    to its page, each one that could not be settled with its error record."""
    failed = sum(e.error is not None for e in entries)
    void = sum(e.void_reason is not None for e in entries)
    chains = Chains()
    return (
        index_head(lang, title, source=source)
        + "".join(index_row(chains.link(e), lang) for e in entries)
        + index_tail(lang, len(entries) - failed - void, failed, void)
    )
