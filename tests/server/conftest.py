"""A small file system for the server's tests of a full disk."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_driver import SmallDisk, small_file_system


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    with small_file_system(tmp_path / "disk") as disk:
        yield disk
