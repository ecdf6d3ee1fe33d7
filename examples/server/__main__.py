"""``python -m examples.server``: runs the reference table server with uvicorn
(``examples/server/README.md``)."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import resource
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import NoReturn
from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit, urlunsplit

try:
    import uvicorn
except ModuleNotFoundError:  # the core install alone: name the extra, not only the module
    sys.exit("error: the server needs uvicorn and Starlette: pip install 'capsa[server]'")

import capsa
import capsa.store
from examples.server.app import create_app
from examples.server.heads import http_protocol
from examples.server.limits import Limits
from examples.server.recorder import STORE_RETRY_SECONDS
from examples.server.tables import AUTO_ARRANGE
from examples.server.tenancy import Tenancy, new_holder

# File descriptors the server needs besides its connections: the store's,
# the listening socket, the event loop's, logs.
_SPARE_FILES = 64
_SWITCH_SECONDS = 0.001


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
    """uvicorn's server, which prints where it listens, its store, its
    set-aside file and its lease holder once it does, and stops the tables
    opening rounds as soon as it is told to stop."""

    store_url = ""
    set_aside = ""
    holder = ""
    on_exit: Callable[[], None] | None = None

    async def startup(self, sockets: list[object] | None = None) -> None:  # type: ignore[override]
        await super().startup(sockets)  # type: ignore[arg-type]
        if self.started and self.servers:
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            host = f"[{host}]" if ":" in host else host
            print(f"listening on http://{host}:{port}", flush=True)
            print(f"records store {shown_url(self.store_url)}", flush=True)
            print(f"set-aside file {self.set_aside}", flush=True)
            print(f"lease holder {self.holder}", flush=True)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.on_exit is not None:
            self.on_exit()
        super().handle_exit(sig, frame)


def _key(variable: str) -> bytes | None:
    """The key the environment's ``variable`` holds (hex), if set."""
    text = os.environ.get(variable)
    if not text:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        _fail(f"{variable} is not hex")


def _claim(url: str, store_key: bytes | None, tenancy: Tenancy) -> None:
    """Takes the tables' leases before the server starts (a lease of a
    server of this host that is gone is waited out); stops (exit 2, one
    line) when another live server holds one, or the store cannot be
    opened."""
    try:
        with capsa.store.open(url, key=store_key, retry_seconds=STORE_RETRY_SECONDS) as store:
            tenancy.claim(store, say=lambda line: print(line, file=sys.stderr, flush=True))
    except capsa.store.LeaseError as exc:
        _fail(f"another server holds table {exc.table_id!r}: {exc}")
    except capsa.CapsaError as exc:
        _fail(f"the records store {shown_url(url)}: {exc}")


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
    parser.add_argument(
        "--seed-ms", type=int, default=5_000, help="the seed window, from a round's start"
    )
    parser.add_argument(
        "--deadline-ms", type=int, default=30_000, help="the arrangement window, from the deal"
    )
    parser.add_argument(
        "--auto-arrange",
        choices=AUTO_ARRANGE,
        default="solver",
        help="what arranges a seat that did not submit",
    )
    parser.add_argument(
        "--lease-ms", type=int, default=30_000, help="the tables' leases, renewed every third"
    )
    parser.add_argument(
        "--stop-ms",
        type=int,
        default=10_000,
        help="how long a stop waits for the store to take what is queued",
    )
    parser.add_argument(
        "--set-aside-file",
        default="capsa-set-aside.jsonl",
        help="records the store refuses even to set aside (JSON Lines)",
    )
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
    # the server's alarms (capsa.server) and the store's warnings
    # (capsa.store) on standard error, with their level and time
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    limits = _limits(args)
    for option, least in (("seed_ms", 1), ("deadline_ms", 1), ("lease_ms", 300), ("stop_ms", 0)):
        if getattr(args, option) < least:
            _fail(f"--{option.replace('_', '-')} must be at least {least}")
    _enough_files(limits)
    # The key seals the round states and signs the seats' tokens; from the
    # environment so that it outlives a restart (hex, 32 bytes recommended).
    key = _key("CAPSA_SERVER_KEY") or secrets.token_bytes(32)
    store_key = _key("CAPSA_STORE_KEY")
    try:
        rules = _rules(args.rules)
    except (capsa.CapsaError, OSError) as exc:
        _fail(f"--rules {args.rules}: {exc}")
    table_ids = [f"{args.table_prefix}{n}" for n in range(args.tables)]
    tenancy = Tenancy(table_ids, new_holder(), args.lease_ms)
    _claim(args.store, store_key, tenancy)
    set_aside = Path(args.set_aside_file).resolve()
    app = create_app(
        args.store,
        key,
        tables=args.tables,
        seats=args.seats,
        stake=args.stake,
        rules=rules,
        deadline_ms=args.deadline_ms,
        seed_ms=args.seed_ms,
        auto_arrange=args.auto_arrange,
        table_prefix=args.table_prefix,
        limits=limits,
        store_key=store_key,
        holder=tenancy.holder,
        lease_ms=args.lease_ms,
        set_aside_path=set_aside,
        stop_seconds=args.stop_ms / 1000,
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
    # The event loop shares the GIL with the threads of the reads (a page
    # drawn holds it for a millisecond or two), of the leases and of the
    # recorder's other operations: each waiting for it gets it after at
    # most the switch interval (5 ms by default), and the loop's requests
    # wait as long for it back. 1 ms bounds both.
    sys.setswitchinterval(_SWITCH_SECONDS)
    server = _Server(config)
    server.store_url = args.store
    server.set_aside = str(set_aside)
    server.holder = tenancy.holder
    server.on_exit = app.state.hall.stop_opening
    server.run()


if __name__ == "__main__":
    main()
