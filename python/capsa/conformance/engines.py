"""Engines the harness talks to: an external process or an in-process callable.

:class:`ProcessEngine` starts a command once and keeps it: requests are
written many at a time while answers are read (one selector loop, so
neither side can block the other on a full pipe). A crash, a hang past the
timeout or a broken answer costs the request it happened on: that request
is recorded, the engine restarted and handshaken again, and the rest of
the batch goes on. :class:`CallableEngine` runs a Python callable taking a
request dict and returning a response dict, with the same outcomes. Every
answer, of a process or a callable, is checked within the limits of
:mod:`capsa.conformance.bounds` (size, nesting, members and items) before a
Python object is built from it: past them it is a ``"protocol"`` outcome
naming its request.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import selectors
import shlex
import subprocess
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from capsa.conformance.bounds import (
    MAX_ANSWER_BYTES,
    MAX_HELLO_BYTES,
    MAX_HELLO_ITEMS,
    MAX_ITEMS,
    scan,
    value_line,
)
from capsa.conformance.errors import HandshakeError
from capsa.conformance.protocol import PROTOCOL_VERSION, Case, request_line

__all__ = ["CallableEngine", "Engine", "HandshakeError", "Outcome", "ProcessEngine", "engine_of"]

_STDERR_TAIL = 4096
# Seconds the hello may take at least: the engine starts before it answers.
START_TIMEOUT = 30.0


@dataclass
class Outcome:
    """What came back for one request.

    ``status`` is ``"ok"`` (``response`` holds the decoded answer),
    ``"crash"``, ``"timeout"``, ``"protocol"`` or ``"abandoned"`` (not asked:
    the engine was restarted too often); ``detail`` says what happened.
    """

    status: str
    response: dict[str, Any] | None = None
    detail: str = ""


def _hello_line(request_id: int) -> bytes:
    hello = {"id": request_id, "op": "hello", "protocol": PROTOCOL_VERSION, "client": "capsa"}
    return (json.dumps(hello, separators=(",", ":")) + "\n").encode()


def check_hello(response: Any) -> dict[str, Any]:
    """The ``hello`` result, checked (raises :class:`HandshakeError`, a
    :class:`capsa.conformance.claims.ClaimError` naming a bad claim)."""
    if not isinstance(response, dict) or "result" not in response:
        raise HandshakeError(f"the engine did not answer hello with a result: {response!r:.300}")
    result = response["result"]
    if not isinstance(result, dict):
        raise HandshakeError(f"the hello result is not an object: {result!r:.300}")
    if result.get("protocol") != PROTOCOL_VERSION:
        raise HandshakeError(
            f"the engine speaks protocol {result.get('protocol')!r}; "
            f"this harness speaks {PROTOCOL_VERSION}"
        )
    ops = result.get("ops")
    if not isinstance(ops, list) or not all(isinstance(op, str) for op in ops):
        raise HandshakeError('the hello result needs an "ops" list of op names')
    if result.get("cards", "text") not in ("text", "ids"):
        raise HandshakeError(f'"cards" is "text" or "ids", not {result.get("cards")!r}')
    from capsa.conformance.claims import check_claims  # claims.py imports this module

    check_claims(result)
    return result


class Engine:
    """What the harness needs of an engine: subclass it and define
    :meth:`start` and :meth:`exchange` (and :meth:`close` if there is
    something to stop) to hand :func:`capsa.conformance.run` an engine of
    your own. Building one raises nothing.

    ``description`` names the engine in the report, ``ids`` is True when it
    reads cards as integer ids (its ``hello`` said ``"cards": "ids"``), and
    ``restarts`` counts how often it was restarted after a crash or a hang.
    """

    description = "engine"
    ids = False
    restarts = 0

    def start(self) -> dict[str, Any]:
        """Starts the engine and returns its checked ``hello`` result.

        Raises :class:`HandshakeError` when the engine cannot be started or
        its ``hello`` answer is unusable; here, ``NotImplementedError``
        (a subclass defines it)."""
        raise NotImplementedError

    def exchange(self, requests: Sequence[tuple[int, Case]]) -> list[Outcome]:
        """Asks every request (id, case) and returns one :class:`Outcome` each, in
        order: a failing engine gives failed outcomes, not exceptions. Here it
        raises ``NotImplementedError`` (a subclass defines it)."""
        raise NotImplementedError

    def close(self) -> None:
        """Stops the engine (nothing to stop here)."""


class CallableEngine(Engine):
    """A Python callable as an engine: ``handler(request dict) -> response dict``.

    The request is exactly what a process would read (the JSON line,
    decoded); the response may leave out ``id``. An exception is a crash of
    that request; the next request goes on. ``name`` (default: the
    callable's qualified name) is its name in the report. Building one
    raises nothing; :meth:`start` raises :class:`HandshakeError` for a bad
    ``hello``.
    """

    def __init__(self, handler: Callable[[dict[str, Any]], Any], name: str | None = None) -> None:
        self.handler = handler
        self.description = str(name or getattr(handler, "__qualname__", "callable"))

    def start(self) -> dict[str, Any]:
        """Asks the handler ``hello`` and returns its checked result.

        Raises :class:`HandshakeError` when the handler raises or its answer
        is not a usable ``hello`` result (no ``protocol`` 1, no ``ops``
        list, ``cards`` neither ``"text"`` nor ``"ids"``)."""
        try:
            response = self.handler(json.loads(_hello_line(0)))
        except Exception as exc:
            raise HandshakeError(f"hello raised {type(exc).__name__}: {exc}") from None
        outcome = _bounded(response, 0, MAX_HELLO_BYTES)
        if outcome.status != "ok":
            raise HandshakeError(f"the hello answer: {outcome.detail}")
        hello = check_hello(outcome.response)
        self.ids = hello.get("cards") == "ids"
        return hello

    def exchange(self, requests: Sequence[tuple[int, Case]]) -> list[Outcome]:
        """Hands each request to the handler in order; returns one :class:`Outcome`
        each. Raises nothing: an exception of the handler is a ``"crash"``
        outcome, a malformed answer a ``"protocol"`` one."""
        out = []
        for request_id, case in requests:
            request = json.loads(request_line(request_id, case, self.ids))
            try:
                response = self.handler(request)
            except Exception as exc:
                tail = traceback.format_exception_only(type(exc), exc)[-1].strip()
                out.append(Outcome("crash", detail=f"the handler raised {tail}"))
                continue
            out.append(_bounded(response, request_id, MAX_ANSWER_BYTES))
        return out


def _items(max_bytes: int) -> int:
    return MAX_HELLO_ITEMS if max_bytes >= MAX_HELLO_BYTES else MAX_ITEMS


def _bounded(response: Any, request_id: int, max_bytes: int) -> Outcome:
    """A callable's answer checked as a process's line would be: within the
    limits of :func:`capsa.conformance.bounds.scan`, JSON, then decoded."""
    line, why = value_line(response, max_bytes, _items(max_bytes))
    if line is None:
        return Outcome("protocol", detail=f"request {request_id}: the answer is {why}")
    return _checked(json.loads(line), request_id)


def _checked(response: Any, request_id: int) -> Outcome:
    if not isinstance(response, dict):
        return Outcome("protocol", detail=f"the answer is not a JSON object: {response!r:.200}")
    if "id" in response and response["id"] != request_id:
        return Outcome("protocol", detail=f"answer id {response['id']!r} for request {request_id}")
    if ("result" in response) == ("error" in response):
        return Outcome("protocol", detail='an answer has exactly one of "result" and "error"')
    return Outcome("ok", response)


class ProcessEngine(Engine):
    """An engine command, started once and kept (restarted after a crash or hang).

    ``command`` is a command line (split like a shell does, without running
    one) or an argument list; ``timeout`` the seconds to wait for an answer
    after the last one; ``max_restarts`` how many restarts the engine gets
    before the remaining requests are abandoned; ``env`` its environment
    (default: this process's); ``digest_timeout`` the seconds to wait for a
    ``digest`` answer (default: ``timeout``; ranking 2.6 million hands takes
    a pure-Python engine about 50 s); the ``hello`` that starts the engine
    waits at least ``START_TIMEOUT`` (30 s), its start-up included. Raises
    :class:`HandshakeError` for an empty command and ``ValueError`` for a
    command line whose quotes do not close; the command is started by
    :meth:`start`.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        timeout: float = 10.0,
        max_restarts: int = 20,
        env: dict[str, str] | None = None,
        digest_timeout: float | None = None,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise HandshakeError("the engine command is empty")
        self.command = command if isinstance(command, str) else shlex.join(command)
        self.description = self.command
        self.timeout = timeout
        self.digest_timeout = timeout if digest_timeout is None else digest_timeout
        self._digests: set[int] = set()
        self.max_restarts = max_restarts
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        # the last chunks read, each cut to its last 4 KiB: at most 64 x 4 KiB kept
        self.stderr_tail: collections.deque[bytes] = collections.deque(maxlen=64)
        self.hello: dict[str, Any] = {}
        self._next_hello = -1

    # ------------------------------------------------------------ life

    def start(self) -> dict[str, Any]:
        """Starts the command, handshakes and returns its checked ``hello`` result.

        Raises :class:`HandshakeError` when the command cannot be started
        (it names the command and the system's reason), does not answer
        ``hello`` (crash, timeout, not JSON) or answers it unusably."""
        self._spawn()
        return self.hello

    def _spawn(self) -> None:
        try:
            self.process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                env=self.env,
            )
        except OSError as exc:
            raise HandshakeError(f"cannot start {self.command!r}: {exc.strerror or exc}") from None
        for stream in (self.process.stdout, self.process.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
        hello_id = self._next_hello
        self._next_hello -= 1
        outcomes = self._talk([(hello_id, _hello_line(hello_id))], MAX_HELLO_BYTES)
        if outcomes[0].status != "ok":
            self._kill()
            raise HandshakeError(f"no answer to hello: {outcomes[0].detail}")
        self.hello = check_hello(outcomes[0].response)
        self.ids = self.hello.get("cards") == "ids"

    def _kill(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        if process.poll() is None:
            process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):  # an unkillable child
            process.wait(timeout=5)

    def close(self) -> None:
        """Closes the engine's standard input, gives it two seconds to exit, then
        kills it. Raises nothing (an engine that is already gone is fine)."""
        process = self.process
        if process is not None and process.stdin is not None:
            try:
                process.stdin.close()
                process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._kill()

    def stderr_text(self) -> str:
        """The last few kilobytes the engine wrote to its standard error (for crash
        reports); bytes that are not UTF-8 are replaced. Raises nothing."""
        return b"".join(self.stderr_tail).decode("utf-8", "replace")[-_STDERR_TAIL:]

    # ------------------------------------------------------------ talk

    def exchange(self, requests: Sequence[tuple[int, Case]]) -> list[Outcome]:
        """Writes the requests while reading the answers; returns one
        :class:`Outcome` each, in order. Raises nothing for a failing engine:
        a crash, a timeout or a broken answer is that request's outcome, the
        engine is restarted for the next one, and after ``max_restarts`` the
        rest are ``"abandoned"``."""
        lines = [(rid, request_line(rid, case, self.ids)) for rid, case in requests]
        self._digests = {rid for rid, case in requests if case.op == "digest"}
        out: list[Outcome] = []
        while lines:
            if self.process is None:
                if self.restarts >= self.max_restarts:
                    detail = f"not asked: the engine was restarted {self.restarts} times"
                    out.extend(Outcome("abandoned", detail=detail) for _ in lines)
                    return out
                self.restarts += 1
                try:
                    self._spawn()
                except HandshakeError as exc:
                    out.append(Outcome("crash", detail=f"restart failed: {exc}"))
                    lines = lines[1:]
                    continue
            got = self._talk(lines)
            out.extend(got)
            lines = lines[len(got) :]
        return out

    def _talk(
        self, lines: Sequence[tuple[int, bytes]], max_bytes: int = MAX_ANSWER_BYTES
    ) -> list[Outcome]:
        """Writes the lines while reading answers; stops early (the last outcome a
        crash, timeout or broken line, the engine killed) when the engine fails.
        An answer longer than ``max_bytes`` is refused unread."""
        process = self.process
        assert process is not None and process.stdin and process.stdout and process.stderr
        payload = b"".join(line for _, line in lines)
        written = 0
        selector = selectors.DefaultSelector()
        os.set_blocking(process.stdin.fileno(), False)
        selector.register(process.stdin, selectors.EVENT_WRITE, "in")
        selector.register(process.stdout, selectors.EVENT_READ, "out")
        selector.register(process.stderr, selectors.EVENT_READ, "err")
        pending = b""
        out: list[Outcome] = []
        deadline = time.monotonic() + self._wait_for(lines[0][0])
        try:
            while len(out) < len(lines):
                wait = deadline - time.monotonic()
                if wait <= 0:
                    limit = self._wait_for(lines[len(out)][0])
                    out.append(Outcome("timeout", detail=f"no answer within {limit:g} s"))
                    self._kill()
                    return out
                for key, _ in selector.select(wait):
                    if key.data == "in":
                        try:
                            written += os.write(
                                process.stdin.fileno(), payload[written : written + (1 << 16)]
                            )
                        except BrokenPipeError:
                            selector.unregister(process.stdin)
                            continue
                        if written >= len(payload):
                            selector.unregister(process.stdin)
                    elif key.data == "err":
                        chunk = os.read(process.stderr.fileno(), 1 << 16)
                        if chunk:
                            self.stderr_tail.append(chunk[-_STDERR_TAIL:])
                        else:
                            selector.unregister(process.stderr)
                    else:
                        chunk = os.read(process.stdout.fileno(), 1 << 16)
                        if not chunk:
                            out.append(self._crashed())
                            return out
                        parts = (pending + chunk).split(b"\n")
                        pending = parts.pop()
                        before = len(out)
                        for part in parts:
                            if len(out) < len(lines) and part.strip():
                                out.append(self._decode(part, lines[len(out)][0], max_bytes))
                                if out[-1].status != "ok":
                                    self._kill()
                                    return out
                        # the clock restarts on an answer, not on any output
                        # (endless blank lines are no answer)
                        if before < len(out) < len(lines):
                            deadline = time.monotonic() + self._wait_for(lines[len(out)][0])
                        if len(out) < len(lines) and len(pending) > max_bytes:
                            rid = lines[len(out)][0]
                            detail = f"request {rid}: an answer line over {max_bytes:,} bytes"
                            out.append(Outcome("protocol", detail=detail))
                            self._kill()
                            return out
            return out
        finally:
            selector.close()

    def _wait_for(self, request_id: int) -> float:
        """Seconds an answer may take: a digest's own timeout, the hello's
        start-up allowance (hello ids are negative), else the timeout."""
        if request_id < 0:
            # the hello waits for the engine to start: an interpreter importing
            # its libraries or a JVM may take longer than an answer should
            return max(self.timeout, START_TIMEOUT)
        return self.digest_timeout if request_id in self._digests else self.timeout

    def _decode(self, line: bytes, request_id: int, max_bytes: int) -> Outcome:
        refusal = scan(line, max_bytes, max_items=_items(max_bytes))
        if refusal is not None:
            return Outcome("protocol", detail=f"request {request_id}: the answer is {refusal}")
        try:
            response = json.loads(line)
        except (ValueError, RecursionError) as exc:
            return Outcome(
                "protocol",
                detail=f"request {request_id}: an answer that is not JSON ({exc}): {line[:200]!r}",
            )
        return _checked(response, request_id)

    def _crashed(self) -> Outcome:
        process = self.process
        code = None
        if process is not None:
            try:
                code = process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
        self._kill()
        tail = self.stderr_text().strip().splitlines()[-3:]
        shown = f"; stderr: {' | '.join(tail)}" if tail else ""
        return Outcome("crash", detail=f"the engine exited (code {code}) before answering{shown}")


def engine_of(
    engine: Engine | str | Sequence[str] | Callable[[dict[str, Any]], Any],
    timeout: float = 10.0,
    digest_timeout: float | None = None,
) -> Engine:
    """The :class:`Engine` of what ``run`` and ``infer`` take: an ``Engine`` as it
    is, a command line (a str or an argv list) as a :class:`ProcessEngine`
    with these timeouts, a callable as a :class:`CallableEngine`. Starts
    nothing. Raises ``TypeError`` for anything else, and what
    :class:`ProcessEngine` raises for a command."""
    if isinstance(engine, Engine):
        return engine
    if isinstance(engine, str | Sequence):
        return ProcessEngine(engine, timeout=timeout, digest_timeout=digest_timeout)
    if callable(engine):
        return CallableEngine(engine)
    raise TypeError(f"an engine is a command, an Engine or a callable, not {type(engine).__name__}")
