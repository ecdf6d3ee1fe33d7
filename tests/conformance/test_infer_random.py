"""``capsa conformance infer`` on seeded random house variants.

Each variant (:func:`conformance.variant_engines.random_variant`) is a preset with 2 to 5
scoring knobs changed; every knob is scored as in the scored test: none may
be inferred wrong, and every knob not determined says why. The check run's
settle disagreements leave the knobs they depend on not determined.
"""

from __future__ import annotations

from typing import Any

import pytest

from capsa import Rules
from capsa.conformance.inference import infer
from conformance.test_infer_scored import reason_is_explained, score
from conformance.variant_engines import House, random_variant

SEEDS = range(1000, 1012)


@pytest.mark.parametrize("seed", SEEDS)
def test_infer_is_never_confidently_wrong_on_a_random_variant(seed: int) -> None:
    variant = random_variant(seed)
    scored = score(infer(variant.make(), base=variant.base), variant.truth)
    assert scored["wrong"] == [], scored["wrong"]
    assert all(reason_is_explained(line) for line in scored["not determined"])
    assert scored["right"], "some knob is inferred"


def test_the_check_runs_disagreements_leave_their_knobs_not_determined(tmp_path: Any) -> None:
    # an engine whose second session (the check run) pays 2 points a row
    susun = Rules.preset("capsa-susun")
    sessions = [House("first", susun), House("second", susun.derive({"row_points": 2}))]
    hellos = []

    def engine(request: dict[str, Any]) -> dict[str, Any]:
        if request.get("op") == "hello":
            hellos.append(1)
        return sessions[min(len(hellos), 2) - 1](request)

    no_vectors = tmp_path / "none.jsonl"
    no_vectors.write_text("")
    found = infer(engine, base="capsa-susun", check=30, check_vectors=no_vectors)
    assert found.check is not None and found.check.settles
    assert "row_points" not in found.probed
    assert "check-" in found.undetermined["row_points"]
    assert "row_points = 2 fits them" in found.undetermined["row_points"]
