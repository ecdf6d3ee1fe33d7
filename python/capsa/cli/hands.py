"""``capsa rank`` (a 3- or 5-card hand) and ``capsa arrange`` (the best
arrangements of 13 cards)."""

from __future__ import annotations

import argparse
from typing import Any

from capsa import _core
from capsa.cards import format_cards
from capsa.cli.common import add_seats, int_in, load_rules
from capsa.solver import EFFORTS, STRATEGIES, best_arrangement, format_choices, rank_arrangements

__all__ = ["register"]


def _rank(args: argparse.Namespace) -> int:
    rules = load_rules(args.rules)
    value = _core.evaluate(" ".join(args.cards), rules)
    print(f"{format_cards(value.cards)}: {value.category} (strength {value.strength})")
    return 0


def _arrange(args: argparse.Namespace) -> int:
    rules = load_rules(args.rules)
    cards = " ".join(args.cards)
    natural = _core.natural(cards, rules)
    if args.strategy == "solver":
        choices = rank_arrangements(cards, rules, k=args.k, seats=args.seats, effort=args.effort)
    else:
        choices = [
            best_arrangement(
                cards, rules, seats=args.seats, strategy=args.strategy, effort=args.effort
            )
        ]
    print(
        f"rules {rules.name}, {args.seats} seats, strategy {args.strategy}, "
        f"effort {args.effort}; expected points against all opponents"
    )
    print(format_choices(choices, natural))
    return 0


def register(subparsers: Any) -> None:
    """Adds ``capsa rank`` and ``capsa arrange``."""
    rank = subparsers.add_parser("rank", help="rank a 3- or 5-card hand")
    rank.add_argument("cards", nargs="+", help='cards, e.g. "As Ks Qs Js Ts"')
    rank.add_argument("--rules", help="a preset name or a rules TOML file")
    rank.set_defaults(run=_rank)

    arrange = subparsers.add_parser("arrange", help="the best arrangements of 13 cards")
    arrange.add_argument("cards", nargs="+", help="13 cards")
    arrange.add_argument("--rules", help="a preset name or a rules TOML file")
    arrange.add_argument(
        "-k", type=int_in(1, None, "-k"), default=5, help="how many arrangements (default 5)"
    )
    add_seats(arrange, "the table size")
    arrange.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="solver",
        help="the solver (default), or a baseline: one arrangement",
    )
    arrange.add_argument(
        "--effort",
        choices=EFFORTS,
        default="fast",
        help="fast (default), or deep: the best candidates re-scored against "
        "sampled opponents (about 50 ms; the solver and separable only)",
    )
    arrange.set_defaults(run=_arrange)
