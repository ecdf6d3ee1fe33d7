"""The Python modules import one way: from the command line and the tools
down to the core, with no cycle between modules.

The import graph is read from the source with ``ast``: every ``import`` and
``from ... import`` of a ``capsa`` module, absolute or relative, at the top
of a file or inside a function, under ``TYPE_CHECKING`` or not. ``from
capsa.x import name`` depends on ``capsa.x.name`` when that is a module,
else on ``capsa.x``; importing ``capsa.x.y`` is not counted as depending on
the package ``capsa.x`` (Python runs a package's ``__init__`` first either
way, and that alone is no cycle).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import capsa

ROOT = Path(capsa.__file__).resolve().parent
CORE = "capsa._core"

# What may import the command line: the ways to run it.
CLI_ENTRY_POINTS = frozenset({"capsa.__main__", "capsa.tables.__main__"})


def _module_files() -> dict[str, tuple[Path, bool]]:
    """Every module of the package: name -> (file, is a package)."""
    modules: dict[str, tuple[Path, bool]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts.pop()
        modules[".".join(parts)] = (path, package)
    return modules


def _imported(node: ast.AST, package: str) -> Iterator[str]:
    """The dotted names an import statement asks for, relative ones resolved."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            parts = package.split(".")
            base = ".".join([*parts[: len(parts) - node.level + 1], node.module or ""]).rstrip(".")
        else:
            base = node.module or ""
        for alias in node.names:
            yield f"{base}.{alias.name}"
            yield base


@cache
def import_graph() -> dict[str, frozenset[str]]:
    """Each capsa module and the capsa modules it imports."""
    files = _module_files()
    known = set(files) | {CORE}

    def owner(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, frozenset[str]] = {CORE: frozenset()}
    for module, (path, package) in files.items():
        here = module if package else module.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found: set[str] = set()
        for node in ast.walk(tree):
            names = list(_imported(node, here))
            if isinstance(node, ast.ImportFrom):
                # ("base.name", "base") pairs: the submodule when there is one
                pairs = zip(names[::2], names[1::2], strict=True)
                names = [full if full in known else base for full, base in pairs]
            for name in names:
                if name == "capsa" or name.startswith("capsa."):
                    target = name if name in known else owner(name)
                    if target is not None and target != module:
                        found.add(target)
        graph[module] = frozenset(found)
    return graph


def cycles(graph: dict[str, frozenset[str]]) -> list[frozenset[str]]:
    """The strongly connected parts of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.add(member)
                if member == node:
                    break
            if len(part) > 1:
                found.append(frozenset(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_checker_sees_relative_function_level_and_package_imports() -> None:
    graph = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset()}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]
    relative = ast.parse("from ..x import y").body[0]
    assert list(_imported(relative, "capsa.a.b")) == ["capsa.a.x.y", "capsa.a.x"]
    real = import_graph()
    assert "capsa.summary" in real["capsa.dask"]  # a top-level import
    assert "capsa.dask" in real["capsa.simulation"]  # one inside a function
    assert "capsa.render._model" in real["capsa.render._html"]
    assert CORE in real["capsa.settlement"]
    assert "capsa.render" not in real["capsa.render._html"]


def test_no_import_cycles_between_modules() -> None:
    found = cycles(import_graph())
    assert not found, f"import cycles: {[sorted(c) for c in found]}"


def test_the_command_line_is_imported_only_by_its_entry_points() -> None:
    graph = import_graph()
    for module, targets in graph.items():
        if module == "capsa.cli" or module.startswith("capsa.cli.") or module in CLI_ENTRY_POINTS:
            continue
        uses = sorted(t for t in targets if t == "capsa.cli" or t.startswith("capsa.cli."))
        assert not uses, f"{module} imports the command line: {uses}"


def test_only_the_command_line_imports_the_conformance_kit() -> None:
    graph = import_graph()
    for module, targets in graph.items():
        if module.startswith(("capsa.conformance", "capsa.cli")):
            continue
        kit = sorted(t for t in targets if t.startswith("capsa.conformance"))
        assert not kit, f"{module} imports the conformance kit: {kit}"
