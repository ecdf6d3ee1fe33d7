"""A SQLite store on a full file system: the append that does not fit fails
with a typed error and leaves nothing half-written, every record
acknowledged before it is kept, reads go on, and the store writes again
once there is space.

Two ways to fill the disk: a small tmpfs mounted for the test (needs root
and a machine that lets it mount: skipped elsewhere), and, everywhere, a
process file size limit (``RLIMIT_FSIZE``, in a subprocess), under which
the write fails as a full disk's would but SQLite reports an I/O error
(``EFBIG``) rather than a full disk (``ENOSPC``).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_records import make_chain

import capsa.store
from capsa.store import DatabaseUnavailableError, DiskFullError

TESTS = Path(__file__).parents[1]
CHUNK = 16_384


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """An 8 MiB tmpfs mounted for the test (room for the write-ahead log to grow to
    its checkpoint once space is back)."""
    mount = shutil.which("mount")
    if os.geteuid() != 0 or mount is None:
        pytest.skip("mounting a tmpfs needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    made = subprocess.run(
        [mount, "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(disk)],
        capture_output=True,
        check=False,
    )
    if made.returncode != 0:
        pytest.skip(f"this machine does not let a tmpfs be mounted: {made.stderr.decode()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True, check=False)


def _fill(path: Path) -> None:
    """Writes ``path`` until the file system is full."""
    with open(path, "wb", buffering=0) as file:
        while True:
            try:
                file.write(b"\0" * CHUNK)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
                break


def test_sqlite_on_a_full_tmpfs(small_disk: Path) -> None:
    chain = make_chain("full", 40)
    store = capsa.store.open(f"sqlite:///{small_disk}/records.db", retry_seconds=5)
    try:
        for text in chain[:3]:
            assert store.append(text)
        _fill(small_disk / "filler")
        acknowledged = 3
        started = time.monotonic()
        with pytest.raises(DiskFullError) as caught:
            for text in chain[3:]:
                started = time.monotonic()
                store.append(text)  # a few may fit in the pages the files hold
                acknowledged += 1
        assert time.monotonic() - started < 2  # at once, not after retry_seconds
        assert acknowledged < len(chain)
        message = str(caught.value)
        assert "is full" in message and "nothing of this write was stored" in message
        assert "database or disk is full" in message and "\n" not in message
        assert isinstance(caught.value, DatabaseUnavailableError)
        # nothing half-written, and reads go on
        [table] = store.tables()
        assert table.rounds == acknowledged
        assert store.get("full", f"full/r{acknowledged - 1}") is not None
        assert store.get("full", f"full/r{acknowledged}") is None
        assert store.verify().ok
        (small_disk / "filler").unlink()  # space is back
        assert all(store.append(text) for text in chain[acknowledged:])
        assert store.tables()[0].rounds == len(chain) and store.verify().ok
    finally:
        store.close()


def test_sqlite_past_a_file_size_limit(tmp_path: Path) -> None:
    chain = make_chain("limited", 40)
    log = tmp_path / "chain.jsonl"
    log.write_text("".join(t + "\n" for t in chain), "utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), *sys.path])
    result = subprocess.run(
        [sys.executable, str(TESTS / "store_size_limited.py"), str(tmp_path / "r.db"), str(log)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    # EFBIG is SQLite's "disk I/O error": tried again on new connections for
    # retry_seconds (0.3 s), then the database is unavailable
    assert report["error"] == "DatabaseUnavailableError", report
    assert "disk I/O error" in report["message"] and report["seconds"] < 3
    assert 3 <= report["acknowledged"] < len(chain)
    assert report["rounds_after_failure"] == report["acknowledged"]
    assert report["stored_after"] == [True] * (len(chain) - report["acknowledged"])
    assert report["verify_ok"] and report["rounds"] == len(chain)
