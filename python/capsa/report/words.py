"""The words of the variant report (``words.toml``), in English or
Indonesian, and the way each language writes a number.

The text is plain (not escaped): the page escapes what it writes into
HTML, and matplotlib what it writes into a chart.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from importlib import resources
from typing import Any

from capsa.render._words import LANGUAGES, check_lang, dotted

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["LANGUAGES", "ReportWords", "check_lang", "report_words"]

# a number as Python writes it in English: digits, thousands commas, a point
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


class ReportWords:
    """One language's words of the report.

    ``words["section.key"]`` is a text; :meth:`fill` puts values into a
    template; :meth:`digits` writes an English-formatted number the
    language's way ("1,234.50" is "1.234,50" in Indonesian).
    """

    __slots__ = ("_and", "_comma", "_decimal", "_text", "_thousands", "lang")

    def __init__(self, lang: str, table: dict[str, Any]) -> None:
        self.lang = lang
        self._text = dotted(table)
        self._and: str = table["list_and"]
        self._comma: str = table["list_comma"]
        self._thousands: str = table["thousands"]
        self._decimal: str = table["decimal"]

    def __getitem__(self, key: str) -> str:
        return self._text[key]

    def __contains__(self, key: object) -> bool:
        return key in self._text

    def keys(self) -> list[str]:
        """Every dotted key, sorted."""
        return sorted(self._text)

    def fill(self, key: str, **values: object) -> str:
        """The template ``key`` with ``values`` put in."""
        return self._text[key].format(**values)

    def get(self, key: str, default: str) -> str:
        """The text of ``key``, or ``default`` where there is none."""
        return self._text.get(key, default)

    def listed(self, items: list[str]) -> str:
        """Items as a list in words: "a", "a and b", "a, b and c"."""
        if len(items) <= 1:
            return "".join(items)
        return self._comma.join(items[:-1]) + self._and + items[-1]

    def digits(self, text: str) -> str:
        """``text`` with every number in it written this language's way:
        English writes "1,234.50", Indonesian "1.234,50"."""
        if self._thousands == "," and self._decimal == ".":
            return text

        def swap(m: re.Match[str]) -> str:
            return "".join(
                self._thousands if c == "," else self._decimal if c == "." else c
                for c in m.group(0)
            )

        return _NUMBER.sub(swap, text)


@cache
def _table() -> dict[str, Any]:
    data = resources.files("capsa.report").joinpath("words.toml").read_text(encoding="utf-8")
    return tomllib.loads(data)


def report_words(lang: str = "en") -> ReportWords:
    """The report's words in ``lang`` (one of :data:`LANGUAGES`). Raises
    ``capsa.ArgumentError`` (a ``ValueError``) for a language the report is
    not written in, ``TypeError`` for one that is not a str."""
    return _words(check_lang(lang))


@cache
def _words(lang: str) -> ReportWords:
    return ReportWords(lang, _table()[lang])
