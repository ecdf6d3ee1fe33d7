"""The links between the pages of many rounds: the previous and the next
round, and the page that lists them (an index or a hand history)."""

from __future__ import annotations

from dataclasses import dataclass

from capsa.render._text import esc
from capsa.render._words import Words

__all__ = ["Nav", "nav_links"]


@dataclass(frozen=True, slots=True)
class Nav:
    """Where a round's page links: the page listing it (``back``, named by
    the word key ``back_key``), the previous and next round (None at either
    end), and the round's place in the list (1 for the first)."""

    back: str
    number: int
    previous: str | None = None
    next: str | None = None
    back_key: str = "history.back"
    label_key: str = "history.nav"


def nav_links(nav: Nav, w: Words, landmark: bool = True) -> str:
    """The links as a ``<nav>`` bar (a plain one at the page's foot, not
    ``landmark``, so the page has one navigation landmark); a missing end
    is shown, not linked."""

    def link(href: str | None, key: str, rel: str) -> str:
        if href is None:
            return f'<span class="nav-off">{w[key]}</span>'
        return f'<a href="{esc(href)}" rel="{rel}">{w[key]}</a>'

    tag = "nav" if landmark else "div"
    label = f' aria-label="{w[nav.label_key]}"' if landmark else ""
    return (
        f'<{tag} class="round-nav"{label}>'
        + link(nav.previous, "history.previous", "prev")
        + f'<a href="{esc(nav.back)}">{w[nav.back_key]}</a>'
        + link(nav.next, "history.next", "next")
        + f"</{tag}>\n"
    )
