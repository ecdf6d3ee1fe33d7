"""The HTTP and WebSocket API of the reference table server
(``examples/server/README.md`` lists the routes)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

import capsa
from capsa.ids import check_player_id, check_player_name, check_round_id
from capsa.render import LANGUAGES
from examples.server.errors import ApiError, error_response, reason_of
from examples.server.events import EventHub
from examples.server.health import health
from examples.server.limits import Limits
from examples.server.reading import field, read_body, seat_number
from examples.server.reads import Reads
from examples.server.recorder import Recorder
from examples.server.tables import Table, TableHall, now_ms
from examples.server.tenancy import Tenancy, new_holder

__all__ = ["MAX_BODY", "create_app"]

MAX_BODY = Limits.max_body_bytes  # bytes: a seed or an arrangement is a few dozen
_LOG = logging.getLogger("capsa.server")
Endpoint = Callable[[Request], Awaitable[Response]]


def create_app(
    store_url: str,
    key: bytes,
    *,
    tables: int = 8,
    seats: int = 4,
    stake: int = 100,
    rules: capsa.Rules | None = None,
    deadline_ms: int = 30_000,
    seed_ms: int = 5_000,
    auto_arrange: str = "solver",
    table_prefix: str = "t",
    limits: Limits | None = None,
    store_key: bytes | None = None,
    holder: str | None = None,
    lease_ms: int = 30_000,
    set_aside_path: Path | None = None,
    stop_seconds: float = 10.0,
) -> Starlette:
    """The server's application: ``tables`` tables ``t0``, ``t1``, ... (or
    ``table_prefix`` then the number) of ``seats`` seats at ``stake`` minor
    units a point under ``rules``; each round's seed window is ``seed_ms``
    from its publication (a seat that sends no seed is dealt without it),
    its arrangement window ``deadline_ms`` from its deal, and a seat that
    did not submit by then is arranged by ``auto_arrange`` (``"solver"``,
    ``"greedy"`` or ``"foul"``, named in each record); records in
    the store at ``store_url``, its heads signed under ``store_key`` when
    given; the tables leased to ``holder`` (default: this host, process
    and a random part) ``lease_ms`` at a time; a record the store refuses
    set aside in the store, else in the JSON Lines file
    ``set_aside_path``; at a stop, what is queued is stored for at most
    ``stop_seconds``. ``key`` (at least 16 bytes) seals the rounds' states
    and signs the seats' tokens; ``limits`` bound what the application
    holds (uvicorn's own bounds are set by ``python -m examples.server``
    from the same :class:`Limits`). The application's ``state.hall`` is its
    :class:`TableHall`. Its start raises ``LeaseError`` for a table another
    live server leases."""
    limits = limits or Limits()
    hub = EventHub(
        max_listeners=limits.max_listeners,
        max_table_listeners=limits.max_table_listeners,
        spectator_interval=limits.spectator_interval_ms / 1000,
    )
    table_ids = [f"{table_prefix}{n}" for n in range(tables)]
    tenancy = Tenancy(table_ids, holder or new_holder(), lease_ms)
    hall = TableHall(
        key=key,
        rules=rules or capsa.Rules(),
        seats=seats,
        stake=stake,
        deadline_ms=deadline_ms,
        seed_ms=seed_ms,
        auto_arrange=auto_arrange,
        publish=hub.publish,
        recorder=Recorder(tenancy, set_aside_path),
    )
    reads = Reads(workers=limits.read_workers, queue=limits.read_queue, cache=limits.page_cache)
    tick_ms = max(1, min(50, seed_ms // 4, deadline_ms // 4))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hall.open(store_url, table_ids, store_key=store_key)
        await reads.open(store_url)
        tasks = [
            asyncio.create_task(_tick_forever(hall, tick_ms)),
            asyncio.create_task(_keep_leases(hall, tenancy)),
        ]
        try:
            yield
        finally:
            hall.stop_opening()
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await hall.close(stop_seconds)
            await reads.close()
            hub.close_all()

    async def body(request: Request) -> dict[str, Any]:
        return await read_body(request, limits.max_body_bytes, limits.max_json_depth)

    # the routes a round uses come first: Starlette tries them in order
    routes = [
        Route(
            "/tables/{table}/seats/{seat}/seed",
            _api(lambda r: _seed(hall, r, body)),
            methods=["POST"],
        ),
        Route("/tables/{table}/seats/{seat}/view", _api(lambda r: _view(hall, r)), methods=["GET"]),
        Route(
            "/tables/{table}/seats/{seat}/submit",
            _api(lambda r: _submit(hall, r, body)),
            methods=["POST"],
        ),
        Route("/tables", _api(lambda r: _tables(hall)), methods=["GET"]),
        Route("/tables/{table}", _api(lambda r: _table(hall, r)), methods=["GET"]),
        Route("/tables/{table}/join", _api(lambda r: _join(hall, r, body)), methods=["POST"]),
        Route(
            "/tables/{table}/rounds/{round_id}/record",
            _api(lambda r: _record(hall, reads, r)),
            methods=["GET"],
        ),
        Route(
            "/tables/{table}/rounds/{round_id}/showdown",
            _api(lambda r: _showdown(hall, reads, r)),
            methods=["GET"],
        ),
        Route("/players/{player}/balance", _api(lambda r: _balance(reads, r)), methods=["GET"]),
        Route("/health", _api(lambda r: _health(hall, tenancy)), methods=["GET"]),
        WebSocketRoute("/tables/{table}/events", lambda ws: _events(hall, hub, ws)),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: _http_error},  # type: ignore[dict-item]
    )
    app.state.hall = hall
    return app


async def _tick_forever(hall: TableHall, every_ms: int) -> None:
    """Deals the rounds whose seed window ended and closes those whose
    arrangement window ended, so a player who never comes back never
    stalls a table (a table whose round fails is paused)."""
    while True:
        await asyncio.sleep(every_ms / 1000)
        hall.tick(now_ms())


async def _keep_leases(hall: TableHall, tenancy: Tenancy) -> None:
    """Renews the tables' leases every third of their time (sooner again
    after a renewal failed), on a thread of its own so that a long write
    does not hold it up; a table whose lease another server took is
    paused."""
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(1, thread_name_prefix="capsa-leases") as thread:
        while True:
            wait = tenancy.ttl_ms / 3000
            if tenancy.failing is not None:
                wait = min(1.0, wait / 2)
            await asyncio.sleep(wait)
            store = hall.recorder.store
            try:
                lost = await loop.run_in_executor(thread, tenancy.renew, store)
            except Exception as exc:  # the store away: tried again soon
                if tenancy.failing is None:
                    _LOG.error("ALARM: the leases could not be renewed: %s", reason_of(exc))
                tenancy.failing = reason_of(exc)
                continue
            tenancy.failing = None
            for table_id, refusal in lost:
                hall.table(table_id).pause(f"its lease was lost: {refusal}")


async def _health(hall: TableHall, tenancy: Tenancy) -> Response:
    status, body = health(hall, tenancy)
    return JSONResponse(body, status_code=status)


def _api(handler: Callable[[Request], Awaitable[Any]]) -> Endpoint:
    """An endpoint answering ``handler``'s value as JSON (a Response as it
    is) and any error as its typed JSON error."""

    async def endpoint(request: Request) -> Response:
        try:
            value = await handler(request)
        except Exception as exc:  # every error has its JSON answer
            return error_response(exc)
        return value if isinstance(value, Response) else JSONResponse(value)

    return endpoint


async def _http_error(request: Request, exc: HTTPException) -> Response:
    kinds = {404: "NotFound", 405: "MethodNotAllowed"}
    error = ApiError(exc.status_code, kinds.get(exc.status_code, "HTTPError"), str(exc.detail))
    return error_response(error)


def _seat_of(hall: TableHall, request: Request) -> tuple[Table, int]:
    """The table and the seat of the path, the seat's token checked."""
    table = hall.table(request.path_params["table"])
    seat = seat_number(request.path_params["seat"])
    table.check_seat(seat, _token(request.headers.get("authorization", "")))
    return table, seat


