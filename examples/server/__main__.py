"""``python -m examples.server``: runs the reference table server with uvicorn
(``examples/server/README.md``)."""

from __future__ import annotations

import argparse
import os
import secrets
from pathlib import Path

import uvicorn

import capsa
from examples.server.app import create_app


def _rules(text: str) -> capsa.Rules:
    """A preset's name, else a rules file."""
    if text in capsa.presets():
        return capsa.Rules.preset(text)
    return capsa.Rules.load(Path(text))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m examples.server", description=__doc__)
    parser.add_argument("--store", default="sqlite:///records.db", help="the records store's URL")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--tables", type=int, default=8, help="tables t0, t1, ...")
    parser.add_argument("--table-prefix", default="t", help="the tables' ids before the number")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--stake", type=int, default=100, help="minor units a point")
    parser.add_argument("--rules", default="capsa-susun", help="a preset or a rules file")
    parser.add_argument("--deadline-ms", type=int, default=30_000, help="each round's time")
    args = parser.parse_args(argv)
    # The key seals the round states and signs the seats' tokens; from the
    # environment so that it outlives a restart (hex, 32 bytes recommended).
    key_hex = os.environ.get("CAPSA_SERVER_KEY")
    key = bytes.fromhex(key_hex) if key_hex else secrets.token_bytes(32)
    app = create_app(
        args.store,
        key,
        tables=args.tables,
        seats=args.seats,
        stake=args.stake,
        rules=_rules(args.rules),
        deadline_ms=args.deadline_ms,
        table_prefix=args.table_prefix,
    )
    # Events are small JSON: compressing each costs more than it saves. No
    # access log, and no proxy headers read: the server uses no client address.
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        proxy_headers=False,
        ws_per_message_deflate=False,
    )


if __name__ == "__main__":
    main()
