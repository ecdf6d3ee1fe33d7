"""Shared test setup: Hypothesis profiles and the oracle.

CAPSA_HYPOTHESIS_PROFILE=ci (what .ci/run selects) runs many more examples
than the default ``dev`` profile.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("CAPSA_HYPOTHESIS_PROFILE", "dev"))
