"""Every pair's payment as the terms of the rule text (docs/rules.md,
"Settlement"), built from the settlement's own breakdown.

Each term carries the settlement's figure (row points, overall point,
multiplier, bonus, royalties, natural points, surrender cost) and, where the
breakdown gives only a total (a foul's amount, which rows earned the
royalties), the rules' figures that make it up. The terms of an equation are
shown only when they add up to the settlement's points exactly
(:meth:`Equation.value`); otherwise the sentence names the terms without the
sum. So a sentence can never state a figure the settlement did not pay.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Union

from capsa._core import parse_cards
from capsa.render._model import ROWS, PairView, Row, SeatView, Table

__all__ = [
    "Equation",
    "Payment",
    "Phrase",
    "Term",
    "Terms",
    "foul_phrases",
    "foul_reasons",
    "payments",
    "played_out_of_order",
]


@dataclass(slots=True)
class Seat:
    """A seat, named in the page's language."""

    index: int


@dataclass(slots=True)
class RowList:
    """Row names (``top``, ``middle``, ``bottom``), joined as a list."""

    rows: tuple[str, ...]


@dataclass(slots=True)
class Word:
    """A word looked up in the page's language (``category.trips``)."""

    key: str


@dataclass(slots=True)
class Num:
    """An unsigned number."""

    value: int


@dataclass(slots=True)
class Text:
    """Text shown as it is (a card: ``♥A`` is drawn from ``Ah``)."""

    text: str


@dataclass(slots=True)
class Phrases:
    """Phrases joined as a list."""

    items: tuple[Phrase, ...]


Value = Union[Seat, RowList, Word, Num, Text, "Phrase", Phrases, "Term"]


@dataclass(slots=True)
class Phrase:
    """A template of the page's words (``say.won``) and what fills it."""

    key: str
    values: dict[str, Value] = field(default_factory=dict)


@dataclass(slots=True)
class Term:
    """One term of a payment: its template, the figure shown in it, what it
    adds (signed, from the payee's view) and, for royalties, the rows that
    earned them and a multiplier."""

    key: str
    shown: int
    value: int
    rule: str
    """The rules knob or breakdown field it comes from (shown as a tooltip)."""
    times: int = 1
    items: tuple[Phrase, ...] = ()
    less: tuple[Phrase, ...] = ()
    extra: dict[str, Value] = field(default_factory=dict)


@dataclass(slots=True)
class Equation:
    """``(base...) × multiplier + extra... = total``."""

    base: tuple[Term, ...]
    multiplier: Term | None
    extra: tuple[Term, ...]
    total: int

    def value(self) -> int:
        """What the terms add up to."""
        m = self.multiplier.value if self.multiplier else 1
        return sum(t.value for t in self.base) * m + sum(t.value * t.times for t in self.extra)


@dataclass(slots=True)
class Terms:
    """A pair's terms after its base, in the order the settlement applied
    them (docs/rules.md, "A pair's terms"), from the payee's view: the base,
    then each term (``op`` of each: ``"+"`` adds, ``"cap"`` clamps, ``"×"``
    multiplies) and the total."""

    base: int
    steps: tuple[tuple[str, Term], ...]
    total: int

    def value(self) -> int:
        """What the terms come to."""
        v = self.base
        for op, term in self.steps:
            if op == "+":
                v += term.value
            elif op == "cap":
                v = max(-term.shown, min(term.shown, v))
            else:
                v *= term.value
        return v


@dataclass(slots=True)
class Payment:
    """One pair's payment: who pays whom, why, and the terms of the amount."""

    pair: PairView
    payer: int | None
    """None when nothing changes hands."""
    payee: int | None
    points: int
    """What the payee collects (>= 0)."""
    money: int
    story: tuple[Phrase, ...]
    equation: Equation | None
    sections: tuple[str, ...]
    terms: Terms | None = None
    """The pair's terms after its base, when any changed the points and
    they come to the settlement's points."""


def _balanced(equation: Equation) -> Equation | None:
    return equation if equation.value() == equation.total else None


