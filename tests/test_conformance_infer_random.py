"""``capsa conformance infer`` on seeded random house variants.

Each variant (:func:`variant_engines.random_variant`) is a preset with 2 to 5
scoring knobs changed; every knob is scored as in the scored test: none may
be inferred wrong, and every knob not determined says why.
"""

from __future__ import annotations

import pytest
from test_conformance_infer_scored import reason_is_explained, score
from variant_engines import random_variant

from capsa.conformance.inference import infer

SEEDS = range(1000, 1012)


@pytest.mark.parametrize("seed", SEEDS)
def test_infer_is_never_confidently_wrong_on_a_random_variant(seed: int) -> None:
    variant = random_variant(seed)
    scored = score(infer(variant.make(), base=variant.base), variant.truth)
    assert scored["wrong"] == [], scored["wrong"]
    assert all(reason_is_explained(line) for line in scored["not determined"])
    assert scored["right"], "some knob is inferred"
