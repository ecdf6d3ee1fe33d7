"""The docstrings of ``capsa/_core.pyi`` are the extension's own
(``.ci/stub_docs.py``): the binding's Rust doc comments are their one
source, and the stub holds a copy written from them."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

from capsa import _core

REPO = Path(__file__).resolve().parent.parent


def _tool() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("ci_stub_docs", REPO / ".ci" / "stub_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


stub_docs = _tool()

STUB = '''"""The stub's own docstring."""

from typing import Final

from typing_extensions import disjoint_base

LIMIT: Final[int]
"""A constant's docstring, the stub's alone."""

def first(x: int) -> int:
    """Old text."""

@disjoint_base
class Base:
    """Old class text,
    two lines."""

    def __new__(cls, x: int) -> Base:
        """A dunder's docstring, the stub's alone."""
    @property
    def size(self) -> int: ...
    @property
    def name(self) -> str:
        """Old."""
'''

WRITTEN = '''"""The stub's own docstring."""

from typing import Final

from typing_extensions import disjoint_base

LIMIT: Final[int]
"""A constant's docstring, the stub's alone."""

def first(x: int) -> int:
    """New text: ``x``, a path with a \\\\ in it."""

@disjoint_base
class Base:
    """One line.

    A second paragraph, the closing quotes on a line of their own.
    """

    def __new__(cls, x: int) -> Base:
        """A dunder's docstring, the stub's alone."""
    @property
    def size(self) -> int:
        """The size, ending in a "quote\\""""
    @property
    def name(self) -> str:
        """Old."""
'''


class _Base:
    """
    One line.

    A second paragraph, the closing quotes on a line of their own.
    """

    @property
    def size(self) -> int:
        """The size, ending in a "quote\""""
        return 0

    @property
    def name(self) -> str:
        """Old."""
        return ""


def _first(x: int) -> int:
    return x


_first.__doc__ = "New text: ``x``, a path with a \\ in it."


def _extension() -> types.ModuleType:
    module = types.ModuleType("fake_core")
    module.__dict__.update(first=_first, Base=_Base)
    return module


def test_the_stub_docstrings_are_the_extensions() -> None:
    problems = stub_docs.check()
    assert not problems, (
        "_core.pyi's docstrings are not the extension's (edit the /// comment, rebuild, "
        "run python .ci/stub_docs.py --write):\n" + "\n".join(problems)
    )


def test_a_docstring_that_differs_is_named() -> None:
    problems = stub_docs.mismatches(STUB, _extension())
    assert problems == [
        "first: the stub's docstring is not the extension's",
        "Base: the stub's docstring is not the extension's",
        "Base.size: the extension has a docstring, the stub none",
    ]


def test_write_changes_the_docstrings_alone_and_twice_nothing() -> None:
    written = stub_docs.rewrite(STUB, _extension())
    assert written == WRITTEN
    assert stub_docs.rewrite(written, _extension()) == written
    assert stub_docs.mismatches(written, _extension()) == []


def test_the_real_stub_is_written_back_byte_for_byte() -> None:
    # the stub with one docstring of the extension's changed: writing gives
    # the stub back
    text = (REPO / "python" / "capsa" / "_core.pyi").read_bytes().decode("utf-8")
    doc = _core.Card.__doc__
    assert doc is not None and doc.splitlines()[0] in text
    changed = text.replace(doc.splitlines()[0], "A card.", 1)
    assert stub_docs.mismatches(changed, _core) == [
        "Card: the stub's docstring is not the extension's"
    ]
    assert stub_docs.rewrite(changed, _core) == text