def _row_items(
    table: Table, pair: PairView, payee: int, payer: int, total: int
) -> tuple[tuple[Phrase, ...], tuple[Phrase, ...]]:
    """The rows whose royalties make up ``total`` (payee's, then payer's), by
    the rules' royalty mode; without rules, the mode whose rows add up."""
    seats = table.seats
    rules = table.rules
    s = 1 if payee == pair.i else -1

    def winner_rows(replace_at: int | None) -> list[tuple[int, int]]:
        found = []
        for k, result in enumerate(pair.rows):
            if result == 0:
                continue
            seat = pair.i if result == 1 else pair.j
            roy = seats[seat].rows[k].royalty
            if roy > 0 and (replace_at is None or roy > replace_at):
                found.append((seat, k))
        return found

    def every_row() -> list[tuple[int, int]]:
        return [
            (seat, k)
            for seat in (pair.i, pair.j)
            for k in range(3)
            if seats[seat].rows[k].royalty > 0
        ]

    if rules is not None:
        mode = rules["royalty_mode"]
        if mode == "winner":
            candidates = [winner_rows(None if rules["royalty_adds"] else rules["row_points"])]
        elif mode == "always":
            candidates = [every_row()]
        else:
            candidates = [[]]
    else:
        candidates = [winner_rows(None), every_row()]
    for rows in candidates:
        signed = sum(
            (1 if seat == pair.i else -1) * seats[seat].rows[k].royalty for seat, k in rows
        )
        if s * signed == total:
            return (
                tuple(_royalty_item(seats[seat], k, table) for seat, k in rows if seat == payee),
                tuple(_royalty_item(seats[seat], k, table) for seat, k in rows if seat == payer),
            )
    return (), ()


_SUIT_SIGNS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_RANK_LETTERS = "23456789TJQKA"
# categories whose key rank is their highest card, said "ace high"
_HIGH_KEYED = frozenset(("high-card", "straight", "flush", "straight-flush", "royal-flush"))


def _key_ranks(row: Row) -> list[int]:
    """The rank (2..14) a ranked royalty keys the row's hand by: the
    largest group's rank, or the highest card; a wheel offers its 5 and its
    ace, as the rules' ``wheel`` places it."""
    ranks = sorted((c.rank for c in row.cards), reverse=True)
    by_count = sorted(set(ranks), key=lambda r: (ranks.count(r), r), reverse=True)
    if sorted(ranks) == [2, 3, 4, 5, 14]:
        return [5, 14]
    return [by_count[0]]


def _ranked_royalty(table: Table, row: Row) -> int | None:
    """The key rank of a row whose royalty is the rules' ranked royalty
    (``royalties.<row>_by_rank``) and equals the row's figure, else None."""
    if table.rules is None:
        return None
    try:
        listed = table.rules[f"royalties.{row.name}_by_rank"].get(row.category, {})
    except KeyError:  # rules from before ranked royalties
        return None
    for rank in _key_ranks(row):
        if listed.get(_RANK_LETTERS[rank - 2]) == row.royalty:
            return rank
    return None


def _royalty_item(seat: SeatView, k: int, table: Table | None = None) -> Phrase:
    row = seat.rows[k]
    values: dict[str, Value] = {
        "seat": Seat(seat.index),
        "v": Num(row.royalty),
        "category": Word(f"category_a.{row.category}"),
        "row_at": Word(f"row_at.{row.name}"),
    }
    rank = _ranked_royalty(table, row) if table is not None else None
    if rank is None:
        return Phrase("term.royalty_item", values)
    if row.category in _HIGH_KEYED:
        values["rank"] = Word(f"card_rank.r{rank}")
        return Phrase("term.royalty_item_high", values)
    values["ranks"] = Word(f"rank_plural.r{rank}")
    return Phrase("term.royalty_item_rank", values)


