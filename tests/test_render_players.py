"""A round record of format 2 is drawn with its players' names, verified."""

from __future__ import annotations

import hashlib

from capsa import Round, Rules, render


def test_a_record_shows_its_players_by_name_or_id() -> None:
    rnd = Round(
        Rules(),
        4,
        round_id="table-7/round-1",
        table_id="table-7",
        players=[
            {"id": "p-1", "name": "Anastasia"},
            {"id": "p-2", "name": None},
            "p-3",
            {"id": "seat-3", "name": None},
        ],
        server_seed=hashlib.sha256(b"render players").digest(),
    )
    rnd.deal()
    rnd.close()
    rnd.settle()
    table = render.table_from_record(rnd.record())
    assert [(c.name, c.ok) for c in table.checks] == [("commitment", True), ("replay", True)]
    page = render.page_html(table)
    assert "Anastasia" in page and "p-2" in page and "p-3" in page
    # a seat's default player shows as the seat's own label
    assert "<bdi>Seat 3</bdi>" in page and ">seat-3<" not in page


def test_a_record_of_default_players_shows_seats() -> None:
    rnd = Round(Rules(), 2, round_id="r", server_seed=hashlib.sha256(b"seats").digest())
    rnd.deal()
    rnd.close()
    rnd.settle()
    page = render.page_html(render.table_from_record(rnd.record()))
    assert "<bdi>Seat 0</bdi>" in page and "<bdi>Seat 1</bdi>" in page
