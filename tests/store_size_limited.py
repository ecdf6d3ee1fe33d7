"""A SQLite store written past a file size limit (``RLIMIT_FSIZE``), for
store/test_full_disk.py where no small file system can be mounted.

``python store_size_limited.py DB LOG``: appends the records of the JSON
Lines ``LOG`` to the store ``DB`` with the process's file size limit a few
pages above what the store's files hold after the first three, until an
append fails; then lifts the limit (space is back) and appends the rest.
Prints one JSON line: ``{"acknowledged", "error", "message", "seconds",
"rounds_after_failure", "stored_after", "verify_ok", "rounds"}``.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
import time

import capsa.store


def main(argv: list[str]) -> int:
    path, log = argv
    with open(log, encoding="utf-8") as file:
        chain = [line.rstrip("\n") for line in file if line.strip()]
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
    store = capsa.store.open(f"sqlite:///{path}", retry_seconds=0.3)
    acknowledged = 0
    for text in chain[:3]:
        store.append(text)
        acknowledged += 1
    largest = max(os.path.getsize(path + suffix) for suffix in ("", "-wal", "-shm"))
    resource.setrlimit(resource.RLIMIT_FSIZE, (largest + 16_384, resource.RLIM_INFINITY))
    error = message = None
    failed_at = len(chain)
    started = time.monotonic()
    for k, text in enumerate(chain[3:], start=3):
        started = time.monotonic()
        try:
            store.append(text)
        except capsa.store.StoreError as exc:
            error, message, failed_at = type(exc).__name__, str(exc), k
            break
        acknowledged += 1
    seconds = time.monotonic() - started
    rounds_after_failure = store.tables()[0].rounds  # reads go on
    resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    stored_after = [store.append(text) for text in chain[failed_at:]]
    report = store.verify()
    print(
        json.dumps(
            {
                "acknowledged": acknowledged,
                "error": error,
                "message": message,
                "seconds": seconds,
                "rounds_after_failure": rounds_after_failure,
                "stored_after": stored_after,
                "verify_ok": report.ok,
                "rounds": store.tables()[0].rounds,
            }
        )
    )
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
