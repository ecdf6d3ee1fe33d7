"""Runs the reference table server in a subprocess on a free loopback port,
for its tests and its benchmark."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import httpx

__all__ = ["STORE_KEY_HEX", "Serving", "serving"]

REPO = Path(__file__).resolve().parents[2]
STORE_KEY_HEX = "33" * 32
"""The store key of a test or benchmark server (``CAPSA_STORE_KEY``)."""


@dataclass(frozen=True)
class Serving:
    """A running server: its base URL and its process."""

    url: str
    process: subprocess.Popen[bytes]

    def cpu_seconds(self) -> float:
        """The CPU time the server's process and the processes it runs (its
        commits') have used (Linux)."""
        return sum(_cpu_seconds(pid) for pid in (self.process.pid, *self.children()))

    def children(self) -> list[int]:
        """The processes the server runs (Linux)."""
        children = []
        for task in Path(f"/proc/{self.process.pid}/task").glob("*"):
            try:
                children += [int(pid) for pid in (task / "children").read_text().split()]
            except OSError:
                continue
        return children


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def serving(
    store_url: str,
    *options: str,
    key_hex: str = "11" * 32,
    store_key_hex: str = STORE_KEY_HEX,
) -> Iterator[Serving]:
    """Starts ``python -m examples.server --store store_url *options`` on a
    free port (``key_hex`` the server's key, ``store_key_hex`` the store
    key) and yields it once it answers; stops it (SIGTERM, then SIGKILL)
    on the way out."""
    env = dict(os.environ, CAPSA_SERVER_KEY=key_hex, CAPSA_STORE_KEY=store_key_hex)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO / "python"), str(REPO), env.get("PYTHONPATH")) if p
    )
    argv = [sys.executable, "-m", "examples.server", "--store", store_url, "--port", "0"]
    server = subprocess.Popen([*argv, *options], cwd=REPO, env=env, stdout=subprocess.PIPE)
    try:
        base = _listening(server)
        _wait_until_up(base, server)
        yield Serving(base, server)
    finally:
        server.terminate()
        try:
            # the server flushes its queued records before it exits
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _pump(stream: IO[bytes], lines: queue.Queue[bytes]) -> None:
    """Puts each line of ``stream`` in ``lines`` (on a thread of its own)."""
    for line in stream:
        lines.put(line)


def _listening(server: subprocess.Popen[bytes]) -> str:
    """The base URL the server prints first (``listening on URL``); the
    rest of what it prints is read and dropped."""
    lines: queue.Queue[bytes] = queue.Queue()
    stdout = server.stdout
    assert stdout is not None
    threading.Thread(target=_pump, args=(stdout, lines), daemon=True).start()
    try:
        first = lines.get(timeout=60).decode()
    except queue.Empty:
        raise RuntimeError("the server did not say where it listens within 60 s") from None
    if not first.startswith("listening on "):
        raise RuntimeError(f"the server said {first!r}, not where it listens")
    return first.removeprefix("listening on ").strip()


def _wait_until_up(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/tables", timeout=2).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError("the server did not answer within 60 s")
