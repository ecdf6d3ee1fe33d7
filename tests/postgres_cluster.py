"""A throwaway PostgreSQL cluster for the store tests.

:func:`shared_cluster` starts one cluster per test process (each pytest-xdist
worker has its own, on a free port): ``initdb`` in a temporary directory (as
the ``postgres`` user when running as root: the server refuses root), then
``pg_ctl start`` listening on 127.0.0.1 only, with its unix socket in that
directory. It is stopped and removed when the process exits.
:func:`new_database` gives each test a database of its own. A test that
stops and starts its server (:meth:`Cluster.halt`, :meth:`Cluster.resume`)
starts a cluster of its own (:func:`start_cluster`), so that the others'
is never down.

Where no ``initdb`` is found the PostgreSQL tests skip, except under CI
(``CI`` set), where that is a failure.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from itertools import count

import pytest

__all__ = [
    "Cluster",
    "find_bin",
    "new_database",
    "private_cluster",
    "shared_cluster",
    "start_cluster",
]

_LOCK = threading.Lock()
_CLUSTER: list[Cluster] = []
_NAMES = count()


def find_bin(name: str) -> str | None:
    """A PostgreSQL program: on PATH, else in Debian's versioned directory."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_postgres(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", "postgres", "--", *argv]


@dataclass
class Cluster:
    """A running cluster: its directory and port; ``url(db)`` connects."""

    directory: str
    port: int
    pg_ctl: str
    options: str = ""

    def url(self, database: str = "postgres") -> str:
        """The URL of a database of the cluster."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def halt(self, mode: str = "fast") -> None:
        """Stops the server (``mode``: ``fast`` ends every session, as a
        restart does; ``immediate`` as a crash), keeping its data for
        :meth:`resume`. Raises ``RuntimeError`` when it does not stop."""
        result = subprocess.run(
            _as_postgres([self.pg_ctl, "stop", "-w", "-D", f"{self.directory}/data", "-m", mode]),
            capture_output=True,
            timeout=60,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"pg_ctl stop failed: {result.stderr.decode()}")

    def resume(self) -> None:
        """Starts the server :meth:`halt` stopped, on the same port. Raises
        ``RuntimeError`` when it does not start."""
        _pg_ctl_start(self.pg_ctl, self.directory, self.options)

    def stop(self) -> None:
        """Stops the server (immediately) and removes its directory."""
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            subprocess.run(
                _as_postgres(
                    [self.pg_ctl, "stop", "-D", f"{self.directory}/data", "-m", "immediate"]
                ),
                capture_output=True,
                timeout=60,
                check=False,
            )
        shutil.rmtree(self.directory, ignore_errors=True)


def start_cluster(fsync: bool = False, synchronous_commit: bool = False) -> Cluster:
    """Starts a new cluster (``fsync`` off by default: the tests kill
    clients, never the machine; ``synchronous_commit`` off by default too,
    unless a test crashes the server: a commit is then written, not
    flushed, before it returns). Raises ``RuntimeError`` when it cannot."""
    initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise FileNotFoundError("initdb")
    directory = tempfile.mkdtemp(prefix="capsa-pg-")
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres", "postgres")
    data = f"{directory}/data"
    subprocess.run(
        _as_postgres(
            [initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]
        ),
        capture_output=True,
        timeout=120,
        check=True,
    )
    port = _free_port()
    options = f"-h 127.0.0.1 -p {port} -k {directory} -c max_connections=60"
    if not fsync:
        options += " -c fsync=off -c full_page_writes=off"
        if not synchronous_commit:
            options += " -c synchronous_commit=off"
    try:
        _pg_ctl_start(pg_ctl, directory, options)
    except RuntimeError:
        shutil.rmtree(directory, ignore_errors=True)
        raise
    return Cluster(directory, port, pg_ctl, options)


def _pg_ctl_start(pg_ctl: str, directory: str, options: str) -> None:
    """Starts the cluster's server and waits until it takes connections."""
    result = subprocess.run(
        _as_postgres(
            [
                pg_ctl,
                "start",
                "-w",
                "-D",
                f"{directory}/data",
                "-o",
                options,
                "-l",
                f"{directory}/log",
            ]
        ),
        capture_output=True,
        timeout=120,
        check=False,
    )
    if result.returncode != 0:
        with open(f"{directory}/log", encoding="utf-8", errors="replace") as file:
            log = file.read()[-2000:]
        raise RuntimeError(f"pg_ctl start failed: {result.stderr.decode()} {log}")


def _started(synchronous_commit: bool = False) -> Cluster:
    """A new cluster; skips the test where PostgreSQL is not installed,
    except under CI."""
    try:
        return start_cluster(synchronous_commit=synchronous_commit)
    except FileNotFoundError:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL (initdb) is not installed: CI runs the store on it")
        pytest.skip("PostgreSQL (initdb) is not installed")


def private_cluster(synchronous_commit: bool = False) -> Cluster:
    """A cluster of the caller's own (one it may stop and start), stopped
    and removed when the process exits; skips as :func:`shared_cluster`.
    ``synchronous_commit``: for a test that crashes the server."""
    cluster = _started(synchronous_commit)
    atexit.register(cluster.stop)
    return cluster


def shared_cluster() -> Cluster:
    """This process's cluster, started on first use; skips the test where
    PostgreSQL is not installed, except under CI."""
    with _LOCK:
        if not _CLUSTER:
            cluster = _started()
            _CLUSTER.append(cluster)
            atexit.register(cluster.stop)
        return _CLUSTER[0]


def new_database(cluster: Cluster) -> str:
    """A new empty database of the cluster; its URL."""
    import psycopg

    name = f"capsa_{os.getpid()}_{next(_NAMES)}"
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return cluster.url(name)