def _rows_story(pair: PairView, payee: int, payer: int) -> list[Phrase]:
    s = 1 if payee == pair.i else -1
    mine = tuple(ROWS[k] for k, r in enumerate(pair.rows) if r * s == 1)
    theirs = tuple(ROWS[k] for k, r in enumerate(pair.rows) if r * s == -1)
    tied = tuple(ROWS[k] for k, r in enumerate(pair.rows) if r == 0)
    story: list[Phrase] = []
    scorer = pair.i if pair.scoop > 0 else pair.j
    for seat, rows in ((payee, mine), (payer, theirs)):
        if len(rows) == 3 and pair.scoop:
            key = "say.sweep_all" if pair.sweep_all else "say.scoop"
            story.append(Phrase(key, {"seat": Seat(scorer)}))
        elif len(rows) == 3:
            story.append(Phrase("say.won_all", {"seat": Seat(seat)}))
        elif rows:
            story.append(Phrase("say.won", {"seat": Seat(seat), "rows": RowList(rows)}))
    if tied:
        story.append(Phrase("say.tied", {"rows": RowList(tied)}))
    return story


def _rows(table: Table, pair: PairView, payee: int, payer: int, s: int) -> Payment:
    rules = table.rules
    m = pair.multiplier
    kind = "sweep_all" if pair.sweep_all else "scoop"
    base = [Term("term.rows", abs(s * pair.row_points), s * pair.row_points, "row_points")]
    if pair.overall:
        base.append(Term("term.overall", abs(pair.overall), s * pair.overall, "overall_point"))
    multiplier = None
    if pair.scoop and m != 1:
        multiplier = Term(f"term.{kind}_times", m, m, f"{kind}.multiplier")
    extra = []
    if pair.bonus:
        extra.append(Term(f"term.{kind}_bonus", abs(pair.bonus), s * pair.bonus, f"{kind}.bonus"))
    equation = None
    royalties = s * pair.royalties
    if royalties:
        mine, theirs = _row_items(table, pair, payee, payer, royalties)
        # without the rules, whichever multiplier of the royalties the figures show
        choices = [m if rules["scoop.multiply_royalties"] else 1] if rules is not None else [1, m]
        for roy_m in choices:
            term = Term(
                "term.royalties", abs(royalties), royalties, "royalties", roy_m, mine, theirs
            )
            equation = _balanced(Equation(tuple(base), multiplier, (*extra, term), s * pair.points))
            if equation:
                break
    else:
        equation = _balanced(Equation(tuple(base), multiplier, tuple(extra), s * pair.points))
    sections = ("rows", "sweep_all") if pair.sweep_all else ("rows",)
    return _payment(table, pair, payee, payer, _rows_story(pair, payee, payer), equation, sections)


def foul_reasons(seat: SeatView) -> list[tuple[str, tuple[str, str]]]:
    """Why a fouled seat's rows are out of order: each reason's word key and
    the two rows it names (a row above the next, or equal to it under
    ``foul_check = "strict"``), from the settlement's strengths."""
    top, middle, bottom = (row.strength for row in seat.rows)
    found = []
    if top > middle:
        found.append(("foul_reason.top_middle", ("top", "middle")))
    if middle > bottom:
        found.append(("foul_reason.middle_bottom", ("middle", "bottom")))
    if not found:
        if top == middle:
            found.append(("foul_reason.top_middle_equal", ("top", "middle")))
        if middle == bottom:
            found.append(("foul_reason.middle_bottom_equal", ("middle", "bottom")))
    return found


def played_out_of_order(seat: SeatView) -> bool:
    """Whether the seat's rows are out of order (a row above beats the row
    below it) and yet were played as they stand: the settlement reports no
    foul, no natural and no surrender (``foul.mode = "none"``)."""
    if seat.foul or seat.surrender or seat.natural is not None:
        return False
    top, middle, bottom = (row.strength for row in seat.rows)
    return top > middle or middle > bottom


def foul_phrases(seat: SeatView) -> Phrases:
    """:func:`foul_reasons` as phrases (``rows out of order`` when none is found)."""
    keys = [key for key, _ in foul_reasons(seat)] or ["foul_reason.unknown"]
    return Phrases(tuple(Phrase(k) for k in keys))