def _token(authorization: str) -> str | None:
    """The token of an ``Authorization: Bearer`` header (None: none); one
    of other than ASCII is no seat's, and no text to compare."""
    if not authorization.startswith("Bearer "):
        return None
    token = authorization[len("Bearer ") :]
    return token if token.isascii() else ""


def _round_id_of(table: Table, request: Request) -> str:
    """The round id of the path: one no round can have (a control
    character, over 256 bytes) is 404 ``UnknownRound`` without asking the
    store."""
    round_id = request.path_params["round_id"]
    try:
        return check_round_id(round_id)
    except capsa.ArgumentError as exc:
        shown = round_id if len(round_id) <= 64 else f"{round_id[:64]}..."
        raise ApiError(
            404, "UnknownRound", f"table {table.table_id!r} has no round {shown!r}: {exc}"
        ) from None


def _player(value: Any, field_name: str, check: Callable[[Any, str], Any]) -> Any:
    """``check(value, field_name)``, its refusal a 422 ``BadPlayer``."""
    try:
        return check(value, field_name)
    except capsa.ArgumentError as exc:
        raise ApiError(422, "BadPlayer", str(exc)) from None


# ------------------------------------------------------------ endpoints

Body = Callable[[Request], Awaitable[dict[str, Any]]]


async def _tables(hall: TableHall) -> Any:
    return [table.public() for table in hall.tables.values()]


