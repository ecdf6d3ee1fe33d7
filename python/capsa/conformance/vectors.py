"""The vector suites: hand-written seed cases and generated boundary cases.

``capsa conformance vectors --out DIR`` writes one JSON Lines file per op
(``compare.jsonl``, ..., ``settle.jsonl``, ``digest.jsonl``); the package
ships the same files in ``capsa/conformance/vectors``, and regenerating
them gives the same bytes. Every vector is asked of capsa and of
``capsa.oracle``; generation stops with :class:`DisagreementError` if the
two witnesses differ on any of them (the digests are capsa's alone: the
tests check them against the oracle, see ``docs/conformance.md``).

Generation is deterministic: hand-written cases, exhaustive scans of every
five- and three-card hand for the category boundaries, and
``random.Random`` with fixed seeds for the rest.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import capsa
from capsa import ArgumentError
from capsa.cards import card_ids
from capsa.conformance import digests
from capsa.conformance.bounds import MAX_VECTOR_FILE_BYTES, MAX_VECTOR_LINE_BYTES, scan
from capsa.conformance.deck_seeds import DECKS_SUITE, deck_drafts
from capsa.conformance.drafts import Draft as _Draft
from capsa.conformance.flags import DECK52_NATURALS, FLAGS, flags_of
from capsa.conformance.protocol import OPS, Case, RulesSpec, case_from_vector, request_of, text_of
from capsa.conformance.random_rounds import arrangement_text, random_round, seat_of
from capsa.conformance.serve import CapsaEngine
from capsa.conformance.vector_seeds import (
    CATEGORY_SEEDS,
    COMPARE_SEEDS,
    FOUL_SEEDS,
    NATURAL_HANDS,
    RANKING_SPECS,
    SETTLE_SEEDS,
    SETTLE_SPECS,
    card_text,
    presets_in_order,
    round_of,
    rules_spec,
)
from capsa.conformance.witness import oracle_answer

__all__ = [
    "DECKS_SUITE",
    "HOUSE_SUITE",
    "DisagreementError",
    "Vector",
    "generate",
    "load_vectors",
    "schema",
    "shipped_dir",
    "write_suites",
]

_ROWS = ("top", "middle", "bottom")

HOUSE_SUITE = "settle-house"
"""The suite of the settle cases of the rules of every house (ranked
royalties, the horse card, caps, bonus naturals, each natural's parameters,
...): ``settle-house.jsonl``."""


class DisagreementError(RuntimeError):
    """capsa and the oracle disagree on a vector: a bug in one of them."""


@dataclass
class Vector:
    """A case with its expected result, flags and reason."""

    id: str
    case: Case
    expected: Any
    flags: list[str]
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "op": self.case.op,
            "rules": self.case.rules.to_json(),
            "input": dict(self.case.input),
            "expected": self.expected,
            "flags": self.flags,
            "reason": self.reason,
        }

    def line(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False) + "\n"


def shipped_dir() -> Path:
    """The folder of the vector suites shipped in the package (``<op>.jsonl``
    each). Raises nothing; the folder is the installed package's."""
    return Path(str(resources.files("capsa.conformance") / "vectors"))


