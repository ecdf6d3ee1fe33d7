"""A writer process of the store's crash tests.

``python store_writer.py stream URL FILE``: appends each line of a record
log, printing each record's digest once its append has returned.

``python store_writer.py dynamic URL TABLE WRITER COUNT``: plays COUNT rounds
of one table as a server would, each following the table's current head
(read from the store; a ``ChainError`` from another writer's round in
between means: take the new head and play again), printing each digest once
stored.
"""

from __future__ import annotations

import sys

from store_records import make_round

import capsa.store


def _stream(url: str, path: str) -> None:
    with capsa.store.open(url, create=False) as store, open(path, encoding="utf-8") as log:
        for line in log:
            text = line.rstrip("\n")
            store.append(text)
            print(text[text.find('"digest":"') + 10 :][:64], flush=True)


def _head(store: capsa.store.Store, table_id: str) -> str | None:
    return next((t.last_digest for t in store.tables() if t.table_id == table_id), None)


def _dynamic(url: str, table_id: str, writer: int, rounds: int) -> None:
    with capsa.store.open(url, create=False) as store:
        for k in range(rounds):
            while True:
                text = make_round(table_id, writer * 10_000 + k, _head(store, table_id), "")
                try:
                    store.append(text)
                except capsa.store.ChainError:
                    continue
                break
            print(text[text.find('"digest":"') + 10 :][:64], flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "stream":
        _stream(sys.argv[2], sys.argv[3])
    else:
        _dynamic(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
