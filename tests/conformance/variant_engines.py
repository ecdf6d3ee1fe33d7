"""Variant engines with known ground truth, for scoring ``capsa conformance infer``.

Each :class:`Variant` is an engine (a request handler) and the rules it
really plays (``truth``). Two kinds:

* mutants of capsa (``tests/conformance/engines.py``): they read the rules
  they are sent and get one rule wrong, so their truth is the base preset
  with that knob changed (or, for a rule no knob expresses, the base);
* house variants: honest engines that play one fixed variant whatever
  rules a request carries (their own royalty table, scoop or sweep bonus,
  no naturals, a surrender cost, a rake, ...), some of them not zero-sum
  at small tables, some announcing their rules in ``hello``;
* random house variants (:func:`random_variant`, seeded): a preset with 2 to 5
  scoring knobs changed; :data:`VARIANTS` holds a few seeds whose probe answers
  alone fit wrong values.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import capsa
from capsa import Rules
from capsa.conformance.inference.knobs import get, spec_of, with_knobs
from capsa.conformance.inference.separating import telling_cases
from capsa.conformance.protocol import request_of
from capsa.conformance.serve import CapsaEngine, _seat
from conformance.engines import MUTANTS

Request = dict[str, Any]
Handler = Callable[[Request], dict[str, Any]]


@dataclass(frozen=True)
class Variant:
    """An engine and its ground truth: ``make()`` builds the handler, ``truth``
    is the rules it plays, ``base`` the rules ``infer`` is given (None: what
    the engine's ``hello`` says), ``extra`` what it does beyond any rules
    (checked as an observation)."""

    name: str
    make: Callable[[], Handler]
    truth: Rules
    base: str | None = "capsa-susun"
    extra: str = ""
    hello: dict[str, Any] = field(default_factory=dict)


def plays_the_same(truth: Rules, other: Rules) -> list[str]:
    """Cases dealt as ``infer`` deals them but from another seed (rounds of 2, 3
    and 4 seats, pairs of hands), whose answer differs between the two rules:
    an equivalence ``infer`` names must hold on cases it never saw."""
    reference = CapsaEngine()
    spec = spec_of(truth)
    cases = telling_cases(truth, ("settle", "compare"), (2, 3, 4), seed=1)
    return [
        p.name
        for p in cases
        if reference.handle(request_of(0, p.case(spec)), truth)
        != reference.handle(request_of(0, p.case(spec)), other)
    ]


def _sweepers(request: Request, rules: Rules) -> list[int]:
    """The seats that win every row against every other seat."""
    round_ = request["round"]
    seats = [_seat(s, k) for k, s in enumerate(round_["seats"])]
    detail = capsa.settle(seats, rules)
    won: dict[int, int] = {}
    for pair in detail.pairs:
        if pair["outcome"] != "rows" or not pair["scoop"]:
            continue
        winner = pair["seats"][0] if pair["scoop"] > 0 else pair["seats"][1]
        won[winner] = won.get(winner, 0) + 1
    return [s for s, n in won.items() if n == len(seats) - 1]


class House:
    """An engine playing ``rules`` whatever it is sent; at the table sizes in
    ``unpaid`` a seat that wins every row against everyone also gets
    ``unpaid[size]`` points nobody pays; ``refuse_fouls`` (or a hello claiming
    ``"fouls": "never"``) answers a round with a fouled seat ``unsupported``;
    ``ops`` replaces the ops it supports. ``fouled_asked`` counts the
    settles asked with a fouled seat."""

    def __init__(
        self,
        name: str,
        rules: Rules,
        hello: dict[str, Any] | None = None,
        unpaid: dict[int, int] | None = None,
        refuse_fouls: bool = False,
        ops: list[str] | None = None,
    ) -> None:
        self.name = name
        self.rules = rules
        self.data = rules.to_dict()
        self.extra_hello = hello or {}
        self.unpaid = unpaid or {}
        self.refuse_fouls = refuse_fouls or (hello is not None and hello.get("fouls") == "never")
        self.ops = ops
        self.fouled_asked = 0  # settles asked with a fouled seat
        self.engine = CapsaEngine()

    def __call__(self, request: Request) -> dict[str, Any]:
        if request.get("op") == "hello":
            hello = {**self.engine.hello(), "engine": self.name, **self.extra_hello}
            if self.ops is not None:
                hello["ops"] = self.ops
            return {"id": request.get("id"), "result": hello}
        if self.ops is not None and request.get("op") not in self.ops:
            error = {"kind": "unsupported", "message": f"op {request.get('op')!r}"}
            return {"id": request.get("id"), "error": error}
        if request.get("op") == "settle" and self._fouled(request):
            self.fouled_asked += 1
            if self.refuse_fouls:
                error = {"kind": "unsupported", "message": "fouls are never scored here"}
                return {"id": request.get("id"), "error": error}
        response = self.engine.handle({**request, "rules": self.data})
        if request.get("op") == "settle" and "result" in response:
            self._pay_unpaid(request, response["result"])
        return response

    def _fouled(self, request: Request) -> bool:
        seats = request["round"]["seats"]
        return any(_seat(s, k).arrangement.is_foul(self.rules) for k, s in enumerate(seats))

    def _pay_unpaid(self, request: Request, result: dict[str, Any]) -> None:
        bonus = self.unpaid.get(len(request["round"]["seats"]))
        if not bonus:
            return
        for seat in _sweepers(request, self.rules):
            for key in ("points", "money", "net"):
                result[key][seat] += bonus


# Category order of an engine whose scores overflow from one category into the
# next: two pair above a straight, a full house above quads.
_DEFECTIVE_ORDER = ("high-card", "pair", "trips", "straight", "two-pair", "flush")
_DEFECTIVE_ORDER += ("quads", "full-house", "straight-flush", "royal-flush")


class DefectiveRanking(House):
    """A house engine whose ``compare`` has ranking defects no knob expresses:
    categories out of order, a pair's best suit deciding before its kickers,
    three cards tied with five of the same leading ranks."""

    def __call__(self, request: Request) -> dict[str, Any]:
        if request.get("op") != "compare":
            return super().__call__(request)
        a, b = (capsa._core.card_ids(request[k]) for k in ("a", "b"))
        return {"id": request.get("id"), "result": self.compare(a, b)}

    def compare(self, a: list[int], b: list[int]) -> int:
        ea, eb = (capsa._core.evaluate(h, self.rules) for h in (a, b))
        ka, kb = (_DEFECTIVE_ORDER.index(e.category) for e in (ea, eb))
        if ka != kb:
            return 1 if ka > kb else -1
        if len(a) != len(b) and sorted(c // 4 for c in a)[-3:] == sorted(c // 4 for c in b)[-3:]:
            return 0
        if ea.category == "pair" and len(a) == len(b) == 5:
            pa, pb = (_pair_suit(h) for h in (a, b))
            if pa[0] == pb[0] and pa[1] != pb[1]:
                return 1 if pa[1] > pb[1] else -1  # the higher suit of the pair first
        return int(capsa._core.compare(a, b, self.rules))


def _pair_suit(hand: list[int]) -> tuple[int, int]:
    ranks = [c // 4 for c in hand]
    rank = next(r for r in ranks if ranks.count(r) == 2)
    return rank, max(c % 4 for c in hand if c // 4 == rank)


def _house(name: str, rules: Rules, **kwargs: Any) -> Callable[[], Handler]:
    return lambda: House(name, rules, **kwargs)


def _mutant(name: str) -> Callable[[], Handler]:
    return MUTANTS[name]


_PAGAT = Rules.preset("pagat")
_SUSUN = Rules.preset("capsa-susun")

# The pagat house engine: pagat's ranking and royalties, a scoop bonus of 3, a
# sweep bonus of 9 at four seats, no naturals; at two and three seats a seat
# that wins every row against everyone gets 9 more that nobody pays.
PAGAT_HOUSE = _PAGAT.derive(
    {"scoop.bonus": 3, "sweep_all.bonus": 9, "naturals.enabled": []}, name="pagat house"
)
ROYALTY_HOUSE = _SUSUN.derive(
    {
        "royalties.top": {"pair": 1, "trips": 6},
        "royalties.middle": {"full-house": 3, "quads": 9, "straight-flush": 12},
        "royalties.bottom": {"flush": 1, "quads": 5, "straight-flush": 7, "royal-flush": 15},
    },
    name="royalty house",
)
SWEEP_HOUSE = _SUSUN.derive(
    {
        "scoop.multiplier": 1,
        "scoop.bonus": 2,
        "sweep_all.multiplier": 2,
        "sweep_all.bonus": 4,
        "sweep_all.min_players": 3,
    },
    name="sweep house",
)
NATURALS_HOUSE = _PAGAT.derive(
    {"naturals.enabled": [{"name": "dragon", "points": 20}, {"name": "six-pairs", "points": 5}]},
    name="naturals house",
)
CLAIMED = Rules.preset("mau-binh").derive(
    {"row_points": 2, "surrender.enabled": True, "surrender.cost": 4}, name="claimed"
)

# knob -> the values drawn for it (the base's own value is never drawn)
CHOICES: dict[str, tuple[Any, ...]] = {
    "row_points": (1, 2, 3),
    "overall_point": (0, 1, 2),
    "royalty_mode": ("winner", "always"),
    "royalty_adds": (True, False),
    "scoop.multiplier": (1, 2, 3),
    "scoop.bonus": (0, 2, 3, 6),
    "sweep_all.multiplier": (1, 2, 4),
    "sweep_all.bonus": (0, 4, 9),
    "sweep_all.min_players": (2, 3, 4),
    "royalties.top.trips": (3, 5, 10),
    "royalties.top.pair": (0, 1),
    "royalties.middle.full-house": (0, 2, 4),
    "royalties.bottom.quads": (4, 6, 8),
    "foul.mode": ("scoop", "sweep-all"),
    "surrender.cost": (2, 4),
}
_PRESETS = ("capsa-susun", "pagat", "mau-binh", "1-6")


def random_variant(seed: int) -> Variant:
    """The house variant of ``seed``: a preset (also ``infer``'s base) with 2-5
    of :data:`CHOICES`'s knobs changed."""
    draw = random.Random(seed)
    preset = draw.choice(_PRESETS)
    base = Rules.preset(preset)
    changes: dict[str, Any] = {}
    for knob in draw.sample(sorted(CHOICES), draw.randint(2, 5)):
        values = [v for v in CHOICES[knob] if v != get(base, knob)]
        if values:
            changes[knob] = draw.choice(values)
    if "surrender.cost" in changes:
        changes["surrender.enabled"] = True
    truth = with_knobs(base, changes).derive(name=f"random house {seed}")
    return Variant(f"random-{seed}", lambda: House(truth.name, truth), truth, preset)


# seeds whose probe answers alone fit wrong values (royalty_adds = false with a
# scoop bonus or an overall point, sweep_all.min_players = 2, a scoop multiplier
# traded for its bonus)
KEPT_SEEDS = (3, 17, 45, 57)


# 5% from a winner of at least 100, at most 50 from one winner and 80 from a round
CAPPED_RAKE = _SUSUN.derive(
    {
        "money.rake_basis_points": 500,
        "money.rake_minimum_pot": 100,
        "money.rake_cap_per_pot": 50,
        "money.rake_cap_per_round": 80,
    }
)


VARIANTS: list[Variant] = [
    Variant(
        "pagat-house",
        _house("pagat house", PAGAT_HOUSE, unpaid={2: 9, 3: 9}),
        PAGAT_HOUSE,
        extra="a sweeper at 2 and 3 seats gets 9 nobody pays",
    ),
    Variant("wheel-high", _mutant("wheel-high"), _SUSUN.derive(wheel="second")),
    Variant("no-suit-tie-break", _mutant("no-suit-tie-break"), _SUSUN.derive(tie_break="none")),
    Variant(
        "flush-suit-first", _mutant("flush-suit-first"), _SUSUN.derive(flush_compare="suit-first")
    ),
    Variant("strict-fouls", _mutant("strict-fouls"), _PAGAT.derive(foul_check="strict"), "pagat"),
    Variant(
        "royalties-to-loser",
        _mutant("royalties-to-loser"),
        _SUSUN.derive(royalty_mode="always"),
    ),
    Variant(
        "top-straights",
        _mutant("top-straights"),
        _SUSUN,
        extra="three consecutive cards on top rank as a straight",
    ),
    Variant(
        "ranking-defects",
        lambda: DefectiveRanking("ranking defects", _SUSUN),
        _SUSUN,
        extra="categories out of order, a suit before a kicker, three cards tied with five",
    ),
    Variant(
        "bonus-not-zero-sum",
        _mutant("bonus-not-zero-sum"),
        Rules.preset("1-6"),
        "1-6",
        extra="a scoop's bonus is paid to the scooper, not taken from the loser",
    ),
    Variant("royalty-house", _house("royalty house", ROYALTY_HOUSE), ROYALTY_HOUSE),
    Variant("sweep-house", _house("sweep house", SWEEP_HOUSE), SWEEP_HOUSE),
    Variant("naturals-house", _house("naturals house", NATURALS_HOUSE), NATURALS_HOUSE, "pagat"),
    Variant(
        "no-naturals",
        _house("no naturals", _SUSUN.derive({"naturals.enabled": []})),
        _SUSUN.derive({"naturals.enabled": []}),
    ),
    Variant(
        "surrender-house",
        _house("surrender house", _PAGAT.derive({"surrender.enabled": True, "surrender.cost": 2})),
        _PAGAT.derive({"surrender.enabled": True, "surrender.cost": 2}),
        "pagat",
    ),
    Variant(
        "rake-house",
        _house("rake house", _SUSUN.derive({"money.rake_basis_points": 250})),
        _SUSUN.derive({"money.rake_basis_points": 250}),
    ),
    Variant(
        "capped-rake-house",
        _house("capped rake", CAPPED_RAKE),
        CAPPED_RAKE,
    ),
    Variant(
        "loser-royalties-house",
        _house("loser royalties", _SUSUN.derive({"royalty_mode": "always", "royalty_adds": False})),
        _SUSUN.derive({"royalty_mode": "always", "royalty_adds": False}),
    ),
    Variant(
        "overall-point-house",
        _house("overall point", _PAGAT.derive({"overall_point": 1})),
        _PAGAT.derive({"overall_point": 1}),
        "pagat",
    ),
    Variant(
        "fixed-foul-house",
        _house("fixed foul", _PAGAT.derive({"foul.mode": "fixed", "foul.points": 5})),
        _PAGAT.derive({"foul.mode": "fixed", "foul.points": 5}),
        "pagat",
    ),
    Variant(
        "claimed-rules",
        _house(
            "claimed",
            CLAIMED,
            hello={"rules": CLAIMED.to_dict(), "fouls": "never"},
        ),
        CLAIMED,
        None,
    ),
]
VARIANTS += [random_variant(seed) for seed in KEPT_SEEDS]

# Houses of the rules of every house, probed under their preset (the base) or
# with one of those knobs changed from it: the horse card, a banker game with
# a cap, royalties by rank, a scoop sized by the table.
_HOUSE_RULES = {
    "horse-house": ("shisanshui-horse", {}),
    "horse-elsewhere": ("shisanshui-horse", {"horse.card": "5h"}),
    "banker-house": ("shisanshui-banker", {}),
    "capped-banker-house": ("shisanshui-banker", {"cap.pair": 6}),
    "thai-house": ("thai", {}),
    "by-seats-house": ("capsa-susun", {"scoop.by_seats": True}),
}
for _name, (_preset, _changes) in _HOUSE_RULES.items():
    _truth = Rules.preset(_preset).derive(_changes, name=_name)
    VARIANTS.append(Variant(_name, _house(_name, _truth), _truth, _preset))