def schema(name: str = "protocol") -> dict[str, Any]:
    """A shipped JSON Schema (draft 2020-12), decoded: ``"protocol"`` (requests,
    responses, results: ``$defs/request``, ``$defs/response``,
    ``$defs/results/<op>``, ``$defs/hello_result``) or ``"vector"`` (one
    vector line). Raises :class:`capsa.ArgumentError` (a ``ValueError``) for
    any other name."""
    if name not in ("protocol", "vector"):
        raise ArgumentError(f'the schemas are "protocol" and "vector", not {name!r}')
    text = (resources.files("capsa.conformance") / "schema" / f"{name}.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def load_vectors(source: str | Path | None = None) -> list[dict[str, Any]]:
    """Vector lines from a ``.jsonl`` file or every ``.jsonl`` in a folder
    (default: the shipped suites), in file then line order, as dicts (blank
    lines skipped; the lines are not checked against the schema here, the
    harness checks each vector's op, rules and input when it runs them).

    Lines are read one at a time, each at most
    :data:`~capsa.conformance.bounds.MAX_VECTOR_LINE_BYTES` and all of them
    at most :data:`~capsa.conformance.bounds.MAX_VECTOR_FILE_BYTES`, nested
    at most :data:`~capsa.conformance.bounds.MAX_DEPTH` deep. Raises
    ``ValueError`` naming the file and line for a line over those limits,
    not UTF-8, not JSON or not a JSON object, and ``OSError``
    (``FileNotFoundError``) for a file that cannot be read."""
    path = Path(source) if source is not None else shipped_dir()
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    out: list[dict[str, Any]] = []
    total = 0
    for file in files:
        with open(file, "rb") as stream:
            for number, raw in enumerate(
                iter(lambda: stream.readline(MAX_VECTOR_LINE_BYTES + 1), b""), 1
            ):
                total += len(raw)
                vector = _vector_line(file, number, raw, total)
                if vector is not None:
                    out.append(vector)
    return out


def _vector_line(file: Path, number: int, raw: bytes, total: int) -> dict[str, Any] | None:
    where = f"{file}:{number}"
    if len(raw) > MAX_VECTOR_LINE_BYTES:
        raise ValueError(f"{where}: a line over {MAX_VECTOR_LINE_BYTES:,} bytes")
    if total > MAX_VECTOR_FILE_BYTES:
        raise ValueError(f"{where}: the vectors pass {MAX_VECTOR_FILE_BYTES:,} bytes in all")
    if not raw.strip():
        return None
    refusal = scan(raw, MAX_VECTOR_LINE_BYTES, "a vector")
    if refusal is not None:
        raise ValueError(f"{where}: {refusal}")
    try:
        vector = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"{where}: malformed JSON: {exc}") from None
    if not isinstance(vector, dict):
        raise ValueError(f"{where}: a vector is a JSON object")
    return vector


# ------------------------------------------------------------------ compare


@lru_cache(maxsize=2)
def _hand_masks(size: int) -> npt.NDArray[np.uint64]:
    hands = digests.all_hands(size).astype(np.uint64)
    masks = np.zeros(len(hands), dtype=np.uint64)
    for column in range(size):
        masks |= np.left_shift(np.uint64(1), hands[:, column])
    return masks


def _extremes(spec: RulesSpec, size: int) -> dict[str, tuple[int, int]]:
    """Per category, the indexes of its weakest and strongest hand (first on ties)."""
    strengths = capsa.evaluate_batch(digests.all_hands(size), spec.rules())
    categories = strengths >> 28
    out: dict[str, tuple[int, int]] = {}
    for index, name in enumerate(capsa.CATEGORIES):
        members = np.nonzero(categories == index)[0]
        if len(members):
            values = strengths[members]
            out[name] = (int(members[np.argmin(values)]), int(members[np.argmax(values)]))
    return out


