"""Every error the server answers with, mapped in one place to an HTTP status
and a typed JSON body ``{"error": {"type": ..., "message": ...}}``."""

from __future__ import annotations

from starlette.responses import JSONResponse

import capsa
import capsa.store

__all__ = ["ApiError", "Refused", "error_response", "reason_of"]


class ApiError(Exception):
    """A request the server refuses for a reason of its own (not a capsa
    error): ``status`` is the HTTP status, ``kind`` the error's type,
    ``retry_after`` the seconds to wait before asking again, if any."""

    def __init__(
        self, status: int, kind: str, message: str, *, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.retry_after = retry_after


class Refused(Exception):
    """A write the store refused for good, told by another process (the
    recorder's commits): ``reason`` is the refusal as one line, its type and
    message."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def reason_of(exc: BaseException) -> str:
    """An error as one line: its type and the first line of its message (a
    :class:`Refused` as it was told)."""
    if isinstance(exc, Refused):
        return exc.reason
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0].strip()}" if lines else type(exc).__name__


# Most specific first: the first class an exception is an instance of wins.
_CAPSA_STATUS: tuple[tuple[type[BaseException], int], ...] = (
    (capsa.store.DuplicateRoundError, 409),
    (capsa.store.ChainError, 409),
    (capsa.store.StoreError, 503),
    (capsa.RoundError, 409),
    (capsa.CapsaError, 422),
    (TypeError, 422),
)


def error_response(exc: BaseException) -> JSONResponse:
    """The JSON answer for ``exc``: its status and its type's name. An
    exception of no known kind is a 500 that names only its type, never a
    traceback."""
    if isinstance(exc, ApiError):
        response = _body(exc.status, exc.kind, str(exc))
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response
    for kind, status in _CAPSA_STATUS:
        if isinstance(exc, kind):
            return _body(status, type(exc).__name__, str(exc))
    return _body(500, "InternalError", f"the server failed ({type(exc).__name__})")


def _body(status: int, kind: str, message: str) -> JSONResponse:
    # a message may quote a request's text, lone surrogates and all
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": {"type": kind, "message": message}}, status_code=status)