def _foul(table: Table, pair: PairView) -> Payment:
    if pair.scoop == 0:
        return _payment(table, pair, None, None, [Phrase("say.foul_both")], None, ("fouls",))
    s = pair.scoop
    payee, payer = (pair.i, pair.j) if s > 0 else (pair.j, pair.i)
    m = pair.multiplier
    values: dict[str, Value] = {
        "payer": Seat(payer),
        "payee": Seat(payee),
        "reasons": foul_phrases(table.seats[payer]),
    }
    rules = table.rules
    equation = None
    royalties = s * pair.royalties
    collector = table.seats[payee]
    rows = [k for k in range(3) if collector.rows[k].royalty > 0]
    items: tuple[Phrase, ...] = ()
    if sum(collector.rows[k].royalty for k in rows) == royalties:
        items = tuple(_royalty_item(collector, k, table) for k in rows)
    if rules is None:
        # without the rules the breakdown gives the rate and the royalties, not the amount's terms
        if m != 1:
            rate = "say.rate_sweep_all" if pair.sweep_all else "say.rate_scoop"
            values |= {"rate": Phrase(rate), "v": Num(m)}
        story = [Phrase("say.foul_one_rate" if m != 1 else "say.foul_one", values)]
        if royalties:
            term = Term("term.royalties", royalties, royalties, "royalties", 1, items)
            story.append(Phrase("say.foul_royalties", {"royalties": term}))
    else:
        story = [Phrase("say.foul_one", values)]
        rp = rules["row_points"]
        mode = rules["foul.mode"]
        base: list[Term] = []
        multiplier = None
        if mode == "fixed":
            base.append(
                Term("term.foul_fixed", rules["foul.points"], rules["foul.points"], "foul.points")
            )
        else:
            base.append(Term("term.foul_rows", rp, 3 * rp, "row_points"))
            if mode == "scoop" and rules["overall_point"]:
                op = rules["overall_point"]
                base.append(Term("term.overall", op, op, "overall_point"))
            kind = "sweep_all" if pair.sweep_all else "scoop"
            if m != 1:
                multiplier = Term(f"term.foul_{kind}_times", m, m, f"{kind}.multiplier")
        extra = []
        if pair.bonus:
            extra.append(Term("term.foul_bonus", abs(pair.bonus), s * pair.bonus, "bonus"))
        if royalties:
            roy_m = m if rules["scoop.multiply_royalties"] else 1
            extra.append(Term("term.royalties", royalties, royalties, "royalties", roy_m, items))
        equation = _balanced(Equation(tuple(base), multiplier, tuple(extra), s * pair.points))
    return _payment(table, pair, payee, payer, story, equation, ("fouls",))


def _surrender(table: Table, pair: PairView) -> Payment:
    si, sj = table.seats[pair.i].surrender, table.seats[pair.j].surrender
    if si and sj:
        return _payment(
            table, pair, None, None, [Phrase("say.surrender_both")], None, ("surrender",)
        )
    quitter, other = (pair.i, pair.j) if si else (pair.j, pair.i)
    if pair.points == 0 and table.seats[other].foul:
        story = [Phrase("say.surrender_foul", {"payer": Seat(quitter), "other": Seat(other)})]
        return _payment(table, pair, None, None, story, None, ("surrender",))
    story = [Phrase("say.surrender_one", {"payer": Seat(quitter), "payee": Seat(other)})]
    collected = abs(pair.points)
    cost = table.rules["surrender.cost"] if table.rules is not None else collected
    equation = _balanced(
        Equation((Term("term.surrender", cost, cost, "surrender.cost"),), None, (), collected)
    )
    return _payment(table, pair, other, quitter, story, equation, ("surrender",))


def _natural_term(seat: SeatView, sign: int) -> Term:
    return Term(
        "term.natural",
        seat.natural_points,
        sign * seat.natural_points,
        "naturals.enabled",
        extra={"natural": Word(f"natural.{seat.natural}")},
    )


