"""A hostile engine for the conformance tests: a good ``hello``, then every
request answered in one hostile way (``python tests/conformance/hostile_engine.py MODE``).

Modes: ``keys`` (an object of 60,000 keys, under 1 MiB), ``deep`` (100,000
nested ``[``), ``keys-short`` and ``deep-short`` (1,200 keys, 10,000 ``[``:
shorter than the 16 KiB an answer may take), ``deep-hello`` (a hello of
100,000 nested ``[``), ``endless`` (one line that never ends), ``blank`` (blank lines without
end), ``garbage`` (random
bytes), ``string`` (a 900,000-byte string), ``wide`` (a list of 250 strings,
about 16 KiB: within every limit, so judged, and kept truncated).
"""

from __future__ import annotations

import json
import os
import sys

HELLO = {
    "protocol": 1,
    "engine": "hostile",
    "version": "0",
    "ops": ["compare", "category", "foul", "natural", "count_splits", "settle"],
}


def _answer(mode: str, request_id: object) -> bytes:
    head = json.dumps({"id": request_id})[:-1].encode()
    if mode == "keys":
        body = ",".join(f'"k{k}":{k}' for k in range(60_000))
        return head + b',"result":{' + body.encode() + b"}}\n"
    if mode in ("keys-short", "deep-short"):
        body = ",".join(f'"k{k}":{k}' for k in range(1_200))
        nested = b"[" * 10_000 if mode == "deep-short" else b"{" + body.encode() + b"}}"
        return head + b',"result":' + nested + b"\n"
    if mode == "deep":
        return head + b',"result":' + b"[" * 100_000 + b"\n"
    if mode == "garbage":
        return os.urandom(4096).replace(b"\n", b"?") + b"\n"
    if mode == "string":
        return head + b',"result":"' + b"x" * 900_000 + b'"}\n'
    return head + b',"result":' + json.dumps(["x" * 60] * 250).encode() + b"}\n"


def main(mode: str) -> None:
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        request = json.loads(line)
        if request.get("op") == "hello" and mode == "deep-hello":
            out.write(
                b'{"id":' + str(request["id"]).encode() + b',"result":' + b"[" * 100_000 + b"\n"
            )
        elif request.get("op") == "hello":
            out.write(json.dumps({"id": request["id"], "result": HELLO}).encode() + b"\n")
        elif mode in ("endless", "blank"):
            while True:
                out.write((b"a" if mode == "endless" else b"\n") * 65536)
        else:
            out.write(_answer(mode, request.get("id")))
        out.flush()


if __name__ == "__main__":
    main(sys.argv[1])
