"""The docstrings of ``python/capsa/_core.pyi``, written from the extension.

The binding's Rust doc comments (``///`` in ``crates/capsa-python``) are the
one source of every ``capsa._core`` docstring: they are what ``help()``
shows. The stub repeats them for editors and type checkers; this tool keeps
that copy equal to the extension's.

``python .ci/stub_docs.py --check`` names every function, class, method and
property of the stub whose docstring is not the extension's ``__doc__``
(cleaned as ``inspect.cleandoc`` cleans it), or that has none where the
extension has one, and exits 1 if there is any. ``--write`` rewrites those
docstrings in place and leaves every other byte of the stub as it is.
Both import the built ``capsa._core``: rebuild after editing a doc comment.

Not written from the extension, as it cannot carry them: the module's own
docstring, those of the constants and type aliases, and those of dunder
methods (whose ``__doc__`` is CPython's, not the binding's).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

STUB = Path(__file__).resolve().parent.parent / "python" / "capsa" / "_core.pyi"
MODULE = "capsa._core"

__all__ = ["Item", "check", "main", "mismatches", "rewrite", "stub_items"]


class Item(NamedTuple):
    """One documented definition of the stub: ``name`` as ``"settle"`` or
    ``"Card.id"``; ``node`` its ``def`` or ``class`` (an overloaded function
    is one item per ``def``)."""

    name: str
    node: ast.FunctionDef | ast.ClassDef


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def stub_items(tree: ast.Module) -> Iterator[Item]:
    """The stub's functions, classes, and their methods and properties, in
    the order written; dunder methods are left out."""
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.ClassDef):
            continue
        yield Item(node.name, node)
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef) and not _is_dunder(member.name):
                    yield Item(f"{node.name}.{member.name}", member)


def runtime_doc(module: ModuleType, name: str) -> str | None:
    """The extension's docstring of ``name``, cleaned, or None. A member's is
    read from its class's own namespace, so that nothing is inherited."""
    owner, _, member = name.partition(".")
    obj = getattr(module, owner, None)
    if member:
        obj = vars(obj).get(member) if isinstance(obj, type) else None
    doc = getattr(obj, "__doc__", None) if obj is not None else None
    if not isinstance(doc, str) or not doc.strip():
        return None
    return inspect.cleandoc(doc)


def _docstring(node: ast.FunctionDef | ast.ClassDef) -> ast.Expr | None:
    first = node.body[0] if node.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first
    return None


def mismatches(text: str, module: ModuleType) -> list[str]:
    """What differs between the stub's text and ``module``'s docstrings: one
    line per item, naming it."""
    problems: list[str] = []
    for item in stub_items(ast.parse(text)):
        wanted = runtime_doc(module, item.name)
        written = ast.get_docstring(item.node)
        if wanted == written:
            continue
        if wanted is None:
            problems.append(f"{item.name}: the stub has a docstring, the extension none")
        elif written is None:
            problems.append(f"{item.name}: the extension has a docstring, the stub none")
        else:
            problems.append(f"{item.name}: the stub's docstring is not the extension's")
    return list(dict.fromkeys(problems))  # an overloaded function once


def _literal(doc: str, indent: str) -> str:
    """``doc`` as the stub writes a docstring at ``indent``: the text from the
    opening quotes on, continuation lines indented, the closing quotes on a
    line of their own when the text has more than one paragraph."""
    if '"""' in doc:
        raise ValueError(f"a docstring holds three double quotes: {doc[:60]!r}")
    body = doc.replace("\\", "\\\\")
    if body.endswith('"'):
        body = body[:-1] + '\\"'
    lines = [f"{indent}{line}" if line else "" for line in body.split("\n")]
    lines[0] = lines[0][len(indent) :]
    if "\n\n" in doc:
        lines.append(indent)
    return '"""' + "\n".join(lines) + '"""'


def _offset(starts: list[int], line: int, col: int, text: str) -> int:
    """The character offset of an ``ast`` position (1-based line, UTF-8 byte
    column) in ``text``."""
    start = starts[line - 1]
    end = text.find("\n", start)
    line_text = text[start : len(text) if end < 0 else end]
    return start + len(line_text.encode("utf-8")[:col].decode("utf-8"))


def rewrite(text: str, module: ModuleType) -> str:
    """The stub's text with every item's docstring the extension's; an item
    the extension gives no docstring keeps the stub's."""
    starts = [0]
    for i, char in enumerate(text):
        if char == "\n":
            starts.append(i + 1)
    edits: list[tuple[int, int, str]] = []
    for item in stub_items(ast.parse(text)):
        wanted = runtime_doc(module, item.name)
        if wanted is None or wanted == ast.get_docstring(item.node):
            continue
        node = _docstring(item.node) or item.node.body[0]
        begin = _offset(starts, node.lineno, node.col_offset, text)
        end = _offset(starts, node.end_lineno or node.lineno, node.end_col_offset or 0, text)
        if node is _docstring(item.node):
            literal = _literal(wanted, " " * node.col_offset)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            # a body of ``...`` on the ``def`` line: the docstring replaces it
            indent = " " * (item.node.col_offset + 4)
            literal = "\n" + indent + _literal(wanted, indent)
            begin = text.rindex(":", 0, begin) + 1
        else:
            raise ValueError(f"{item.name}: a body the stub does not write")
        edits.append((begin, end, literal))
    for begin, end, literal in sorted(edits, reverse=True):
        text = text[:begin] + literal + text[end:]
    return text


def check(stub: Path = STUB) -> list[str]:
    """The items of ``stub`` whose docstrings are not the extension's."""
    return mismatches(stub.read_bytes().decode("utf-8"), importlib.import_module(MODULE))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="name what differs, exit 1 if any")
    mode.add_argument("--write", action="store_true", help="rewrite the stub's docstrings")
    parser.add_argument("--stub", type=Path, default=STUB, help="the stub (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.write:
        text = args.stub.read_bytes().decode("utf-8")
        written = rewrite(text, importlib.import_module(MODULE))
        if written != text:
            args.stub.write_bytes(written.encode("utf-8"))
    problems = check(args.stub)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(
            f"{len(problems)} docstrings of {args.stub.name} differ from {MODULE}'s",
            file=sys.stderr,
        )
        if args.check:
            print(
                "edit the /// comment, rebuild, run python .ci/stub_docs.py --write",
                file=sys.stderr,
            )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
