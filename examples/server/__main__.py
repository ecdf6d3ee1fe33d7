"""``python -m examples.server``: runs the reference table server with uvicorn
(``examples/server/README.md``)."""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import secrets
import sys
from pathlib import Path
from typing import NoReturn
from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit, urlunsplit

import uvicorn

import capsa
from examples.server.app import create_app
from examples.server.heads import http_protocol
from examples.server.limits import Limits

# File descriptors the server needs besides its connections: the store's,
# the listening socket, the event loop's, logs.
_SPARE_FILES = 64


def _rules(text: str) -> capsa.Rules:
    """A preset's name, else a rules file."""
    if text in capsa.presets():
        return capsa.Rules.preset(text)
    return capsa.Rules.load(Path(text))


def shown_url(url: str) -> str:
    """``url`` with its password (in the authority or a ``password=``
    parameter) shown as ``***``."""
    parts = urlsplit(url)
    if parts.password is None and "password" not in parse_qs(parts.query):
        return url
    netloc = parts.netloc
    if parts.password is not None:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.split(':', 1)[0]}:***@{host}"
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = urlencode([(k, "***" if k == "password" else v) for k, v in pairs], safe="*")
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def _fail(message: str) -> NoReturn:
    """Stops the server before it starts: one line, exit 2."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _enough_files(limits: Limits) -> None:
    """Raises the soft limit of open files to what ``max_connections``
    needs, up to the hard limit; exits (2, one line) when it cannot."""
    need = limits.max_connections + limits.read_workers + _SPARE_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < need:
        if hard != resource.RLIM_INFINITY and hard < need:
            _fail(
                f"--max-connections {limits.max_connections} needs {need} open files; "
                f"this process may open {hard} (ulimit -n): lower it or raise the limit"
            )
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))


class _Server(uvicorn.Server):
    """uvicorn's server, which prints where it listens and its store once
    it does."""

    store_url = ""

    async def startup(self, sockets: list[object] | None = None) -> None:  # type: ignore[override]
        await super().startup(sockets)  # type: ignore[arg-type]
        if self.started and self.servers:
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            host = f"[{host}]" if ":" in host else host
            print(f"listening on http://{host}:{port}", flush=True)
            print(f"records store {shown_url(self.store_url)}", flush=True)


def _limits(args: argparse.Namespace) -> Limits:
    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(Limits)}
    try:
        return Limits(**values)
    except (capsa.ArgumentError, TypeError) as exc:
        message = str(exc)
        for name in values:  # named as the options are
            message = message.replace(name, f"--{name.replace('_', '-')}")
        _fail(message)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m examples.server", description=__doc__)
    parser.add_argument("--store", default="sqlite:///records.db", help="the records store's URL")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="0: a free port")
    parser.add_argument("--tables", type=int, default=8, help="tables t0, t1, ...")
    parser.add_argument("--table-prefix", default="t", help="the tables' ids before the number")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--stake", type=int, default=100, help="minor units a point")
    parser.add_argument("--rules", default="capsa-susun", help="a preset or a rules file")
    parser.add_argument("--deadline-ms", type=int, default=30_000, help="each round's time")
    bounds = parser.add_argument_group("bounds (docs/server.md)")
    helps = {
        "max_connections": "open connections, HTTP and WebSocket (then 503)",
        "max_listeners": "WebSockets of the tables' events in all",
        "max_table_listeners": "WebSockets of one table's events, seats' aside",
        "max_message_bytes": "a message a client sends on a WebSocket",
        "max_head_bytes": "a request's line and headers",
        "head_timeout_ms": "the time they may take to come",
        "max_body_bytes": "a request's body",
        "max_json_depth": "how deep a request's JSON body nests",
        "read_workers": "threads reading the store and drawing pages",
        "read_queue": "reads waiting or under way (then 503 Busy)",
        "page_cache": "drawn showdown pages kept",
        "spectator_interval_ms": "a spectator's events come at most this often",
    }
    for item in dataclasses.fields(Limits):
        bounds.add_argument(
            f"--{item.name.replace('_', '-')}",
            type=int,
            default=item.default,
            help=f"{helps[item.name]} (default {item.default})",
        )
    args = parser.parse_args(argv)
    limits = _limits(args)
    _enough_files(limits)
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
        limits=limits,
    )
    # Events are small JSON: compressing each costs more than it saves. No
    # access log, and no proxy headers read: the server uses no client address.
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        proxy_headers=False,
        ws_per_message_deflate=False,
        # beyond these, uvicorn answers 503 / closes with 1009 before reading
        limit_concurrency=limits.max_connections,
        ws_max_size=limits.max_message_bytes,
        ws_max_queue=1,
        # a request's head, whichever parser reads it
        http=http_protocol(limits.max_head_bytes, limits.head_timeout_ms / 1000),
        h11_max_incomplete_event_size=limits.max_head_bytes,
    )
    server = _Server(config)
    server.store_url = args.store
    server.run()


if __name__ == "__main__":
    main()
