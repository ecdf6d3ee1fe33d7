"""Opens fresh stores at given moments, for the test of many processes
opening one new store at once (store/test_outages.py).

``python store_opener.py START URL...``: at ``START + 0.4 k`` seconds
(Unix time) opens the k-th URL's store (making its tables) and closes it;
prints one JSON line per URL, ``{"url", "error"}`` (``error`` None, or the
error's class and message).
"""

from __future__ import annotations

import json
import sys
import time

import capsa.store


def main(argv: list[str]) -> int:
    start = float(argv[0])
    for k, url in enumerate(argv[1:]):
        time.sleep(max(0.0, start + 0.4 * k - time.time()))
        error = None
        try:
            capsa.store.open(url).close()
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
        print(json.dumps({"url": url, "error": error}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