def _natural(table: Table, pair: PairView) -> Payment:
    a, b = table.seats[pair.i], table.seats[pair.j]
    sections: tuple[str, ...] = ("naturals",)
    if a.natural is None or b.natural is None:
        holder, other = (a, b) if a.natural is not None else (b, a)
        sign = 1 if holder is a else -1
        story = [
            Phrase(
                "say.natural_one",
                {
                    "payee": Seat(holder.index),
                    "payer": Seat(other.index),
                    "natural": Word(f"natural.{holder.natural}"),
                },
            )
        ]
        equation = _balanced(Equation((_natural_term(holder, 1),), None, (), sign * pair.points))
        if holder.natural_points == 0:
            return _payment(table, pair, None, None, story, equation, sections)
        return _payment(table, pair, holder.index, other.index, story, equation, sections)
    sections = ("naturals", "natural_pair")
    if pair.points > 0 or (pair.points == 0 and a.natural != b.natural):
        payee, payer = a, b
    else:
        payee, payer = b, a
    s = 1 if payee is a else -1
    names: dict[str, Value] = {
        "payee": Seat(payee.index),
        "payer": Seat(payer.index),
        "natural": Word(f"natural.{payee.natural}"),
        "other": Word(f"natural.{payer.natural}"),
    }
    if a.natural == b.natural:
        if pair.points == 0:
            return _payment(
                table, pair, None, None, [Phrase("say.natural_push", names)], None, sections
            )
        story = [Phrase("say.natural_compare", names)]
        equation = _balanced(Equation((_natural_term(payee, 1),), None, (), s * pair.points))
        return _payment(table, pair, payee.index, payer.index, story, equation, sections)
    difference = Equation(
        (_natural_term(payee, 1), _natural_term(payer, -1)), None, (), s * pair.points
    )
    higher = Equation((_natural_term(payee, 1),), None, (), s * pair.points)
    if table.rules is not None:
        resolve = table.rules["naturals.resolve"]
        order = [difference] if resolve == "difference" else [higher]
    else:
        order = [difference, higher] if payer.natural_points else [higher]
    for equation in order:
        if equation.value() == equation.total:
            key = "say.natural_difference" if equation is difference else "say.natural_higher"
            if pair.points == 0:
                return _payment(table, pair, None, None, [Phrase(key, names)], equation, sections)
            return _payment(
                table, pair, payee.index, payer.index, [Phrase(key, names)], equation, sections
            )
    key = "say.natural_difference" if order[0] is difference else "say.natural_higher"
    return _payment(table, pair, payee.index, payer.index, [Phrase(key, names)], None, sections)


def _payment(
    table: Table,
    pair: PairView,
    payee: int | None,
    payer: int | None,
    story: list[Phrase],
    equation: Equation | None,
    sections: tuple[str, ...],
) -> Payment:
    if pair.points == 0:
        payee = payer = None
    return Payment(
        pair=pair,
        payer=payer,
        payee=payee,
        points=abs(pair.points),
        money=abs(pair.money),
        story=tuple(story),
        equation=equation,
        sections=sections,
    )


def _unplayed(table: Table, pair: PairView) -> Payment:
    values: dict[str, Value] = {"a": Seat(pair.i), "b": Seat(pair.j)}
    if table.banker is not None:
        values["banker"] = Seat(table.banker)
        story = [Phrase("say.unplayed_banker", values)]
    else:
        story = [Phrase("say.unplayed", values)]
    return _payment(table, pair, None, None, story, None, ("banker",))


def _horse_holder(table: Table, pair: PairView) -> tuple[int, str] | None:
    """The seat of the pair holding the horse card and the card, when the
    rules name it (the multiplier itself is the settlement's)."""
    if table.rules is None:
        return None
    try:
        card = parse_cards(str(table.rules["horse.card"]))[0]
    except KeyError:  # rules without a horse card
        return None
    holders = [
        k
        for k in (pair.i, pair.j)
        if any(int(c) == int(card) for row in table.seats[k].rows for c in row.cards)
    ]
    if len(holders) != 1:
        return None
    rank = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(card.rank, str(card.rank))
    return holders[0], _SUIT_SIGNS[card.suit] + rank


