"""The conformance kit uses capsa's public API alone.

``capsa.conformance`` is to ship one day as a distribution of its own, so
every import of capsa it makes names a public module and a name in that
module's ``__all__``: no ``capsa._core``, no module or name starting with
``_``, no module inside a package (``capsa.rules.checks``) and no top-level
module that is not part of the public API (``capsa.rules_spec``). Its data
files are read relative to its own package.
"""

from __future__ import annotations

import ast
import importlib
import importlib.resources
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import capsa
import capsa.conformance

KIT = "capsa.conformance"
KIT_DIR = Path(capsa.conformance.__file__).parent

# The modules users are told to import from (README.md, docs/api.md and the
# other pages of docs/): the kit may import these and nothing else of capsa.
PUBLIC_MODULES = frozenset(
    {
        "capsa",
        "capsa.arrangement",
        "capsa.bulk",
        "capsa.cards",
        "capsa.ids",
        "capsa.ledger",
        "capsa.oracle",
        "capsa.records",
        "capsa.round",
        "capsa.rules",
        "capsa.settlement",
        "capsa.solver",
        "capsa.strategies",
    }
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(KIT_DIR).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((KIT, *parts))


def _kit_files() -> list[Path]:
    return sorted(KIT_DIR.rglob("*.py"))


def _is_kit(module: str) -> bool:
    return module == KIT or module.startswith(KIT + ".")


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The dotted name ``from ... import`` names, relative imports resolved."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def _module_fault(module: str) -> str | None:
    """Why importing ``module`` reaches past capsa's public API, or None."""
    if module != "capsa" and not module.startswith("capsa."):
        return None
    if _is_kit(module):
        hidden = [p for p in module.split(".") if p.startswith("_") and p != "__init__"]
        return f"the kit's module {module} starts with _" if hidden else None
    if any(part.startswith("_") for part in module.split(".")):
        return f"{module} is private"
    if module not in PUBLIC_MODULES:
        return f"{module} is not a public module of capsa"
    return None


def _name_fault(module: str, name: str) -> str | None:
    """Why ``from module import name`` reaches past the public API, or None."""
    if _is_kit(module) or not (module == "capsa" or module.startswith("capsa.")):
        return None
    if f"{module}.{name}" in PUBLIC_MODULES:
        return None
    public = importlib.import_module(module).__all__
    dunder = name.startswith("__") and name.endswith("__")
    if name.startswith("_") and not (dunder and name in public):
        return f"{module}.{name} is private"
    if name not in public:
        return f"{name} is not in {module}.__all__"
    return None


def _faults(path: Path) -> Iterator[str]:
    where = str(path.relative_to(KIT_DIR.parent.parent))
    text = path.read_text(encoding="utf-8")
    yield from _faults_of(text, _module_name(path), path.name == "__init__.py", where)


def _faults_of(text: str, module: str, is_package: bool, where: str) -> Iterator[str]:
    """Every reach past the public API in ``text``, the source of ``module``,
    as ``where:line: what: why``."""
    tree = ast.parse(text, filename=where)
    # Names bound to a capsa module by `import capsa...`, for attribute reaches.
    modules: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                fault = _module_fault(alias.name)
                if fault:
                    yield f"{where}:{node.lineno}: import {alias.name}: {fault}"
                bound = alias.asname or alias.name.split(".")[0]
                modules[bound] = alias.name if alias.asname else bound
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(node, module, is_package)
            fault = _module_fault(source)
            if fault:
                yield f"{where}:{node.lineno}: from {source} import ...: {fault}"
                continue
            for alias in node.names:
                fault = _name_fault(source, alias.name)
                if fault:
                    yield f"{where}:{node.lineno}: from {source} import {alias.name}: {fault}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            source = modules.get(node.value.id)
            if source is None or _is_kit(source) or not source.startswith("capsa"):
                continue
            fault = _name_fault(source, node.attr) if not node.attr.startswith("__") else None
            if fault:
                yield f"{where}:{node.lineno}: {node.value.id}.{node.attr}: {fault}"


def test_the_kit_imports_only_capsas_public_api() -> None:
    faults = [fault for path in _kit_files() for fault in _faults(path)]
    assert not faults, "the kit reaches past capsa's public API:\n" + "\n".join(faults)


@pytest.mark.parametrize("module", sorted(PUBLIC_MODULES))
def test_every_module_the_kit_may_import_is_public(module: str) -> None:
    imported = importlib.import_module(module)
    assert imported.__doc__, module
    assert all(not name.startswith("_") or name == "__version__" for name in imported.__all__)


def test_the_check_finds_a_private_reach() -> None:
    """The check itself: each kind of reach is named, with its line."""
    text = (
        "import capsa\n"
        "from capsa import _core\n"
        "from capsa._core import card_ids\n"
        "from capsa.rules.checks import LEGACY_KNOBS\n"
        "from capsa.rules_spec import RulesSpec\n"
        "from capsa import no_such_name\n"
        "from capsa.rules import Rules\n"
        "from ..json_faults import json_fault\n"
        "from .protocol import Case\n"
        "x = capsa._core\n"
    )
    faults = list(_faults_of(text, "capsa.conformance.probe", False, "probe.py"))
    lines = [int(f.split(":")[1]) for f in faults]
    assert lines == [2, 3, 4, 5, 6, 8, 10], faults


def test_the_kits_data_files_are_read_from_its_own_package() -> None:
    """The schema and vectors are package data of ``capsa.conformance``,
    found with ``importlib.resources`` (as a separate distribution finds them)."""
    from capsa.conformance import schema, shipped_dir

    data = importlib.resources.files(KIT)
    assert data.joinpath("schema", "vector.json").is_file()
    assert data.joinpath("vectors", "compare.jsonl").is_file()
    assert Path(str(shipped_dir())) == Path(str(data.joinpath("vectors")))
    assert schema("vector")
    kit_text = "\n".join(p.read_text(encoding="utf-8") for p in _kit_files())
    assert "capsa.__file__" not in kit_text
    assert 'files("capsa")' not in kit_text and "files('capsa')" not in kit_text


def test_the_kit_names_the_capsa_api_it_needs() -> None:
    """The package docstring names the capsa release whose public API the
    kit needs, one this capsa is (or is later than)."""
    doc = " ".join((capsa.conformance.__doc__ or "").split())
    needed = re.search(r"public API of capsa (\d+)\.(\d+)\.(\d+) or later", doc)
    assert needed, "the kit's docstring names no capsa release"
    have = tuple(int(part) for part in capsa.__version__.split(".")[:3])
    assert have >= tuple(int(part) for part in needed.groups())
    for name in re.findall(r"``capsa\.([A-Za-z]\w*)``", doc):
        assert name in capsa.__all__, name


# The kit keeps its own copy of a few small pieces of capsa's internals;
# each copy must say what capsa says.


def test_the_kits_legacy_claims_are_the_legacy_knobs_of_rules_files() -> None:
    from capsa.conformance.claims import LEGACY_CLAIMS
    from capsa.rules.checks import LEGACY_KNOBS

    assert LEGACY_CLAIMS == LEGACY_KNOBS


@pytest.mark.parametrize(
    "value",
    [True, 0, -3, 2**63 - 1, "", "pagat", 'a "q"\\\n\t\x00\x7f', [], [1, "x"], {}, {"a b": [1]}],
)
def test_the_kits_toml_text_is_the_rules_writers(value: object) -> None:
    from capsa.conformance.inference.toml_text import toml_key, toml_value
    from capsa.rules import writer

    assert toml_value(value) == writer.toml_value(value)
    if isinstance(value, str):
        assert toml_key(value) == writer.toml_key(value)


def test_the_kits_json_faults_are_capsas() -> None:
    from capsa.conformance.serve import _json_fault
    from capsa.json_faults import json_fault

    too_long = "9" * 10_000
    faults: list[ValueError | RecursionError] = [RecursionError("deep")]
    for text in ("{", too_long):
        try:
            json.loads(text)
        except ValueError as exc:
            faults.append(exc)
    assert len(faults) == 3
    for exc in faults:
        assert _json_fault(exc) == json_fault(exc)
