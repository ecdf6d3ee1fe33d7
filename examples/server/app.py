"""The HTTP and WebSocket API of the reference table server
(``examples/server/README.md`` lists the routes)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

import capsa
import capsa.ids
from capsa.render import LANGUAGES, page_html, table_from_record
from examples.server.errors import ApiError, error_response
from examples.server.events import EventHub
from examples.server.tables import TableHall, now_ms

__all__ = ["MAX_BODY", "create_app"]

MAX_BODY = 16 * 1024  # bytes: a seed or an arrangement is a few dozen
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
    table_prefix: str = "t",
) -> Starlette:
    """The server's application: ``tables`` tables ``t0``, ``t1``, ... (or
    ``table_prefix`` then the number: servers sharing a store each keep
    tables of their own) of
    ``seats`` seats at ``stake`` minor units a point under ``rules``, each
    round closing when every seat has submitted or ``deadline_ms`` after it
    started; records in the store at ``store_url``; ``key`` (at least 16
    bytes) seals the rounds' states and signs the seats' tokens."""
    hub = EventHub()
    hall = TableHall(
        key=key,
        rules=rules or capsa.Rules(),
        seats=seats,
        stake=stake,
        deadline_ms=deadline_ms,
        publish=hub.publish,
    )
    table_ids = [f"{table_prefix}{n}" for n in range(tables)]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hall.open(store_url, table_ids)
        ticker = asyncio.create_task(_tick_forever(hall, min(50, max(1, deadline_ms // 4))))
        try:
            yield
        finally:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            await hall.recorder.close()
            hub.close_all()

    # the routes a round uses come first: Starlette tries them in order
    routes = [
        Route(
            "/tables/{table}/seats/{seat}/seed", _api(lambda r: _seed(hall, r)), methods=["POST"]
        ),
        Route("/tables/{table}/seats/{seat}/view", _api(lambda r: _view(hall, r)), methods=["GET"]),
        Route(
            "/tables/{table}/seats/{seat}/submit",
            _api(lambda r: _submit(hall, r)),
            methods=["POST"],
        ),
        Route("/tables", _api(lambda r: _tables(hall)), methods=["GET"]),
        Route("/tables/{table}", _api(lambda r: _table(hall, r)), methods=["GET"]),
        Route("/tables/{table}/join", _api(lambda r: _join(hall, r)), methods=["POST"]),
        Route(
            "/tables/{table}/rounds/{round_id}/record",
            _api(lambda r: _record(hall, r)),
            methods=["GET"],
        ),
        Route(
            "/tables/{table}/rounds/{round_id}/showdown",
            _api(lambda r: _showdown(hall, r)),
            methods=["GET"],
        ),
        Route("/players/{player}/balance", _api(lambda r: _balance(hall, r)), methods=["GET"]),
        WebSocketRoute("/tables/{table}/events", lambda ws: _events(hall, hub, ws)),
    ]
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: _http_error},  # type: ignore[dict-item]
    )


async def _tick_forever(hall: TableHall, every_ms: int) -> None:
    """Deals and closes the rounds whose deadline passed, so a player who
    never comes back never stalls a table."""
    while True:
        await asyncio.sleep(every_ms / 1000)
        now = now_ms()
        for table in hall.tables.values():
            try:
                table.tick(now)
            except Exception:  # the next tick tries again; the others go on
                _LOG.exception("table %s: the tick failed", table.table_id)


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


# ------------------------------------------------------------ reading requests


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, at most ``MAX_BODY`` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise ApiError(413, "BodyTooLarge", f"the body is over {MAX_BODY} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise ApiError(413, "BodyTooLarge", f"the body is over {MAX_BODY} bytes")
    try:
        body = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, "BadJson", f"the body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise ApiError(400, "BadJson", f"the body is a JSON {type(body).__name__}, not an object")
    return body


def _field(body: dict[str, Any], name: str, kind: type, *, optional: bool = False) -> Any:
    if name not in body:
        if optional:
            return None
        raise ApiError(400, "MissingField", f"the body has no {name!r}")
    value = body[name]
    if (value is None and optional) or (isinstance(value, kind) and not isinstance(value, bool)):
        return value
    raise ApiError(
        422, "WrongType", f"{name!r} must be {kind.__name__}, not {type(value).__name__}"
    )


def _seat_of(hall: TableHall, request: Request) -> tuple[Any, int]:
    """The table and the seat of the path, the seat's token checked."""
    table = hall.table(request.path_params["table"])
    text = request.path_params["seat"]
    if not text.isdigit():
        raise ApiError(404, "UnknownSeat", f"{text!r} is not a seat number")
    seat = int(text)
    auth = request.headers.get("authorization", "")
    token = auth[len("Bearer ") :] if auth.startswith("Bearer ") else None
    table.check_seat(seat, token)
    return table, seat