def _bonus_natural_term(table: Table, pair: PairView, s: int) -> Term:
    value = s * pair.natural_bonus
    a, b = table.seats[pair.i], table.seats[pair.j]
    named = [
        (seat, sign)
        for seat, sign in ((a, 1), (b, -1))
        if seat.natural is not None and sign * seat.natural_points == pair.natural_bonus
    ]
    if pair.outcome != "natural" and len(named) == 1:
        seat = named[0][0]
        extra: dict[str, Value] = {
            "seat": Seat(seat.index),
            "natural": Word(f"natural.{seat.natural}"),
        }
        return Term("term.natural_bonus", abs(value), value, "naturals.enabled", extra=extra)
    return Term("term.natural_bonus_plain", abs(value), value, "naturals.enabled")


def _terms(table: Table, pair: PairView, s: int) -> Terms | None:
    """The pair's terms after its base, in the order applied: under the
    cap's stage ``final`` the cap comes last, which the figures show when a
    multiplier applied and the points equal the cap."""
    steps: list[tuple[str, Term]] = []
    if pair.natural_bonus:
        steps.append(("+", _bonus_natural_term(table, pair, s)))
    cap = ("cap", Term("term.cap", pair.cap, pair.cap, "cap"))
    multiplied = pair.horse * pair.seat_multiplier != 1
    final = pair.cap != 0 and multiplied and abs(pair.points) == pair.cap
    if pair.cap and not final:
        steps.append(cap)
    if pair.horse != 1:
        held = _horse_holder(table, pair)
        if held is None:
            term = Term("term.horse_plain", pair.horse, pair.horse, "horse.multiplier")
        else:
            extra: dict[str, Value] = {"seat": Seat(held[0]), "card": Text(held[1])}
            term = Term("term.horse", pair.horse, pair.horse, "horse.multiplier", extra=extra)
        steps.append(("×", term))
    if pair.seat_multiplier != 1:
        player = [k for k in (pair.i, pair.j) if k != table.banker]
        if table.banker is not None and len(player) == 1:
            extra = {"seat": Seat(player[0])}
            term = Term(
                "term.seat_multiplier",
                pair.seat_multiplier,
                pair.seat_multiplier,
                "multipliers",
                extra=extra,
            )
        else:
            term = Term(
                "term.seat_multiplier_plain",
                pair.seat_multiplier,
                pair.seat_multiplier,
                "multipliers",
            )
        steps.append(("×", term))
    if final:
        steps.append(cap)
    terms = Terms(s * pair.base, tuple(steps), s * pair.points)
    return terms if terms.value() == terms.total else None


def _term_sections(pair: PairView) -> tuple[str, ...]:
    found = []
    if pair.natural_bonus:
        found.append("natural_bonus")
    if pair.cap:
        found.append("cap")
    if pair.horse != 1:
        found.append("horse")
    if pair.seat_multiplier != 1:
        found.append("banker")
    return tuple(found)


def payment(table: Table, pair: PairView) -> Payment:
    """One pair's payment (see the module docs)."""
    if pair.outcome == "unplayed":
        return _unplayed(table, pair)
    if not pair.has_terms():
        return _base_payment(table, pair)
    # the base step is told as it settled, then the terms that make the points
    based = _base_payment(table, replace(pair, points=pair.base))
    s = -1 if pair.points < 0 else 1
    payee, payer = (pair.i, pair.j) if s > 0 else (pair.j, pair.i)
    sections = based.sections + _term_sections(pair)
    paid = _payment(table, pair, payee, payer, list(based.story), based.equation, sections)
    paid.terms = _terms(table, pair, s)
    return paid


def _base_payment(table: Table, pair: PairView) -> Payment:
    if pair.outcome == "natural":
        return _natural(table, pair)
    if pair.outcome == "surrender":
        return _surrender(table, pair)
    if pair.outcome == "foul":
        return _foul(table, pair)
    s = -1 if pair.points < 0 else 1
    payee, payer = (pair.i, pair.j) if s > 0 else (pair.j, pair.i)
    return _rows(table, pair, payee, payer, s)


def payments(table: Table) -> list[Payment]:
    """Every pair's payment, in the settlement's pair order."""
    return [payment(table, pair) for pair in table.pairs]
