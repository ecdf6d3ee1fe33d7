"""The public API is usable from ``help()`` alone.

``capsa``'s namespace holds its ``__all__`` and its submodules, nothing
else. Every name in every public module's ``__all__`` is documented: a
function, class or method by a docstring that, unless it cannot raise, says
what it raises; a constant or type alias by its module's docstring; a
class's data attributes by the class's docstring. For what the extension
defines, the text is the docstring in ``capsa/_core.pyi``, and the
extension's own docstrings (what ``help()`` shows) are that text.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
import types
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import capsa
from capsa import _core

PUBLIC_MODULES = (
    "capsa",
    "capsa.arrangement",
    "capsa.cards",
    "capsa.cli",
    "capsa.conformance",
    "capsa.ids",
    "capsa.oracle",
    "capsa.rules",
    "capsa.settlement",
    "capsa.solver",
    "capsa.store",
    "capsa.strategies",
    "capsa.tables",
)
# The submodules that may appear in capsa's namespace (once imported).
SUBMODULES = frozenset(
    {
        "_core",
        "bulk",
        "dask",
        "json_faults",
        "odds",
        "report",
        "simulation",
        "conformance",
        "ledger",
        "records",
        "render",
        "rng",
        "round",
        "sealing",
        "strategies",
        "rules_spec",
        "summary",
        *(m.split(".")[1] for m in PUBLIC_MODULES[1:]),
    }
)

# Callables that cannot raise (beyond Python's own TypeError for a wrong
# call), by where they are defined, so their docstrings need not say what
# they raise. Exception classes and properties are exempt by kind.
CANNOT_RAISE = frozenset(
    {
        "capsa.settlement.batch.BatchSettlement",  # a named tuple of the batch's results
        "capsa.ledger.data.LedgerEntry.to_dict",
        "capsa.solver.Choice",  # a frozen dataclass, built by the solver
        "capsa._core.HandValue",  # built by evaluate() only
        "capsa._core.Settlement",  # built by settle() only
        "capsa._core.Settlement.explain",
        "capsa._core.Settlement.to_dict",
        "capsa.rules.Rules.to_dict",
        "capsa.rules.Rules.to_toml",
        "capsa.cli.main",  # every failure is an exit code
        "capsa.conformance.engines.Engine.close",  # the base has nothing to stop
        # a run's findings, written out
        "capsa.conformance.verdicts.Failure.to_json",
        "capsa.conformance.inference.result.Inference.changed",
        "capsa.conformance.inference.result.Inference.summary",
        "capsa.conformance.inference.result.Inference.to_json",
        "capsa.conformance.inference.result.Inference.to_toml",
        "capsa.conformance.inference.result.Observation.to_json",
        "capsa.conformance.report.Report.matrix_text",
        "capsa.conformance.report.Report.summary",
        "capsa.conformance.report.Report.to_json",
        "capsa.rules_spec.RulesSpec.to_json",
    }
)

_RAISES = re.compile(r"\b[Rr]aises\b")
# Member kinds that carry a docstring of their own.
_DOCUMENTED_KINDS = (
    types.FunctionType,
    classmethod,
    staticmethod,
    property,
    types.GetSetDescriptorType,
    types.MethodDescriptorType,
    types.ClassMethodDescriptorType,
    types.BuiltinFunctionType,
)


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _names(text: str | None, name: str) -> bool:
    """Whether a docstring names ``name`` as code (in double backquotes)."""
    return f"``{name}``" in (text or "")


@cache
def _stub_docs() -> dict[str, str]:
    """Docstrings of _core.pyi by name: ``"settle"``, ``"Card"``, ``"Card.id"``."""
    tree = ast.parse((Path(capsa.__file__).parent / "_core.pyi").read_text(encoding="utf-8"))
    docs: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            docs[node.name] = ast.get_docstring(node) or ""
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef):
                    docs[f"{node.name}.{member.name}"] = ast.get_docstring(member) or ""
    return docs


def _core_name(obj: object) -> str | None:
    """The name in the extension of an object it defines, else None."""
    for name, value in vars(_core).items():
        if value is obj and not name.startswith("_"):
            return name
    return None


def _doc(obj: object, core_name: str | None) -> str:
    """What documents ``obj``: its stub docstring if the extension defines it."""
    if core_name is not None:
        return _stub_docs().get(core_name, "")
    return inspect.cleandoc(getattr(obj, "__doc__", None) or "")


def _public_names() -> Iterator[tuple[str, str]]:
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            yield module_name, name


PUBLIC_NAMES = [pytest.param(m, n, id=f"{m}.{n}") for m, n in _public_names()]


def test_capsa_namespace_holds_only_its_all() -> None:
    names = {n for n in dir(capsa) if not _is_dunder(n)}
    modules = {n for n in names if isinstance(getattr(capsa, n), types.ModuleType)}
    assert modules <= SUBMODULES, f"modules in capsa's namespace: {sorted(modules - SUBMODULES)}"
    public = {n for n in capsa.__all__ if not _is_dunder(n)}
    assert names - modules == public, (
        f"not in __all__: {sorted(names - modules - public)}; "
        f"in __all__ but missing: {sorted(public - names)}"
    )
    assert "__version__" in capsa.__all__
    assert isinstance(capsa.__version__, str)


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_all_lists_names_the_module_has(module_name: str) -> None:
    module = importlib.import_module(module_name)
    assert module.__doc__, f"{module_name} has no docstring"
    assert len(set(module.__all__)) == len(module.__all__), f"{module_name}.__all__ repeats"
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert not missing, f"{module_name}.__all__ names what it lacks: {missing}"


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_no_public_name_of_a_package_is_also_one_of_its_submodules(module_name: str) -> None:
    # Importing a submodule binds its name in the package, replacing whatever
    # the package exported under that name: which one a user gets would
    # depend on what was imported first.
    module = importlib.import_module(module_name)
    submodules = {m.name for m in pkgutil.iter_modules(getattr(module, "__path__", []))}
    clashing = sorted(submodules & set(module.__all__))
    assert not clashing, f"{module_name} exports names of its submodules: {clashing}"


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_public_module_imports_first_in_a_fresh_interpreter(module_name: str) -> None:
    # capsa.strategies imports Hypothesis, which calls capsa's entry point
    # into capsa.strategies while that import is still running.
    code = f"import {module_name}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, f"{code}: {done.stderr.strip().splitlines()[-1:]}"


def _home(obj: Any, core_name: str | None) -> str:
    """Where ``obj`` is defined: ``capsa.rules.Rules``, ``capsa._core.settle``."""
    if core_name is not None:
        return f"capsa._core.{core_name}"
    return f"{obj.__module__}.{obj.__qualname__}"


def _check_documented(home: str, doc: str, *, may_raise: bool) -> None:
    assert doc.strip(), f"{home} has no docstring"
    if may_raise and home not in CANNOT_RAISE:
        assert _RAISES.search(doc), f"{home}: the docstring does not say what it raises"


def _data_members(cls: type) -> Iterator[str]:
    """Public attributes of ``cls`` without a docstring of their own."""
    for name, value in vars(cls).items():
        if not name.startswith("_") and not isinstance(value, _DOCUMENTED_KINDS):
            yield name
    if dataclasses.is_dataclass(cls):
        yield from (f.name for f in dataclasses.fields(cls))


def _documented_members(cls: type) -> Iterator[tuple[str, Any]]:
    """Public methods and properties of ``cls`` (defined on it, not inherited)."""
    for name, value in vars(cls).items():
        if not name.startswith("_") and isinstance(value, _DOCUMENTED_KINDS):
            yield name, value


def _member_doc(value: Any, core_name: str | None, name: str) -> str:
    if core_name is not None:
        return _stub_docs().get(f"{core_name}.{name}", "")
    function = value.__func__ if isinstance(value, classmethod | staticmethod) else value
    return inspect.cleandoc(function.__doc__ or "")


@pytest.mark.parametrize(("module_name", "name"), PUBLIC_NAMES)
def test_every_public_name_is_documented(module_name: str, name: str) -> None:
    module = importlib.import_module(module_name)
    obj = getattr(module, name)
    qualified = f"{module_name}.{name}"
    if not (inspect.isclass(obj) or callable(obj)):
        assert _names(module.__doc__, name), f"{module_name}'s docstring does not name {name}"
        return
    core_name = _core_name(obj)
    home = _home(obj, core_name)
    exception = inspect.isclass(obj) and issubclass(obj, BaseException)
    _check_documented(home, _doc(obj, core_name), may_raise=not exception)
    if not inspect.isclass(obj):
        return
    for member, value in _documented_members(obj):
        may_raise = not isinstance(value, property | types.GetSetDescriptorType)
        doc = _member_doc(value, core_name, member)
        _check_documented(f"{home}.{member}", doc, may_raise=may_raise)
    class_doc = _doc(obj, core_name)
    for member in _data_members(obj):
        assert _names(class_doc, member), f"{qualified}: the class docstring does not name {member}"


def _extension_objects() -> Iterator[tuple[str, Any]]:
    """(name in _core.pyi, object) for what the extension defines that a
    public ``__all__`` lists, and the methods and properties of its classes."""
    seen: set[str] = set()
    for module_name, name in _public_names():
        obj = getattr(importlib.import_module(module_name), name)
        core_name = _core_name(obj)
        if core_name is None or core_name in seen or not (inspect.isclass(obj) or callable(obj)):
            continue
        seen.add(core_name)
        yield core_name, obj
        if inspect.isclass(obj):
            for member, value in _documented_members(obj):
                yield f"{core_name}.{member}", value


# Sorted so every pytest-xdist worker collects the same list in the same order.
EXTENSION_OBJECTS = [
    pytest.param(name, obj, id=name)
    for name, obj in sorted(_extension_objects(), key=lambda item: item[0])
]


def _paragraphs(doc: str) -> list[str]:
    """A docstring's paragraphs, each with its line breaks and runs of spaces
    made one space: the text, whatever its wrapping."""
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", inspect.cleandoc(doc).strip())]


@pytest.mark.parametrize(("name", "obj"), EXTENSION_OBJECTS)
def test_the_extension_shows_the_stub_docstrings(name: str, obj: Any) -> None:
    shown = _paragraphs(getattr(obj, "__doc__", None) or "")
    assert shown == _paragraphs(_stub_docs()[name]), (
        f"help(capsa.{name}) shows another text than _core.pyi"
    )


def test_the_extension_objects_are_found() -> None:
    found = {name for name, _ in _extension_objects()}
    assert {"settle", "evaluate", "Card", "Card.id", "Settlement.explain"} <= found


def test_the_version_is_cargos_alone() -> None:
    """One version: the Cargo workspace's, which every crate takes, the
    extension reports and maturin writes into the package's metadata;
    pyproject.toml names none."""
    import importlib.metadata
    import sys
    from pathlib import Path

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    root = Path(__file__).resolve().parent.parent
    cargo = tomllib.loads((root / "Cargo.toml").read_text(encoding="utf-8"))["workspace"]["package"]
    for crate in ("capsa-core", "capsa-records", "capsa-python"):
        manifest = (root / "crates" / crate / "Cargo.toml").read_text(encoding="utf-8")
        assert tomllib.loads(manifest)["package"]["version"] == {"workspace": True}, crate
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert capsa.__version__ == cargo["version"] == importlib.metadata.version("capsa")
