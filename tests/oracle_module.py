"""The pure-Python oracle loaded by its path alone, as a module of its own
(not ``capsa.oracle``), so that its tests do not go through the package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ORACLE_PATH = Path(__file__).resolve().parents[1] / "python" / "capsa" / "oracle.py"


def load_oracle() -> ModuleType:
    """The oracle module, loaded once from ``ORACLE_PATH``."""
    name = "capsa_oracle_standalone"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ORACLE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
