"""``capsa conformance infer`` on the rake forms houses charge (docs/rules.md,
"Money, rake and exactness"): each rake knob is found, inferred as a value
that gives the same rake in every round, or said to be not determined."""

from __future__ import annotations

import pytest

from capsa import Rules
from capsa.conformance.inference import infer
from conformance.variant_engines import House

KNOBS = (
    "money.rake_basis_points",
    "money.rake_minimum_pot",
    "money.rake_cap_per_pot",
    "money.rake_cap_per_round",
)

# the rake a house charges -> what infer finds (None: not determined)
CASES: list[tuple[tuple[int, int, int, int], tuple[int | None, ...]]] = [
    ((250, 0, 0, 0), (250, 0, 0, 0)),
    ((1, 0, 0, 0), (1, 0, 0, 0)),
    ((10_000, 0, 0, 0), (10_000, 0, 0, 0)),
    ((475, 1_000, 0, 0), (475, 1_000, 0, 0)),
    ((500, 0, 0, 30), (500, 0, 0, 30)),
    ((300, 0, 7, 0), (300, 0, 7, 0)),
    ((700, 0, 40, 40), (700, 0, 40, 40)),
    ((500, 100, 50, 120), (500, 100, 50, 120)),
    # below 40 the rate takes nothing anyway: the same rakes as no minimum pot
    ((250, 30, 0, 0), (250, 0, 0, 0)),
    # three winners of at most 50 each never reach 200: the same as no round cap
    ((500, 100, 50, 200), (500, 100, 50, 0)),
    # every winner of 5,000 or more is held to 2: no money shows the rate
    ((333, 5_000, 2, 3), (None, 5_000, 2, 3)),
]


@pytest.mark.parametrize(("charged", "found"), CASES, ids=[str(c) for c, _ in CASES])
def test_infer_finds_each_rake_form_or_says_why_not(
    charged: tuple[int, int, int, int], found: tuple[int | None, ...]
) -> None:
    truth = Rules.preset("capsa-susun").derive(dict(zip(KNOBS, charged, strict=True)))
    inferred = infer(House("rake", truth), base="capsa-susun")
    for knob, want in zip(KNOBS, found, strict=True):
        if want is None:
            assert knob in inferred.undetermined, knob
            assert "fit money.rake_basis_points" in inferred.undetermined[knob]
        else:
            assert knob not in inferred.undetermined and knob not in inferred.not_probed, knob
            assert inferred.rules[knob] == want, knob
    assert not [o for o in inferred.observations if o.probe.startswith("rake-")]
