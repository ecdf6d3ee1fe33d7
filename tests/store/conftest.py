"""The store's tests run each test on SQLite and on PostgreSQL: ``url`` names
a fresh database of either kind, ``store`` is a store opened on it. A module
that needs another kind of database defines its own ``url`` or ``store``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from postgres_cluster import new_database, shared_cluster

import capsa.store


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/records.db"
    return new_database(shared_cluster())


@pytest.fixture
def store(url: str) -> Iterator[capsa.store.Store]:
    with capsa.store.open(url) as opened:
        yield opened