def _boundary_pairs(spec: RulesSpec) -> Iterator[_Draft]:
    """Weakest of each category against the strongest of the one below, both ways, and
    the span of each category, five- and three-card, from one deck."""
    for size in (5, 3):
        hands = digests.all_hands(size)
        masks = _hand_masks(size)
        strengths = capsa.evaluate_batch(hands, spec.rules())
        categories = strengths >> 28
        names = [n for k, n in enumerate(capsa.CATEGORIES) if np.any(categories == k)]
        for lower, upper in itertools.pairwise(names):
            low_members = np.nonzero(categories == capsa.CATEGORIES.index(lower))[0]
            up_members = np.nonzero(categories == capsa.CATEGORIES.index(upper))[0]
            weakest = int(up_members[np.argmin(strengths[up_members])])
            apart = low_members[(masks[low_members] & masks[weakest]) == 0]
            strongest = int(apart[np.argmax(strengths[apart])])
            a, b = text_of(hands[weakest]), text_of(hands[strongest])
            reason = f"the weakest {upper} against the strongest {lower}"
            yield _Draft(
                "boundary", Case("compare", spec, {"a": a, "b": b}), reason, {"category-boundary"}
            )
            yield _Draft(
                "boundary",
                Case("compare", spec, {"a": b, "b": a}),
                f"the strongest {lower} against the weakest {upper}",
                {"category-boundary"},
            )
        for name in names:
            members = np.nonzero(categories == capsa.CATEGORIES.index(name))[0]
            weakest = int(members[np.argmin(strengths[members])])
            apart = members[(masks[members] & masks[weakest]) == 0]
            strongest = int(apart[np.argmax(strengths[apart])])
            a, b = text_of(hands[strongest]), text_of(hands[weakest])
            yield _Draft(
                "span",
                Case("compare", spec, {"a": a, "b": b}),
                f"the strongest {size}-card {name} against the weakest",
                {"kicker"},
            )


def _three_against_five(spec: RulesSpec) -> Iterator[_Draft]:
    """The strongest top of each category against the weakest five-card hand of it."""
    rng = random.Random(35)
    for name in ("high-card", "pair", "trips"):
        for _ in range(3):
            top, five = _shared_prefix_pair(rng, name)
            yield _Draft(
                "three-vs-five",
                Case("compare", spec, {"a": top, "b": five}),
                f"a top {name} against a five-card {name} with the same leading ranks",
                {"three-vs-five"},
            )


