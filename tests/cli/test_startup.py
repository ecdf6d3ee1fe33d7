"""What a command loads: ``import capsa`` and ``capsa settle`` load neither
numpy nor the game objects, each command only its own modules, and the
table of command names the dispatcher reads is what the modules register.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

import pytest

import capsa
from capsa import cli


def _registered(module: str) -> set[str]:
    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers()
    importlib.import_module(f"capsa.cli.{module}").register(subparsers)
    return set(subparsers.choices)


def test_command_table_is_what_the_modules_register() -> None:
    table = {name: module for name, module in cli._COMMAND_MODULES.items()}
    registered = {name: m for m in cli._MODULES for name in _registered(m)}
    assert registered == table


def _loaded_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nprint(' '.join(sorted(sys.modules)))"
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    return set(run.stdout.split())


HEAVY = {
    "numpy",
    "capsa.round",
    "capsa.settlement",
    "capsa.render",
    "capsa.store",
    "capsa.bulk.settle",
}


def test_import_capsa_loads_no_heavy_module() -> None:
    assert not _loaded_after("import capsa") & HEAVY


def test_settle_loads_only_what_it_runs() -> None:
    code = (
        "import io, contextlib\n"
        "from capsa.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['settle', '--help']) == 0"
    )
    loaded = _loaded_after(code)
    assert not loaded & HEAVY, sorted(loaded & HEAVY)
    assert {"capsa.cli.settle", "capsa.cli.settle_stream"} <= loaded
    assert not loaded & {"capsa.cli.render", "capsa.cli.store", "capsa.cli.simulate"}


def test_help_still_lists_every_command() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "capsa", "--help"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0
    for name in cli._COMMAND_MODULES:
        assert name in run.stdout, name


def test_a_mistyped_command_names_the_choices() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "capsa", "setle"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2
    assert "settle" in run.stderr and "invalid choice" in run.stderr


@pytest.mark.parametrize("name", capsa.__all__)
def test_every_public_name_loads(name: str) -> None:
    value = getattr(capsa, name)
    assert name in dir(capsa)
    if hasattr(value, "__module__") and not isinstance(value, str | int | tuple):
        assert getattr(importlib.import_module(value.__module__), name, value) is value


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = capsa.no_such_name  # type: ignore[attr-defined]
