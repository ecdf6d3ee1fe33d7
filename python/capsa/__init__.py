"""capsa: the Capsa Susun / Chinese poker engine.

Hand ranking, every legal split, naturals, settlement and arranging, with a
Rust core. See ``docs/rules.md`` for the rules data and decisions.
"""

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
    splits,
)
from capsa.arrangement import Arrangement
from capsa.cards import deal, format_cards
from capsa.rules import Rules, presets
from capsa.settlement import BatchSettlement, Seat, Settlement, settle, settle_batch
from capsa.simulation import Summary, simulate
from capsa.solver import Choice, best_arrangement, best_arrangement_batch, rank_arrangements

__version__ = "0.1.0"

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
    "Rules",
    "RulesError",
    "Seat",
    "Settlement",
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
    "presets",
    "rank_arrangements",
    "settle",
    "settle_batch",
    "simulate",
    "splits",
]