def _shared_prefix_pair(rng: random.Random, category: str) -> tuple[str, str]:
    """A three-card hand and a five-card hand of one category whose ranks start alike."""
    deck = list(range(52))
    rng.shuffle(deck)
    ranks = rng.sample(range(13), 5)
    by_rank = {r: [c for c in deck if c // 4 == r] for r in ranks}
    if category == "trips":
        # one deck holds no second set of trips of the rank: the five-card trips differ
        three = by_rank[ranks[0]][:3]
        five = [*by_rank[ranks[1]][:3], by_rank[ranks[2]][0], by_rank[ranks[3]][0]]
    elif category == "pair":
        three = [*by_rank[ranks[0]][:2], by_rank[ranks[1]][0]]
        five = [*by_rank[ranks[0]][2:4], by_rank[ranks[1]][1], by_rank[ranks[2]][0]]
        five.append(by_rank[ranks[3]][0])
    else:
        top3 = sorted(ranks[:3], reverse=True)
        rest = sorted(ranks[3:], reverse=True)
        three = [by_rank[r][0] for r in top3]
        five = [by_rank[r][1] for r in top3] + [by_rank[r][0] for r in rest]
    return text_of(sorted(three)), text_of(sorted(five))


def _suit_order_pairs() -> Iterator[_Draft]:
    for order in digests.suit_orders():
        spec = rules_spec("capsa-susun", suit_order=order)
        yield _Draft(
            "suit-order",
            Case(
                "compare",
                spec,
                {"a": card_text("As Kh Qd Jc 9s"), "b": card_text("Ah Ks Qc Jd 9h")},
            ),
            f"suit_order = {order}: equal ranks, the aces' suits decide",
            {"suit-tie-break"},
        )
        flush = rules_spec("pagat", flush_compare="suit-first", suit_order=order)
        yield _Draft(
            "suit-order",
            Case(
                "compare",
                flush,
                {"a": card_text("2s 4s 6s 8s Ts"), "b": card_text("3h 5h 7h 9h Jh")},
            ),
            f"suit_order = {order}, flush_compare = suit-first: the flushes' suits decide",
            {"flush-suit-first"},
        )


def _random_deck_hands(rng: random.Random, size: int) -> list[int]:
    mode = rng.choice(["any", "ranks", "suits", "run"])
    if mode == "any":
        pool = list(range(52))
    elif mode == "ranks":
        ranks = rng.sample(range(13), rng.randint(3, 6))
        pool = [4 * r + s for r in ranks for s in range(4)]
    elif mode == "suits":
        suits = rng.sample(range(4), rng.randint(1, 2))
        pool = [4 * r + s for r in range(13) for s in suits]
    else:
        start = rng.randint(-1, 8)
        ranks = [(start + k) % 13 for k in range(5)] if start >= 0 else [12, 0, 1, 2, 3]
        pool = [4 * r + s for r in ranks for s in range(4)]
    if len(pool) < 2 * size:
        pool += [c for c in range(52) if c not in pool][: 2 * size]
    return rng.sample(pool, 2 * size)


def _random_compares() -> Iterator[_Draft]:
    rng = random.Random(11)
    first, later = presets_in_order()
    specs = [
        *(rules_spec(p) for p in first),
        *RANKING_SPECS[3:],
        *(rules_spec(p) for p in later),
    ]
    for spec in specs:
        for _ in range(24):
            size_a, size_b = rng.choice([(5, 5), (5, 5), (3, 3), (5, 3), (3, 5)])
            cards = _random_deck_hands(rng, 5)
            a, b = sorted(cards[:size_a]), sorted(cards[5 : 5 + size_b])
            yield _Draft(
                "random",
                Case("compare", spec, {"a": text_of(a), "b": text_of(b)}),
                "a random pair of hands biased toward shared ranks, suits and runs",
            )


def _compare_drafts() -> Iterator[_Draft]:
    for a, b, spec, flags, reason in COMPARE_SEEDS:
        yield _Draft(
            "seed", Case("compare", spec, {"a": card_text(a), "b": card_text(b)}), reason, flags
        )
    for spec in RANKING_SPECS:
        yield from _boundary_pairs(spec)
    yield from _three_against_five(rules_spec("pagat"))
    yield from _three_against_five(rules_spec("capsa-susun"))
    yield from _suit_order_pairs()
    yield from _random_compares()


def _category_drafts() -> Iterator[_Draft]:
    for text, reason in CATEGORY_SEEDS:
        yield _Draft(
            "seed", Case("category", rules_spec("pagat"), {"hand": card_text(text)}), reason
        )
    spec = rules_spec("pagat")
    for size in (5, 3):
        hands = digests.all_hands(size)
        for name, (weakest, strongest) in _extremes(spec, size).items():
            for which, index in (("weakest", weakest), ("strongest", strongest)):
                hand = text_of(hands[index])
                yield _Draft(
                    "boundary",
                    Case("category", spec, {"hand": hand}),
                    f"the {which} {size}-card {name}",
                )
    rng = random.Random(12)
    for spec in (rules_spec("pagat"), rules_spec("mau-binh"), rules_spec("capsa-susun")):
        for _ in range(20):
            size = rng.choice([5, 5, 3])
            cards = sorted(_random_deck_hands(rng, 5)[:size])
            yield _Draft(
                "random",
                Case("category", spec, {"hand": text_of(cards)}),
                "a random hand biased toward shared ranks, suits and runs",
            )


def _random_arrangement(rng: random.Random, hand: list[int], spec: RulesSpec) -> list[int]:
    if rng.random() < 0.5:
        legal = capsa.splits(hand, spec.rules())
        return [int(x) for x in legal[rng.randrange(len(legal))]]
    cards = hand[:]
    rng.shuffle(cards)
    return cards


def _foul_drafts() -> Iterator[_Draft]:
    for text, spec, reason in FOUL_SEEDS:
        rows = [card_text(part) for part in text.split("/")]
        yield _Draft("seed", Case("foul", spec, dict(zip(_ROWS, rows, strict=True))), reason)
    rng = random.Random(13)
    first, later = presets_in_order()
    specs = [
        *(rules_spec(p) for p in first),
        rules_spec("pagat", foul_check="strict"),
        rules_spec("capsa-susun", foul_check="strict"),
        *RANKING_SPECS[3:],
        *(rules_spec(p) for p in later),
    ]
    for spec in specs:
        for _ in range(14):
            hand = _random_hand(rng)
            ids = _random_arrangement(rng, hand, spec)
            yield _Draft(
                "random",
                Case("foul", spec, arrangement_text(ids)),
                "a random arrangement of biased cards, legal half the time",
            )


def _random_hand(rng: random.Random) -> list[int]:
    mode = rng.choice(["any", "ranks", "suits"])
    if mode == "ranks":
        ranks = rng.sample(range(13), rng.randint(5, 7))
        pool = [4 * r + s for r in ranks for s in range(4)]
    elif mode == "suits":
        suits = rng.sample(range(4), 2)
        pool = [4 * r + s for r in range(13) for s in suits]
    else:
        pool = list(range(52))
    return sorted(rng.sample(pool, 13))


def _preset_naturals(preset: str) -> Iterator[_Draft]:
    spec = rules_spec(preset)
    for name, (has, near) in NATURAL_HANDS.items():
        yield _Draft(
            name,
            Case("natural", spec, {"hand": card_text(has)}),
            f"13 cards that qualify for {name} (the strongest enabled one counts)",
        )
        yield _Draft(
            name,
            Case("natural", spec, {"hand": card_text(near)}),
            f"one card away from {name}",
            {"near-miss"},
        )


def _natural_drafts() -> Iterator[_Draft]:
    first, later = presets_in_order()
    for preset in first:
        yield from _preset_naturals(preset)
    every = rules_spec(
        "pagat", naturals__enabled=[{"name": n, "points": 1} for n in reversed(DECK52_NATURALS)]
    )
    for name, (has, _) in NATURAL_HANDS.items():
        yield _Draft(
            "reversed-order",
            Case("natural", every, {"hand": card_text(has)}),
            f"{name} with every natural enabled, weakest first: the list order decides",
        )
    none = rules_spec("pagat", naturals__enabled=[])
    yield _Draft(
        "none-enabled",
        Case("natural", none, {"hand": card_text(NATURAL_HANDS["dragon"][0])}),
        "a dragon when the rules enable no natural",
    )
    for preset in later:
        yield from _preset_naturals(preset)


# ------------------------------------------------------------------ splits


def _count_splits_drafts() -> Iterator[_Draft]:
    hands = [
        "2d 3c 4h 5s 6d 7c 8h 9s Td Jc Qh Ks Ad",
        "As Ks Qs Js Ts 2c 2d 7h 8h 9c 3d 4s 5c",
        "2d 2c 2h 5d 5c 5h 9d 9c 9h Kd Kc Kh As",
    ]
    specs = [
        rules_spec("pagat"),
        rules_spec("capsa-susun"),
        rules_spec("mau-binh"),
        rules_spec("capsa-susun", foul_check="strict"),
        rules_spec("pagat", flush_compare="suit-first"),
    ]
    for spec in specs:
        for hand in hands:
            yield _Draft(
                "seed",
                Case("count_splits", spec, {"hand": card_text(hand)}),
                f"the valid splits of 72,072 under {spec.describe()}",
            )


def _settle_reason(case: Case) -> str:
    from capsa.conformance.serve import _seat as read_seat

    round_ = case.input["round"]
    seats = [read_seat(s, k) for k, s in enumerate(round_["seats"])]
    result = capsa.settle(
        seats,
        case.rules.rules(),
        round_.get("stakes"),
        banker=round_.get("banker"),
        multipliers=round_.get("multipliers"),
    )
    parts = []
    for pair in result.pairs:
        i, j = pair["seats"]
        how = pair["outcome"]
        if pair["scoop"]:
            how += " (sweep-all)" if pair["sweep_all"] else " (scoop)"
        parts.append(f"{i} v {j} {how} {pair['points']:+d}")
    return f"{len(seats)} seats under {case.rules.describe()}: " + "; ".join(parts)


def _covering_rounds(
    spec: RulesSpec, seed: int, candidates: int, per_flag: int, family: str = "cover"
) -> list[_Draft]:
    """Random rounds chosen so that every flag they reach is covered ``per_flag`` times."""
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    chosen: list[_Draft] = []
    for k in range(candidates):
        seats = 2 + k % 3
        case = Case("settle", spec, random_round(rng, spec, seats))
        flags = flags_of(case)
        if any(counts.get(f, 0) < per_flag for f in flags):
            for f in flags:
                counts[f] = counts.get(f, 0) + 1
            chosen.append(_Draft(family, case, _settle_reason(case)))
    return chosen


def _house_drafts() -> Iterator[_Draft]:
    from capsa.conformance import house_seeds as seeds

    for family, spec, round_, reason in seeds.HOUSE_SETTLE_SEEDS:
        yield _Draft(family, Case("settle", spec, round_), reason)
    # a natural's parameters, settled: the hand in card order (3, 5 and 5
    # cards) against the lowest 13 cards left, so that the natural is
    # declared or its rows are played
    for family, spec, hand, reason in seeds.HOUSE_NATURAL_SEEDS:
        ids = card_ids(hand)
        rest = [c for c in range(52) if c not in ids][:13]
        seats = [seat_of(list(ids), False, True), seat_of(rest, False, True)]
        yield _Draft(family, Case("settle", spec, {"round": {"seats": seats, "stakes": 1}}), reason)
    # the presets added with the rules of every house, as the settle suite
    # covers the presets it was written with; the banker games last, after
    # the banker cases (their rounds name the banker and the multipliers)
    added = [(k, p, rules_spec(p)) for k, p in enumerate(presets_in_order()[1])]
    for banker in (False, True):
        for family, spec, round_, reason in seeds.BANKER_SETTLE_SEEDS if banker else []:
            yield _Draft(family, Case("settle", spec, round_), reason)
        for k, preset, spec in added:
            if spec.rules()["banker.enabled"] == banker:
                yield from _covering_rounds(spec, 200 + k, 240, 1, family=f"cover-{preset}")


def _settle_drafts() -> Iterator[_Draft]:
    for spec, seats, stakes, reason in SETTLE_SEEDS:
        yield _Draft("seed", Case("settle", spec, round_of(seats, stakes)), reason)
    for k, spec in enumerate(SETTLE_SPECS):
        yield from _covering_rounds(spec, 100 + k, candidates=240, per_flag=1)


# ------------------------------------------------------------------ digests


def digest_cases(size: int) -> Iterator[tuple[str, Case]]:
    """(family, case) of every digest vector: each preset's own ranking, then every
    ranking configuration as knobs on pagat (pagat's own is the preset's)."""
    first, later = presets_in_order()
    for preset in [*first, *later]:
        yield "preset", Case("digest", rules_spec(preset), {"size": size})
    pagat = rules_spec("pagat").rules()
    for config in digests.ranking_configurations(size):
        knobs = {k: v for k, v in config.items() if v != pagat[k]}
        if knobs:
            yield "configuration", Case("digest", RulesSpec.of("pagat", knobs), {"size": size})


def _digest_drafts(select: Callable[[int], bool]) -> Iterator[_Draft]:
    position = 0
    for size in (5, 3):
        numbers: dict[str, int] = {}
        for family, case in digest_cases(size):
            name = f"{family}-{size}"
            numbers[name] = numbers.get(name, 0) + 1
            if select(position):
                key = digests.ranking_key(case.rules.rules(), size)
                shown = ", ".join(f"{k} = {v}" for k, v in key.items())
                reason = (
                    f"the order of all {digests.HAND_COUNTS[size]:,} {size}-card hands "
                    f"under {shown}"
                )
                yield _Draft(name, case, reason, number=numbers[name])
            position += 1


# ------------------------------------------------------------------ assembly

_DRAFTS: dict[str, Callable[[], Iterable[_Draft]]] = {
    "compare": _compare_drafts,
    "category": _category_drafts,
    "foul": _foul_drafts,
    "natural": _natural_drafts,
    "count_splits": _count_splits_drafts,
    "settle": _settle_drafts,
}


def _finish(op: str, drafts: Iterable[_Draft], check: bool) -> list[Vector]:
    engine = CapsaEngine()
    numbers: dict[str, int] = {}
    seen: set[Case] = set()
    out: list[Vector] = []
    for draft in drafts:
        if draft.case in seen:
            continue
        seen.add(draft.case)
        response = engine.handle(request_of(0, draft.case))
        if "error" in response:
            raise DisagreementError(f"capsa refuses a {op} vector: {response['error']}")
        expected = response["result"]
        if check and op != "digest":
            witness = oracle_answer(draft.case)
            if witness != expected:
                raise DisagreementError(
                    f"capsa and capsa.oracle disagree on {op} {draft.case.input} under "
                    f"{draft.case.rules.describe()}: capsa {expected!r}, oracle {witness!r}"
                )
        numbers[draft.family] = numbers.get(draft.family, 0) + 1
        flags = sorted((draft.flags | flags_of(draft.case)) & set(FLAGS))
        unknown = draft.flags - set(FLAGS)
        if unknown:
            raise ValueError(f"unknown flags {sorted(unknown)} in a {op} vector")
        number = draft.number if draft.number is not None else numbers[draft.family]
        vector_id = f"{op}/{draft.family}/{number}"
        out.append(Vector(vector_id, draft.case, expected, flags, draft.reason))
    return out


def generate(
    ops: Iterable[str] = OPS,
    check: bool = True,
    digest_select: Callable[[int], bool] | None = None,
    progress: Callable[[str, int], object] | None = None,
) -> dict[str, list[Vector]]:
    """Every suite, by op. ``check`` asks the oracle too (and raises
    :class:`DisagreementError` on any difference); ``digest_select`` picks
    digest vectors by their position (default: all); ``progress`` is told
    each suite's name and count when it is done. Raises ``TypeError`` for a
    ``check`` not a bool, ``ArgumentError`` for an op not in ``OPS``."""
    if not isinstance(check, bool):
        raise TypeError(f"check must be true or false, not {type(check).__name__}")
    ops = tuple(ops)
    for op in ops:
        if op not in OPS:
            raise ArgumentError(f"unknown op {op!r}; the ops are: {', '.join(OPS)}")
    suites: dict[str, list[Vector]] = {}

    def done(name: str, vectors: list[Vector]) -> None:
        suites[name] = vectors
        if progress is not None:
            progress(name, len(vectors))

    pick = digest_select or (lambda _: True)
    for op in ops:
        done(op, _finish(op, _digest_drafts(pick) if op == "digest" else _DRAFTS[op](), check))
        if op == "settle":
            # the rules of every house, a suite of its own so that the suites
            # written before them stay as they were
            done(HOUSE_SUITE, _finish(op, _house_drafts(), check))
    decks = [v for op in ops if op != "digest" for v in _finish(op, deck_drafts(op), check)]
    if decks:
        done(DECKS_SUITE, decks)
    return suites


def write_suites(out: str | Path, suites: Mapping[str, list[Vector]]) -> list[Path]:
    """Writes each suite as ``<op>.jsonl`` in ``out``; returns the paths."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for op, vectors in suites.items():
        path = folder / f"{op}.jsonl"
        with open(path, "w", encoding="utf-8", newline="\n") as stream:
            stream.writelines(v.line() for v in vectors)
        paths.append(path)
    return paths


def vectors_of(lines: Iterable[Mapping[str, Any]]) -> Iterator[tuple[Mapping[str, Any], Case]]:
    """Each vector line with its case (checked)."""
    for vector in lines:
        yield vector, case_from_vector(vector)
