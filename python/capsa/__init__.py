"""capsa: the Capsa Susun / Chinese poker engine.

Hand ranking, every legal split, naturals, settlement and arranging, with a
Rust core. See ``docs/rules.md`` for the rules data and decisions.

Cards are taken everywhere as text (``"As Kd 10h 7♣"``: rank then suit,
spaces or commas, either case), as lists (or other iterables) of ``Card``
objects, integer ids 0..51 (``id = 4 * (rank - 2) + suit``, d=0 c=1 h=2
s=3) or one-card texts; the batch calls take numpy integer arrays of ids.
``rules`` is a ``Rules`` or None (the ``capsa-susun`` preset). A bad value
raises a ``CapsaError`` subclass (``CardError``, ``HandError``,
``RulesError``, ``TableError``, ``ArgumentError``; all ``ValueError``), a
wrong Python type ``TypeError``.

Constants: ``CATEGORIES``, the eleven category names weakest first (a
strength's category is ``CATEGORIES[strength >> 28]``; the last,
five-of-a-kind, needs a deck with copies or jokers); ``NATURAL_NAMES``,
the twenty naturals (bit i of a ``naturals_batch`` bit set is
``NATURAL_NAMES[i]``; the last four need a deck with copies);
``__version__``, the package version.

Submodules: ``capsa.cards``, ``capsa.rules``, ``capsa.arrangement``,
``capsa.settlement``, ``capsa.solver`` (arranging), ``capsa.tables`` (the
solver's tables), ``capsa.ids`` (the rule for ids and names),
``capsa.oracle`` (the pure-Python reference) and ``capsa.cli`` (the
command line).
"""

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from capsa._core import (
    CATEGORIES,
    NATURAL_NAMES,
    ArgumentError,
    CapsaError,
    Card,
    CardError,
    HandError,
    HandValue,
    RulesError,
    TableError,
    compare,
    count_splits,
    count_splits_batch,
    evaluate,
    evaluate_batch,
    natural,
    naturals,
    naturals_batch,
    parse_cards,
    played_cards,
    splits,
)
from capsa._core import __version__ as _core_version

if TYPE_CHECKING:
    from capsa.arrangement import Arrangement
    from capsa.cards import deal, format_cards
    from capsa.ledger import Ledger, LedgerEntry
    from capsa.records import (
        RecordError,
        ReplayError,
        SettlementVersionError,
        SolverMismatchError,
        replay,
        verify_deal,
    )
    from capsa.round import Round, RoundError, StaleStateError
    from capsa.rules import Rules, presets
    from capsa.rules_spec import RulesSpec
    from capsa.settlement import (
        BatchSettlement,
        Seat,
        Settlement,
        settle,
        settle_batch,
        settle_json_lines,
    )
    from capsa.simulation import Summary, simulate
    from capsa.solver import Choice, best_arrangement, best_arrangement_batch, rank_arrangements

__version__: str = _core_version

__all__ = [
    "CATEGORIES",
    "NATURAL_NAMES",
    "ArgumentError",
    "Arrangement",
    "BatchSettlement",
    "CapsaError",
    "Card",
    "CardError",
    "Choice",
    "HandError",
    "HandValue",
    "Ledger",
    "LedgerEntry",
    "RecordError",
    "ReplayError",
    "Round",
    "RoundError",
    "Rules",
    "RulesError",
    "RulesSpec",
    "Seat",
    "Settlement",
    "SettlementVersionError",
    "SolverMismatchError",
    "StaleStateError",
    "Summary",
    "TableError",
    "__version__",
    "best_arrangement",
    "best_arrangement_batch",
    "compare",
    "count_splits",
    "count_splits_batch",
    "deal",
    "evaluate",
    "evaluate_batch",
    "format_cards",
    "natural",
    "naturals",
    "naturals_batch",
    "parse_cards",
    "played_cards",
    "presets",
    "rank_arrangements",
    "replay",
    "settle",
    "settle_batch",
    "settle_json_lines",
    "simulate",
    "splits",
    "verify_deal",
]

# The names below load their module on first use, so that ``import capsa``
# (and every ``capsa`` command) pays only for the parts it runs.
_LAZY_NAMES: dict[str, str] = {
    "Arrangement": "capsa.arrangement",
    "deal": "capsa.cards",
    "format_cards": "capsa.cards",
    "Ledger": "capsa.ledger",
    "LedgerEntry": "capsa.ledger",
    "RecordError": "capsa.records",
    "ReplayError": "capsa.records",
    "SettlementVersionError": "capsa.records",
    "SolverMismatchError": "capsa.records",
    "replay": "capsa.records",
    "verify_deal": "capsa.records",
    "Round": "capsa.round",
    "RoundError": "capsa.round",
    "StaleStateError": "capsa.round",
    "Rules": "capsa.rules",
    "presets": "capsa.rules",
    "RulesSpec": "capsa.rules_spec",
    "BatchSettlement": "capsa.settlement",
    "Seat": "capsa.settlement",
    "Settlement": "capsa.settlement",
    "settle": "capsa.settlement",
    "settle_batch": "capsa.settlement",
    "settle_json_lines": "capsa.settlement",
    "Summary": "capsa.simulation",
    "simulate": "capsa.simulation",
    "Choice": "capsa.solver",
    "best_arrangement": "capsa.solver",
    "best_arrangement_batch": "capsa.solver",
    "rank_arrangements": "capsa.solver",
}


def __getattr__(name: str) -> object:
    module = _LAZY_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'capsa' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names, every one whether loaded yet or not, the
    submodules loaded so far and the dunders."""
    names = set(__all__)
    for name, value in globals().items():
        submodule = isinstance(value, ModuleType) and value.__name__.startswith("capsa.")
        if submodule or name.startswith("__"):
            names.add(name)
    return sorted(names)
