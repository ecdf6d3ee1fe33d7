"""The words of the showdown pages (``words.toml``), escaped once for markup."""

from __future__ import annotations

import html
import sys
from functools import cache
from importlib import resources
from typing import Any

from capsa._core import ArgumentError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["LANGUAGES", "Words", "check_lang", "dotted", "words"]

LANGUAGES = ("en", "id")
"""The languages a page can be drawn in: English and Indonesian."""


def check_lang(lang: object) -> str:
    """``lang`` itself when it is one of :data:`LANGUAGES`; else ``ArgumentError``
    (``TypeError`` when it is not a str)."""
    if not isinstance(lang, str):
        raise TypeError(f"lang is a str, one of {', '.join(LANGUAGES)}; not {type(lang).__name__}")
    if lang not in LANGUAGES:
        shown = lang if len(lang) <= 24 else lang[:21] + "..."
        raise ArgumentError(f"lang must be one of {', '.join(LANGUAGES)}, not {shown!r}")
    return lang


def dotted(table: dict[str, Any]) -> dict[str, str]:
    """A language's words file as dotted keys (``"row.top"``), each text as
    written: its sections' entries, not its top-level settings."""
    return {
        f"{section}.{key}": text
        for section, value in table.items()
        if isinstance(value, dict)
        for key, text in value.items()
    }


class Words:
    """One language's words, each escaped for HTML and SVG text.

    ``words[key]`` is the escaped text of a dotted key (``"row.top"``);
    :meth:`fill` puts escaped values into a template.
    """

    __slots__ = ("_and", "_comma", "_text", "_thousands", "lang")

    def __init__(self, lang: str, table: dict[str, Any]) -> None:
        self.lang = lang
        self._text = {k: html.escape(text, quote=False) for k, text in dotted(table).items()}
        self._and = html.escape(table["list_and"], quote=False)
        self._comma = html.escape(table["list_comma"], quote=False)
        self._thousands = table["thousands"]

    def __getitem__(self, key: str) -> str:
        return self._text[key]

    def keys(self) -> list[str]:
        """Every dotted key, sorted."""
        return sorted(self._text)

    def fill(self, key: str, **values: str) -> str:
        """The template ``key`` with ``values`` (already escaped) put in."""
        return self._text[key].format(**values)

    def number(self, value: int) -> str:
        """An integer with this language's thousands separator: ``-1,000``, ``-1.000``."""
        text = f"{abs(value):,}"
        if self._thousands != ",":
            text = text.replace(",", self._thousands)
        return "-" + text if value < 0 else text

    def signed(self, value: int) -> str:
        """An integer with its sign: ``+3,000``, ``-3,000``, ``0``."""
        return "+" + self.number(value) if value > 0 else self.number(value)

    def points(self, value: int) -> str:
        """``1 point``, ``14 points`` (the number unsigned)."""
        key = "points.one" if abs(value) == 1 else "points.other"
        return self.fill(key, v=self.number(abs(value)))

    def join(self, items: list[str]) -> str:
        """``a``, ``a and b``, ``a, b and c``."""
        if len(items) <= 1:
            return "".join(items)
        return self._comma.join(items[:-1]) + self._and + items[-1]


@cache
def _table() -> dict[str, Any]:
    text = resources.files("capsa.render").joinpath("words.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def _words(lang: str) -> Words:
    return Words(lang, _table()[lang])


def words(lang: object) -> Words:
    """The words of ``lang`` (checked: ``ArgumentError`` for another language)."""
    return _words(check_lang(lang))