async def _table(hall: TableHall, request: Request) -> Any:
    return hall.table(request.path_params["table"]).public()


async def _join(hall: TableHall, request: Request, body: Body) -> Any:
    table = hall.table(request.path_params["table"])
    fields = await body(request)
    player = _player(field(fields, "player", str), "player", check_player_id)
    name = _player(field(fields, "name", str, optional=True), "name", check_player_name)
    seat = table.join(player, name)
    return {"table_id": table.table_id, "seat": seat, "token": table.token(seat)}


async def _seed(hall: TableHall, request: Request, body: Body) -> Any:
    table, seat = _seat_of(hall, request)
    fields = await body(request)
    round_id, seed = field(fields, "round_id", str), field(fields, "seed", str)
    table.add_seed(seat, round_id, seed, now_ms())
    return {"round_id": round_id, "seat": seat}


async def _view(hall: TableHall, request: Request) -> Any:
    table, seat = _seat_of(hall, request)
    return table.view(seat)


async def _submit(hall: TableHall, request: Request, body: Body) -> Any:
    table, seat = _seat_of(hall, request)
    fields = await body(request)
    round_id = field(fields, "round_id", str)
    arrangement = field(fields, "arrangement", str)
    table.submit(seat, round_id, arrangement, now_ms())
    return {"round_id": round_id, "seat": seat}


async def _record(hall: TableHall, reads: Reads, request: Request) -> Any:
    table = hall.table(request.path_params["table"])
    text = await reads.record(table.table_id, _round_id_of(table, request))
    return Response(text, media_type="application/json")


async def _showdown(hall: TableHall, reads: Reads, request: Request) -> Any:
    lang = request.query_params.get("lang", "en")
    if lang not in LANGUAGES:
        raise ApiError(422, "UnknownLanguage", f"lang must be one of {sorted(LANGUAGES)}")
    table = hall.table(request.path_params["table"])
    page = await reads.page(table.table_id, _round_id_of(table, request), lang)
    return HTMLResponse(page)


async def _balance(reads: Reads, request: Request) -> Any:
    player = _player(request.path_params["player"], "player", check_player_id)
    return {"player": player, "balance": await reads.balance(player)}


async def _events(hall: TableHall, hub: EventHub, websocket: WebSocket) -> None:
    """A table's events: a seat's own connection (``?seat=N`` with the
    seat's token, as ``Authorization: Bearer`` or ``&token=``), else a
    spectator's; refused with the typed error as the handshake's HTTP
    answer (a close code where the server cannot send one)."""
    try:
        table = hall.table(websocket.path_params["table"])
        query = websocket.query_params
        seat: int | None = None
        if "seat" in query:
            seat = seat_number(query["seat"])
            token = _token(websocket.headers.get("authorization", ""))
            table.check_seat(seat, token if token is not None else _ascii(query.get("token")))
        listener = hub.admit(table.table_id, seat)
    except ApiError as exc:
        await _refuse(websocket, exc)
        return
    try:
        await websocket.accept()
        hello = {"event": "hello", **table.public()}
        await hub.serve(listener, websocket, hello, batch=query.get("batch") == "1")
    finally:
        hub.leave(listener)


def _ascii(token: str | None) -> str | None:
    return token if token is None or token.isascii() else ""


async def _refuse(websocket: WebSocket, error: ApiError) -> None:
    """Refuses a WebSocket before its handshake: the error's status and
    JSON body as the HTTP answer, else closed with 1013 (try again later)
    for a full server or 1008 (policy) for the rest."""
    try:
        await websocket.send_denial_response(error_response(error))
    except RuntimeError:  # no denial responses on this server
        await websocket.accept()
        reason = f"{error.kind}: {error}".encode()[:123].decode(errors="ignore")
        await websocket.close(code=1013 if error.status == 503 else 1008, reason=reason)
