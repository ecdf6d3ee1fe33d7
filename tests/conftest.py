"""Shared test setup: Hypothesis profiles, and the browser of the page tests.

CAPSA_HYPOTHESIS_PROFILE=ci (what .ci/run selects) runs many more examples
than the default ``dev`` profile.

The tests live in folders that mirror the packages of ``python/capsa``
(``round/``, ``records/``, ``store/``, ...); the helpers beside this file
(``strategies``, ``browser_pages``, ``postgres_cluster``, ...) are imported
by name from every folder (``pythonpath`` in ``pyproject.toml``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from browser_pages import chromium
from hypothesis import HealthCheck, settings

settings.register_profile(
    "dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("CAPSA_HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One chromium through Selenium for a module of page tests."""
    with chromium() as driver:
        yield driver
