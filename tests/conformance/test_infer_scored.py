"""``capsa conformance infer`` scored knob by knob on variant engines of known truth.

Every knob of every variant engine (``tests/conformance/variant_engines.py``) is
scored: *right* (inferred, the truth's value), *wrong* (stated without a
caveat, another value) or *not determined* (reported as not determined or
not probed, with a reason naming the knob). No knob may be wrong.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from capsa import Rules
from capsa.conformance.inference import Inference, infer
from capsa.conformance.inference.knobs import all_knobs, get, with_knobs
from conformance.variant_engines import VARIANTS, Variant, plays_the_same

_SCORES: dict[str, tuple[int, int, int, int, float]] = {}

# engine -> knobs where its rules differ from the base that must be inferred right
MUST_FIND: dict[str, tuple[str, ...]] = {
    "pagat-house": (
        "tie_break",
        "naturals.enabled",
        "royalties.top.trips",
        "royalties.middle.full-house",
        "royalties.bottom.quads",
        "sweep_all.min_players",
    ),
    "wheel-high": ("wheel",),
    "no-suit-tie-break": ("tie_break",),
    "flush-suit-first": ("flush_compare",),
    "strict-fouls": ("foul_check",),
    "royalties-to-loser": ("royalty_mode",),
    "royalty-house": (
        "royalties.top.pair",
        "royalties.top.trips",
        "royalties.middle.quads",
        "royalties.bottom.flush",
        "royalties.bottom.royal-flush",
    ),
    "sweep-house": ("scoop.multiplier", "scoop.bonus", "sweep_all.min_players"),
    "naturals-house": ("naturals.enabled", "naturals.points.dragon", "naturals.points.six-pairs"),
    "no-naturals": ("naturals.enabled",),
    "surrender-house": ("surrender.enabled", "surrender.cost"),
    "rake-house": ("money.rake_basis_points",),
    "capped-rake-house": (
        "money.rake_basis_points",
        "money.rake_minimum_pot",
        "money.rake_cap_per_pot",
        "money.rake_cap_per_round",
    ),
    "loser-royalties-house": ("royalty_mode",),
    "overall-point-house": ("overall_point", "row_points"),
    "fixed-foul-house": ("foul.mode", "foul.points"),
    "claimed-rules": ("row_points", "surrender.cost"),
    "horse-house": ("horse.card",),
    # read before the scoring, so that the scoring is solved under it
    "horse-elsewhere": ("horse.card", "row_points", "royalties.top.trips", "scoop.multiplier"),
    "banker-house": ("banker.enabled", "banker.max_multiplier", "cap.pair"),
    "thai-house": ("royalties.bottom_by_rank", "scoop.by_seats", "foul.mode"),
    "by-seats-house": ("scoop.by_seats",),
}


def score(found: Inference, truth: Rules) -> dict[str, list[str]]:
    """Knobs as right, equivalent (another value of the truth's that plays the
    same, said so), wrong (with both values) and not determined (with why)."""
    out: dict[str, list[str]] = {"right": [], "equivalent": [], "wrong": [], "not determined": []}
    knobs = all_knobs(truth) | all_knobs(found.rules) | all_knobs(found.base)
    for knob in sorted(knobs - {"name", "description"}):
        reason = found.undetermined.get(knob) or found.not_probed.get(knob)
        inferred, true = get(found.rules, knob), get(truth, knob)
        if reason is not None:
            out["not determined"].append(f"{knob}: {reason}")
        elif inferred == true:
            out["right"].append(knob)
        elif knob in found.equivalent:
            out["equivalent"].append(f"{knob}: {found.equivalent[knob]}")
        else:
            out["wrong"].append(f"{knob}: inferred {inferred!r}, truth {true!r}")
    return out


def reason_is_explained(line: str) -> bool:
    knob, _, reason = line.partition(": ")
    leaf = knob.rsplit(".", 1)[-1]
    return len(reason) > 20 and (knob in reason or leaf in reason)


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.name for v in VARIANTS])
def test_infer_is_never_confidently_wrong(variant: Variant) -> None:
    # CPU time, not wall time: other work on the machine does not count
    start = time.process_time()
    found = infer(variant.make(), base=variant.base)
    took = time.process_time() - start
    scored = score(found, variant.truth)
    counts = (
        len(scored["wrong"]),
        len(scored["not determined"]),
        len(scored["equivalent"]),
        len(scored["right"]),
        took,
    )
    _SCORES[variant.name] = counts
    assert scored["wrong"] == [], scored["wrong"]
    # an equivalence is true of the engine's own rules: its values play as the truth's
    same = {k.split(":")[0]: get(found.rules, k.split(":")[0]) for k in scored["equivalent"]}
    same |= {k: get(found.rules, k) for k in scored["right"]}
    assert plays_the_same(variant.truth, with_knobs(variant.truth, same)) == [], same
    missed = [k for k in MUST_FIND.get(variant.name, ()) if k not in scored["right"]]
    assert missed == [], [line for line in scored["not determined"] if line.split(":")[0] in missed]
    assert all(found.probed[k] for k in scored["right"] if k in found.probed)
    unexplained = [line for line in scored["not determined"] if not reason_is_explained(line)]
    assert unexplained == [], unexplained
    if variant.extra:
        assert found.observations, f"{variant.name}: {variant.extra}, yet no observation"
    assert took < 10.0  # about a second of CPU


def test_the_score_table_covers_at_least_twelve_engines(capsys: Any) -> None:
    if len(_SCORES) < len(VARIANTS):
        pytest.skip("run with the scored tests")
    with capsys.disabled():
        print("\nengine                   wrong  not-determined  equivalent  right   seconds")
        for name, (wrong, undetermined, same, right, took) in sorted(_SCORES.items()):
            print(f"{name:24} {wrong:5} {undetermined:15} {same:11} {right:6} {took:9.2f}")
    assert len(VARIANTS) >= 12
    assert sum(s[0] for s in _SCORES.values()) == 0
