"""Every class of malformed request to the reference table server gets a 4xx
with a typed JSON error naming what was wrong, never a traceback or a 500."""

from __future__ import annotations

import asyncio
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx
import pytest
import websockets

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from postgres_cluster import new_database, shared_cluster  # noqa: E402

from examples.server.app import MAX_BODY  # noqa: E402
from examples.server.process import serving  # noqa: E402


@dataclass
class Table:
    """A table of the test server whose round is dealt: its seats' tokens
    and hands."""

    base: str
    table: str
    round_id: str
    tokens: list[str]
    hands: list[list[str]]

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def arrangement(self, seat: int) -> str:
        hand = self.hands[seat]
        return f"{' '.join(hand[:3])} / {' '.join(hand[3:8])} / {' '.join(hand[8:])}"


def _round_shown(http: httpx.Client, table: str) -> str:
    """The id of the table's round once it is shown: a round is shown once
    its opening is stored."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = http.get(f"/tables/{table}").json()
        if state["status"] == "playing":
            return str(state["round_id"])
        time.sleep(0.01)
    raise AssertionError(f"table {table} shows no round")


def _seat_and_deal(base: str, table: str) -> Table:
    with httpx.Client(base_url=base) as http:
        tokens = [
            http.post(f"/tables/{table}/join", json={"player": f"{table}-{k}"}).json()["token"]
            for k in range(4)
        ]
        round_id = _round_shown(http, table)
        hands = []
        for seat, token in enumerate(tokens):
            auth = {"Authorization": f"Bearer {token}"}
            body = {"round_id": round_id, "seed": f"seed-{seat}"}
            assert http.post(
                f"/tables/{table}/seats/{seat}/seed", json=body, headers=auth
            ).is_success
        for seat, token in enumerate(tokens):
            auth = {"Authorization": f"Bearer {token}"}
            view = http.get(f"/tables/{table}/seats/{seat}/view", headers=auth).json()
            assert view["phase"] == "dealt"
            hands.append(view["hand"])
    return Table(base, table, round_id, tokens, hands)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = f"sqlite:///{tmp_path_factory.mktemp('store')}/records.db"
    # a deadline far off: nothing closes unless every seat has submitted
    with serving(url, "--tables", "3", "--deadline-ms", "600000") as served:
        yield served.url


@pytest.fixture(scope="module")
def dealt(base_url: str) -> Table:
    return _seat_and_deal(base_url, "t0")


def _submit(t: Table, seat: int, body: object, auth_seat: int | None = None) -> dict[str, Any]:
    headers = t.auth(seat if auth_seat is None else auth_seat)
    return {
        "method": "POST",
        "url": f"/tables/t0/seats/{seat}/submit",
        "json": body,
        "headers": headers,
    }


def _join(text: str) -> dict[str, Any]:
    """A join at table t2 (which nobody joins), its body ``text``."""
    return {"method": "POST", "url": "/tables/t2/join", "content": text.encode()}


def _chunks() -> Iterator[bytes]:
    for _ in range(MAX_BODY // 1000 + 2):
        yield b" " * 1000


# name -> (the request, as httpx.request's arguments, made from the table; status; type)
CASES: dict[str, tuple[Any, int, str]] = {
    "bad json": (
        lambda t: {**_submit(t, 0, None), "json": None, "content": b'{"round_id": '},
        400,
        "BadJson",
    ),
    "json not an object": (lambda t: _submit(t, 0, [1, 2]), 400, "BadJson"),
    "missing field": (lambda t: _submit(t, 0, {"round_id": t.round_id}), 400, "MissingField"),
    "wrong type": (
        lambda t: _submit(t, 0, {"round_id": t.round_id, "arrangement": 13}),
        422,
        "WrongType",
    ),
    "wrong type bool": (
        lambda t: _submit(t, 0, {"round_id": True, "arrangement": "x"}),
        422,
        "WrongType",
    ),
    "unknown table": (
        lambda t: {"method": "POST", "url": "/tables/t9/join", "json": {"player": "x"}},
        404,
        "UnknownTable",
    ),
    "unknown seat": (
        lambda t: {"method": "GET", "url": "/tables/t0/seats/7/view", "headers": t.auth(0)},
        404,
        "UnknownSeat",
    ),
    "seat not a number": (
        lambda t: {"method": "GET", "url": "/tables/t0/seats/x/view", "headers": t.auth(0)},
        404,
        "UnknownSeat",
    ),
    "someone else's seat": (
        lambda t: _submit(t, 1, {"round_id": t.round_id, "arrangement": t.arrangement(1)}, 0),
        403,
        "NotYourSeat",
    ),
    "no token": (
        lambda t: {"method": "GET", "url": "/tables/t0/seats/0/view"},
        401,
        "MissingToken",
    ),
    "cards not dealt to the seat": (
        lambda t: _submit(t, 0, {"round_id": t.round_id, "arrangement": t.arrangement(1)}),
        422,
        "HandError",
    ),
    "unreadable cards": (
        lambda t: _submit(t, 0, {"round_id": t.round_id, "arrangement": "Zz / Qq / 11"}),
        422,
        "CardError",
    ),
    "another round's submission": (
        lambda t: _submit(t, 0, {"round_id": "t0-r0", "arrangement": t.arrangement(0)}),
        409,
        "StaleRound",
    ),
    "seed after the deal": (
        lambda t: {
            "method": "POST",
            "url": "/tables/t0/seats/0/seed",
            "json": {"round_id": t.round_id, "seed": "late"},
            "headers": t.auth(0),
        },
        409,
        "RoundError",
    ),
    "oversized body": (
        lambda t: {**_submit(t, 0, None), "json": None, "content": b" " * (MAX_BODY + 1)},
        413,
        "BodyTooLarge",
    ),
    "oversized body without a length": (
        lambda t: {**_submit(t, 0, None), "json": None, "content": _chunks()},
        413,
        "BodyTooLarge",
    ),
    "table full": (
        lambda t: {"method": "POST", "url": "/tables/t0/join", "json": {"player": "late"}},
        409,
        "TableFull",
    ),
    "empty player id": (
        lambda t: {"method": "POST", "url": "/tables/t0/join", "json": {"player": ""}},
        422,
        "BadPlayer",
    ),
    "player id with a control character": (
        lambda t: {"method": "POST", "url": "/tables/t0/join", "json": {"player": "a\nb"}},
        422,
        "BadPlayer",
    ),
    "player id with a lone surrogate": (
        lambda t: {
            "method": "POST",
            "url": "/tables/t0/join",
            "content": b'{"player": "a\\ud800"}',
            "headers": {"content-type": "application/json"},
        },
        422,
        "BadPlayer",
    ),
    "name with a lone surrogate": (
        lambda t: {
            "method": "POST",
            "url": "/tables/t0/join",
            "content": b'{"player": "a", "name": "\\udfff"}',
            "headers": {"content-type": "application/json"},
        },
        422,
        "BadPlayer",
    ),
    "name of the wrong type": (
        lambda t: {"method": "POST", "url": "/tables/t0/join", "json": {"player": "a", "name": 1}},
        422,
        "WrongType",
    ),
    "unknown round": (
        lambda t: {"method": "GET", "url": "/tables/t0/rounds/t0-r99/record"},
        404,
        "UnknownRound",
    ),
    "unknown language": (
        lambda t: {"method": "GET", "url": "/tables/t0/rounds/t0-r1/showdown?lang=xx"},
        422,
        "UnknownLanguage",
    ),
    "unknown route": (lambda t: {"method": "GET", "url": "/nowhere"}, 404, "NotFound"),
    "a body nested 1,000 deep": (
        lambda t: _join("[" * 1000 + "]" * 1000),
        400,
        "JsonTooDeep",
    ),
    "an object nested 1,000 deep": (
        lambda t: _join('{"a":' * 1000 + "1" + "}" * 1000),
        400,
        "JsonTooDeep",
    ),
    "a body in UTF-16": (
        lambda t: {**_join(""), "content": '{"player": "u16"}'.encode("utf-16")},
        400,
        "BadJson",
    ),
    "a body in Latin-1": (
        lambda t: {**_join(""), "content": '{"player": "é"}'.encode("latin-1")},
        400,
        "BadJson",
    ),
    "a player id with a lone surrogate": (
        lambda t: {**_join(""), "content": b'{"player": "a\\ud800"}'},
        422,
        "BadPlayer",
    ),
    "a name with a lone surrogate": (
        lambda t: {**_join(""), "content": b'{"player": "a", "name": "\\udfff"}'},
        422,
        "BadPlayer",
    ),
    "a player id holding U+0000": (
        lambda t: {**_join(""), "content": b'{"player": "a\\u0000b"}'},
        422,
        "BadPlayer",
    ),
    "a player id of 257 bytes": (
        lambda t: _join('{"player": "' + "\u00e9" * 128 + 'x"}'),
        422,
        "BadPlayer",
    ),
    "a seat path that is a superscript digit": (
        lambda t: {"method": "GET", "url": "/tables/t0/seats/%C2%B2/view", "headers": t.auth(0)},
        404,
        "UnknownSeat",
    ),
    "a seat path of 5,000 digits": (
        lambda t: {
            "method": "GET",
            "url": f"/tables/t0/seats/{'1' * 5000}/view",
            "headers": t.auth(0),
        },
        404,
        "UnknownSeat",
    ),
    "a seat path of Arabic-Indic digits": (
        lambda t: {"method": "GET", "url": "/tables/t0/seats/%D9%A1/view", "headers": t.auth(0)},
        404,
        "UnknownSeat",
    ),
    "a token of other than ASCII": (
        lambda t: {
            "method": "GET",
            "url": "/tables/t0/seats/0/view",
            "headers": {"Authorization": "Bearer \u00e9t\u00e9".encode("latin-1")},
        },
        403,
        "NotYourSeat",
    ),
    "a balance of a player id holding U+0000": (
        lambda t: {"method": "GET", "url": "/players/a%00b/balance"},
        422,
        "BadPlayer",
    ),
    "wrong method": (
        lambda t: {"method": "DELETE", "url": "/tables/t0"},
        405,
        "MethodNotAllowed",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_malformed_request_gets_its_typed_error(name: str, dealt: Table) -> None:
    make, status, kind = CASES[name]
    with httpx.Client(base_url=dealt.base) as http:
        response = http.request(**make(dealt))
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()["error"]
    assert error["type"] == kind
    assert error["message"] and "Traceback" not in error["message"]


def test_refused_requests_change_nothing(dealt: Table) -> None:
    with httpx.Client(base_url=dealt.base) as http:
        response = http.get("/tables/t0/seats/0/view", headers=dealt.auth(0))
    view = response.json()
    assert view["round_id"] == dealt.round_id
    assert view["phase"] == "dealt" and view["arrangement"] is None


def test_a_submission_after_the_close_is_late(base_url: str) -> None:
    t = _seat_and_deal(base_url, "t1")
    with httpx.Client(base_url=base_url) as http:
        for seat in range(4):
            body = {"round_id": t.round_id, "arrangement": t.arrangement(seat)}
            path = f"/tables/t1/seats/{seat}/submit"
            assert http.post(path, json=body, headers=t.auth(seat)).is_success
        # every seat submitted: the round closed and settled; its record is
        # stored right after
        for _ in range(100):
            if http.get(f"/tables/t1/rounds/{t.round_id}/record").is_success:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the settled round was not stored")
        body = {"round_id": t.round_id, "arrangement": t.arrangement(0)}
        late = http.post("/tables/t1/seats/0/submit", json=body, headers=t.auth(0))
    assert late.status_code == 409
    assert late.json()["error"]["type"] == "StaleRound"


def test_events_of_an_unknown_table_are_refused(base_url: str) -> None:
    async def connect() -> None:
        async with websockets.connect(base_url.replace("http", "ws") + "/tables/t9/events") as ws:
            await ws.recv()

    with pytest.raises((websockets.InvalidStatus, websockets.ConnectionClosed)):
        asyncio.run(connect())


def test_the_tables_state_and_a_seats_view_show_no_other_cards(dealt: Table) -> None:
    with httpx.Client(base_url=dealt.base) as http:
        public = http.get("/tables/t0").text
        response = http.get("/tables/t0/seats/0/view", headers=dealt.auth(0))
    view = response.json()
    # cards as JSON strings: a card's text alone may occur in a hex digest
    assert not any(f'"{card}"' in public for hand in dealt.hands for card in hand)
    assert "server_seed" not in public
    assert view["hand"] == dealt.hands[0] and view["record"] is None
    assert not any(f'"{card}"' in response.text for card in dealt.hands[1])


@dataclass
class StartedOnPostgres:
    """A server on a PostgreSQL store whose URL holds a password: what it
    printed at start, and its base URL."""

    lines: list[str]
    base: str
    password: str


def _pump(stream: IO[str], lines: queue.Queue[str]) -> None:
    """Puts each line of ``stream`` in ``lines`` (on a thread of its own)."""
    for line in stream:
        lines.put(line)


def _first_lines(process: subprocess.Popen[str], count: int) -> list[str]:
    """The first ``count`` lines ``process`` prints, waiting a minute at most."""
    lines: queue.Queue[str] = queue.Queue()
    stdout = process.stdout
    assert stdout is not None
    threading.Thread(target=_pump, args=(stdout, lines), daemon=True).start()
    try:
        return [lines.get(timeout=60).rstrip("\n") for _ in range(count)]
    except queue.Empty:
        raise AssertionError("the server did not print where it listens") from None


@pytest.fixture(scope="module")
def on_postgres() -> Iterator[StartedOnPostgres]:
    url = new_database(shared_cluster())  # trusts local connections: any password
    password = "s3cret-of-the-store"
    url = url.replace("postgresql://postgres@", f"postgresql://postgres:{password}@")
    env = dict(os.environ, CAPSA_SERVER_KEY="22" * 32)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO / "python"), str(REPO), env.get("PYTHONPATH")) if p
    )
    argv = [sys.executable, "-m", "examples.server", "--store", url, "--port", "0"]
    server = subprocess.Popen(
        [*argv, "--tables", "1"], cwd=REPO, env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        lines = _first_lines(server, 2)
        base = lines[0].removeprefix("listening on ")
        yield StartedOnPostgres(lines, base, password)
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_the_server_prints_its_url_and_its_store_without_the_password(
    on_postgres: StartedOnPostgres,
) -> None:
    listening, store = on_postgres.lines
    assert listening.startswith("listening on http://127.0.0.1:")
    assert httpx.get(f"{on_postgres.base}/tables").status_code == 200
    assert store.startswith("records store postgresql://postgres:***@127.0.0.1:")
    assert on_postgres.password not in store


@pytest.mark.parametrize(
    ("path", "status", "kind"),
    [
        ("/tables/t0/rounds/t0-r1%00/record", 404, "UnknownRound"),
        ("/tables/t0/rounds/%00/showdown", 404, "UnknownRound"),
        ("/tables/t0/rounds/t0-r1%0A/record", 404, "UnknownRound"),
        (f"/tables/t0/rounds/{'r' * 257}/record", 404, "UnknownRound"),
        ("/players/p%00/balance", 422, "BadPlayer"),
    ],
)
def test_a_path_no_id_can_have_is_refused_before_the_store(
    on_postgres: StartedOnPostgres, path: str, status: int, kind: str
) -> None:
    # PostgreSQL refuses U+0000 in text: asked, the store would fail
    response = httpx.get(f"{on_postgres.base}{path}")
    assert response.status_code == status, response.text
    assert response.json()["error"]["type"] == kind
