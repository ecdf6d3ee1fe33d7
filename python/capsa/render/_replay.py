"""The rows replayed pair by pair: each row's two hands in words, who won
it and why (the next card, the suit order, a tie), in the settlement's own
results. Each pair is a ``<details>`` element, so the replay opens and
closes without a script."""

from __future__ import annotations

from capsa.render._hands import hand_words, row_reason
from capsa.render._model import ROWS, PairView, Table
from capsa.render._text import Speaker

__all__ = ["pair_summary", "replay_section"]

_SYMBOL = {1: "+", 0: "=", -1: "−"}
_RESULT = {1: "won", 0: "tied", -1: "lost"}


def _facing(pair: PairView, seat: int) -> tuple[int, int, int]:
    """Seat ``seat``'s side of the pair and the other seat, and the sign
    turning the pair's figures (seat i's view) to ``seat``'s."""
    if pair.i == seat:
        return pair.i, pair.j, 1
    return pair.j, pair.i, -1


def _step(table: Table, speak: Speaker, me: int, them: int, k: int, result: int) -> str:
    w = speak.words
    mine, theirs = table.seats[me].rows[k], table.seats[them].rows[k]
    winner = me if result > 0 else them
    outcome = w.fill("replay.won", seat=speak.seat(winner)) if result else w["replay.tied"]
    why = row_reason(mine, theirs, result, table.rules, w)
    return (
        f'<li class="step {_RESULT[result]}" data-row="{ROWS[k]}">'
        f'<span class="row-name">{w[f"row.{ROWS[k]}"]}</span> '
        + w.fill(
            "replay.hands",
            a=speak.seat(me),
            mine=hand_words(mine, w),
            b=speak.seat(them),
            theirs=hand_words(theirs, w),
        )
        + f": <strong>{outcome}</strong>, {why}.</li>"
    )


def pair_summary(pair: PairView, seat: int, speak: Speaker) -> str:
    """A pair in one line from ``seat``'s side: the two seats, each row's
    result (or the outcome that settled the pair instead) and the points
    ``seat`` collects: "ana against budi: T+ M− B+ (+3)"."""
    w = speak.words
    me, them, sign = _facing(pair, seat)
    head = w.fill("replay.pair", a=speak.seat(me), b=speak.seat(them))
    if pair.outcome == "rows":
        marks = " ".join(
            f"{w[f'row_short.{row}']}{_SYMBOL[r * sign]}"
            for row, r in zip(ROWS, pair.rows, strict=True)
        )
    else:
        marks = w[f"outcome.{pair.outcome}"]
    return w.fill("replay.summary", head=head, marks=marks, v=w.signed(sign * pair.points))


def _pair(table: Table, speak: Speaker, pair: PairView, me: int, opened: bool) -> str:
    w = speak.words
    me, them, sign = _facing(pair, me)
    if pair.outcome != "rows":
        outcome = w[f"outcome.{pair.outcome}"]
        body = f"<p>{w.fill('replay.other', outcome=outcome)}</p>"
    else:
        results = [r * sign for r in pair.rows]
        body = (
            '<ol class="steps">'
            + "".join(_step(table, speak, me, them, k, r) for k, r in enumerate(results))
            + "</ol>"
        )
    return (
        f'<details class="replay-pair" data-pair="{pair.i}-{pair.j}"{" open" if opened else ""}>'
        f"<summary>{pair_summary(pair, me, speak)}</summary>{body}</details>"
    )


def replay_section(table: Table, speak: Speaker, seat: int | None = None) -> str:
    """The replay of every pair (``seat`` None), or of one seat's pairs from
    its side, open."""
    w = speak.words
    if seat is None:
        pairs = [(p, p.i) for p in table.pairs if p.outcome != "unplayed"]
    else:
        pairs = [(p, seat) for p in table.pairs if seat in (p.i, p.j) and p.outcome != "unplayed"]
    if not pairs:
        return ""
    items = "".join(_pair(table, speak, p, me, seat is not None) for p, me in pairs)
    return (
        f'<section class="replay">\n<h2>{w["replay.heading"]}</h2>\n'
        f'<p class="legend">{w["replay.legend"]}</p>\n{items}\n</section>\n'
    )
