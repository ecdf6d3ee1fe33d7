"""Text of a page: escaping, seat names, and every payment as sentences."""

from __future__ import annotations

import html
import re

from capsa.render._model import Table
from capsa.render._payments import (
    Equation,
    Num,
    Payment,
    Phrase,
    Phrases,
    RowList,
    Seat,
    Term,
    Terms,
    Text,
    Value,
    Word,
)
from capsa.render._words import Words

__all__ = ["Speaker", "esc", "ident", "unbroken"]


def _visible(char: str) -> str:
    if char.isprintable():
        return char
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def esc(text: str) -> str:
    """Text from outside capsa (a round id, a seat name, a rules name, an error
    message) made safe for HTML and SVG: markup escaped, and every character
    that is not printable (controls, bidi overrides, lone surrogates, ...)
    shown as ``\\uXXXX``."""
    if not text.isprintable():
        text = "".join(map(_visible, text))
    return html.escape(text, quote=True)


# a run of text without spaces that a browser could break inside (after a
# hyphen, a slash, ...): kept on one line
_BREAKABLE = re.compile(r"[^\s<>]*[^\w\s<>&;](?=[^\s<>])[^\s<>]*")
# text longer than this may not fit its line on a phone; its box, which
# scrolls, then takes the keyboard focus so that it can be scrolled
_SCROLL_CHARS = 16


def unbroken(text: str) -> str:
    """Escaped text whose words are never split over two lines: a word a
    browser may break (``sweep-all``, ``t-1/r-2``) is kept whole, and the text
    wraps only at spaces."""
    return _BREAKABLE.sub(lambda m: f'<span class="w">{m.group()}</span>', text)


def ident(text: str, kind: str = "") -> str:
    """A name or an id from outside capsa, escaped, as a box of its own that
    wraps at spaces and scrolls when a word is longer than its line."""
    shown = esc(text)
    focus = ' tabindex="0"' if len(text) > _SCROLL_CHARS else ""
    cls = f' class="{kind}"' if kind else ""
    return f"<bdi{cls}{focus}>{unbroken(shown)}</bdi>"


class Speaker:
    """Turns a table's phrases and payments into text of one language.

    ``markup`` wraps seat names in ``<bdi>`` and terms in spans (HTML);
    without it the text is plain, still escaped (SVG).
    """

    def __init__(self, words: Words, table: Table, markup: bool = True) -> None:
        self.words = words
        self.markup = markup
        self.names = [
            esc(seat.name) if seat.name is not None else words.fill("seat.name", v=str(seat.index))
            for seat in table.seats
        ]
        self._boxes = [
            ident(seat.name) if seat.name is not None else f"<bdi>{name}</bdi>"
            for seat, name in zip(table.seats, self.names, strict=True)
        ]

    def seat(self, index: int) -> str:
        """A seat's name, escaped."""
        name = self.names[index]
        if not self.markup:
            return name
        return self._boxes[index]

    def value(self, value: Value) -> str:
        w = self.words
        if isinstance(value, Seat):
            return self.seat(value.index)
        if isinstance(value, Num):
            return w.number(value.value)
        if isinstance(value, Word):
            return w[value.key]
        if isinstance(value, RowList):
            return w.join([w[f"row.{r}"] for r in value.rows])
        if isinstance(value, Phrases):
            return w.join([self.phrase(p) for p in value.items])
        if isinstance(value, Term):
            return self.term(value)
        if isinstance(value, Text):
            return esc(value.text)
        return self.phrase(value)

    def phrase(self, phrase: Phrase) -> str:
        """A phrase's text."""
        values = {k: self.value(v) for k, v in phrase.values.items()}
        return self.words.fill(phrase.key, **values)

    def term(self, term: Term) -> str:
        """A term's text (its figure unsigned), with the rows of royalties."""
        w = self.words
        values = {k: self.value(v) for k, v in term.extra.items()}
        text = w.fill(term.key, v=w.number(term.shown), **values)
        items = [self.phrase(p) for p in term.items]
        items += [w.fill("term.royalty_less", item=self.phrase(p)) for p in term.less]
        if items:
            text += " (" + w.join(items) + ")"
        if term.times != 1:
            text += " " + w.fill("term.times", v=w.number(term.times))
        if self.markup:
            return f'<span class="term" title="{term.rule}">{text}</span>'
        return text

    def _sum(self, terms: tuple[Term, ...], first: bool) -> str:
        out = []
        for k, term in enumerate(terms):
            text = self.term(term)
            if first and k == 0:
                out.append("−" + text if term.value < 0 else text)
            else:
                out.append((" − " if term.value < 0 else " + ") + text)
        return "".join(out)

    def equation(self, equation: Equation) -> str:
        """``terms = total``; a single term stands alone."""
        text = self._sum(equation.base, first=True)
        if equation.multiplier is not None:
            if len(equation.base) > 1:
                text = f"({text})"
            text += " " + self.term(equation.multiplier)
        text += self._sum(equation.extra, first=False)
        if len(equation.base) + len(equation.extra) > 1 or equation.multiplier is not None:
            text += " = " + self.words.number(equation.total)
        return text

    def terms(self, terms: Terms) -> str:
        """``in all, base, then + term, then × term, ..., making total``."""
        w = self.words
        steps = []
        for op, term in terms.steps:
            text = self.term(term)
            if op == "+":
                text = ("− " if term.value < 0 else "+ ") + text
            steps.append(w["term.then"] + text)
        base = ("−" if terms.base < 0 else "") + w.number(abs(terms.base))
        return w.fill("say.terms", base=base, steps="".join(steps), total=w.number(terms.total))

    def head(self, payment: Payment) -> str:
        """``B pays A 14 points (1,400 at a stake of 100).`` or ``A and B are even: ...``."""
        w = self.words
        pair = payment.pair
        if pair.outcome == "unplayed":
            return w.fill("say.apart", a=self.seat(pair.i), b=self.seat(pair.j))
        if payment.payer is None or payment.payee is None:
            return w.fill("say.even", a=self.seat(pair.i), b=self.seat(pair.j))
        return w.fill(
            "say.pays",
            payer=self.seat(payment.payer),
            payee=self.seat(payment.payee),
            points=w.points(payment.points),
            money=w.number(payment.money),
            stake=w.number(pair.stake),
        )

    def story(self, payment: Payment) -> str:
        """Why, as one sentence (capitalised, without its full stop)."""
        text = "; ".join(self.phrase(p) for p in payment.story)
        # a sentence that starts with a name (a seat's, a natural's) keeps it as written
        if payment.story and self.words[payment.story[0].key].startswith("{"):
            return text
        return text[:1].upper() + text[1:]

    def sections(self, payment: Payment) -> str:
        """The rules the payment follows, by name (with markup each links to
        its sentence in the page's list of rules)."""
        w = self.words
        names = [w[f"rule_name.{s}"] for s in payment.sections]
        if self.markup:
            names = [
                f'<a href="#rule-{s}">{name}</a>'
                for s, name in zip(payment.sections, names, strict=True)
            ]
        key = "page.rule" if len(names) == 1 else "page.rules_ref"
        return w.fill(key, names=w.join(names))

    def sentence(self, payment: Payment) -> str:
        """The whole payment as plain text."""
        text = self.head(payment) + " " + self.story(payment)
        if payment.equation is not None:
            text += ": " + self.equation(payment.equation)
        if payment.terms is not None:
            text += "; " + self.terms(payment.terms)
        return text + "."