# ------------------------------------------------------------ endpoints


async def _tables(hall: TableHall) -> Any:
    return [table.public() for table in hall.tables.values()]


async def _table(hall: TableHall, request: Request) -> Any:
    return hall.table(request.path_params["table"]).public()


async def _join(hall: TableHall, request: Request) -> Any:
    table = hall.table(request.path_params["table"])
    body = await _body(request)
    player = _field(body, "player", str)
    name = _field(body, "name", str, optional=True)
    try:
        # the rule a round holds them to: a player a round refuses never sits
        player = capsa.ids.check_player_id(player, "player")
        name = capsa.ids.check_player_name(name, "name")
    except capsa.ArgumentError as exc:
        raise ApiError(422, "BadPlayer", str(exc)) from None
    seat = table.join(player, name)
    return {"table_id": table.table_id, "seat": seat, "token": table.token(seat)}


async def _seed(hall: TableHall, request: Request) -> Any:
    table, seat = _seat_of(hall, request)
    body = await _body(request)
    round_id, seed = _field(body, "round_id", str), _field(body, "seed", str)
    table.add_seed(seat, round_id, seed, now_ms())
    return {"round_id": round_id, "seat": seat}


async def _view(hall: TableHall, request: Request) -> Any:
    table, seat = _seat_of(hall, request)
    return table.load().view(seat)


async def _submit(hall: TableHall, request: Request) -> Any:
    table, seat = _seat_of(hall, request)
    body = await _body(request)
    round_id = _field(body, "round_id", str)
    arrangement = _field(body, "arrangement", str)
    table.submit(seat, round_id, arrangement, now_ms())
    return {"round_id": round_id, "seat": seat}


async def _stored_text(hall: TableHall, request: Request) -> str:
    table = hall.table(request.path_params["table"])
    round_id = request.path_params["round_id"]
    stored = await hall.recorder.run(lambda store: store.get(table.table_id, round_id))
    if stored is None:
        raise ApiError(404, "UnknownRound", f"table {table.table_id!r} has no stored {round_id!r}")
    return stored.text


async def _record(hall: TableHall, request: Request) -> Any:
    return Response(await _stored_text(hall, request), media_type="application/json")


async def _showdown(hall: TableHall, request: Request) -> Any:
    lang = request.query_params.get("lang", "en")
    if lang not in LANGUAGES:
        raise ApiError(422, "UnknownLanguage", f"lang must be one of {sorted(LANGUAGES)}")
    record = json.loads(await _stored_text(hall, request))
    return HTMLResponse(page_html(table_from_record(record), lang))


async def _balance(hall: TableHall, request: Request) -> Any:
    player = request.path_params["player"]
    return {"player": player, "balance": await hall.recorder.run(lambda s: s.ledger(player))}


async def _events(hall: TableHall, hub: EventHub, websocket: WebSocket) -> None:
    table_id = websocket.path_params["table"]
    if table_id not in hall.tables:
        await websocket.close(code=4404, reason=f"there is no table {table_id!r}")
        return
    await websocket.accept()
    hello = {"event": "hello", **hall.tables[table_id].public()}
    await hub.serve(table_id, websocket, hello, batch=websocket.query_params.get("batch") == "1")
