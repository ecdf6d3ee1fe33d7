"""``capsa play``: deal a table of the rules' deck, arrange every seat with
the solver, settle and explain; ``--html`` also draws the table as a
page."""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import Any

from capsa import _core
from capsa._core import Card
from capsa.arrangement import Arrangement
from capsa.cards import deal, format_cards
from capsa.cli.colour import add_color, paint, wanted
from capsa.cli.common import (
    add_seats,
    check_writable,
    int_in,
    load_rules,
    stake_arg,
    write_file,
)
from capsa.render import page_html, table_from_settlement
from capsa.rules import Rules
from capsa.settlement import Seat, Settlement, settle
from capsa.solver import Choice, best_arrangement

__all__ = ["register"]

_SEED_LIMIT = 2**64


def _shown_arrangement(choice: Choice, natural: str | None, rules: Rules) -> Arrangement:
    """The rows a seat shows: for a declared natural made by its rows (three
    flushes, three straights, three straight flushes, two full houses) the
    split that makes it, under the 52-card deck; otherwise, the cards being
    the point, the solver's arrangement."""
    if natural is None or not choice.declare_natural or not rules.deals_52_cards:
        return choice.arrangement
    split = _core.natural_split(choice.arrangement.ids, natural, rules)
    return choice.arrangement if split is None else Arrangement.from_ids(split)


def _arranged(hand: list[Card], rules: Rules, seats: int) -> tuple[Arrangement, bool, str]:
    """A seat's rows, whether it declares its natural, and what chose them:
    the solver's choice with its estimate."""
    choice = best_arrangement(hand, rules, seats=seats)
    arrangement = _shown_arrangement(choice, _core.natural(hand, rules), rules)
    return (
        arrangement,
        choice.declare_natural,
        f"expects {choice.expected_points:+.2f}",
    )


def _within_80(line: str, aside: str) -> str:
    """``line`` and ``aside`` on one line when it fits 80 columns, else the
    aside on a line of its own below (cards of added suits are wider)."""
    joined = f"{line}  {aside}"
    return joined if len(joined) <= 80 else f"{line}\n{' ' * 17}{aside}"


def _write_page(path: str, settlement: Settlement, rules: Rules, seed: int) -> None:
    """``--html OUT.html``: the table just played, as a page."""
    title = f"capsa play, seed {seed}"
    table = table_from_settlement(settlement, rules=rules, title=title)
    write_file(path, page_html(table).encode("utf-8"))


def _run(args: argparse.Namespace) -> int:
    rules = load_rules(args.rules)
    if args.html:
        check_writable(args.html, "--html")
    stake = args.stake if args.stake is not None else rules["money.stake"]
    # a seed drawn when none is given is printed, so the table can be dealt again
    seed = args.seed if args.seed is not None else secrets.randbelow(_SEED_LIMIT)
    hands = deal(args.seats, seed=seed, rules=rules)
    print(f"capsa play: {args.seats} seats, rules {rules.name}, seed {seed}")
    print()
    seats = []
    for k, hand in enumerate(hands):
        arrangement, declare, how = _arranged(hand, rules, args.seats)
        natural = _core.natural(hand, rules)
        print(f"seat {k}: {format_cards(hand)}")
        print(_within_80(f"        arranged {arrangement}", f"({how})"))
        if natural:
            verb = "declares" if declare else "holds but does not declare"
            print(f"        {verb} the natural {natural}")
        seats.append(Seat(arrangement, declare_natural=declare))
    print()
    result = settle(seats, rules, stake)
    text = result.explain()
    print(paint(text) if wanted(args.color, sys.stdout) else text)
    if args.html:
        _write_page(args.html, result, rules, seed)
    return 0


def register(subparsers: Any) -> None:
    """Adds ``capsa play``."""
    play = subparsers.add_parser(
        "play", help="deal a table, arrange every seat, settle and explain"
    )
    add_seats(play, "the table size")
    play.add_argument(
        "--seed",
        type=int_in(0, _SEED_LIMIT - 1, "--seed"),
        default=None,
        help="the deal's seed, 0 to 2**64-1 (default: drawn at random, and printed)",
    )
    play.add_argument("--rules", help="a preset name or a rules TOML file")
    play.add_argument(
        "--stake", type=stake_arg("--stake"), default=None, help="minor units per point"
    )
    play.add_argument("--html", metavar="OUT.html", help="also draw the table as a page")
    add_color(play)
    play.set_defaults(run=_run)
