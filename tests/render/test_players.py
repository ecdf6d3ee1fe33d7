"""A round record of format 2 is drawn with its players' names, verified."""

from __future__ import annotations

import hashlib
import re

from capsa import Arrangement, Round, Rules, render, splits


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


def test_a_record_tells_its_table_time_chain_and_auto_seats() -> None:
    """What a page can show of a record beyond its settlement: the table,
    when it was played, the meta notes, the chain, and which seats the
    server arranged at the close."""
    rnd = Round(
        Rules(),
        3,
        round_id="t-1/r-2",
        table_id="t-1",
        players=["p-1", "p-2", "p-3"],
        previous_digest="ab" * 32,
        meta={"played_at": 1_800_000_000_000, "dealer": "<b>Budi</b>", "hand": 7},
        server_seed=hashlib.sha256(b"story").digest(),
    )
    hands = rnd.deal()
    rnd.submit(1, Arrangement.from_ids(splits(hands[1], Rules())[-1]))
    rnd.close()
    rnd.settle()
    table = render.table_from_record(rnd.record())
    assert table.table_id == "t-1"
    assert table.played_at == "2027-01-15T08:00:00.000Z"
    assert table.meta == (("dealer", "<b>Budi</b>"), ("hand", "7"), ("played_at", "1800000000000"))
    assert (table.previous_digest, table.digest) == ("ab" * 32, rnd.digest)
    assert [s.auto for s in table.seats] == [True, False, True]
    assert [s.player_id for s in table.seats] == ["p-1", "p-2", "p-3"]
    # text played_at is kept as written; a record without these fields has none
    record = rnd.record()
    record["meta"] = {"played_at": "2026-12-01T20:00:00Z"}
    assert render.table_from_record(record, verify=False).played_at == "2026-12-01T20:00:00Z"
    bare = render.table_from_record({"settlement": record["settlement"]})
    assert (bare.table_id, bare.played_at, bare.meta, bare.digest) == (None, None, (), None)
    assert not any(s.auto for s in bare.seats)


def _story_round(previous: str | None) -> Round:
    rnd = Round(
        Rules(),
        3,
        round_id="t-1/r-2",
        table_id="t-1",
        players=[{"id": "p-1", "name": "Ana"}, "p-2", "p-3"],
        previous_digest=previous,
        meta={"played_at": 1_800_000_000_000, "dealer": "<b>Budi</b>"},
        server_seed=hashlib.sha256(b"story page").digest(),
    )
    hands = rnd.deal()
    rnd.submit(1, Arrangement.from_ids(splits(hands[1], Rules())[-1]))
    rnd.close()
    rnd.settle()
    return rnd


def test_a_record_page_tells_its_story() -> None:
    """The seats arranged by the server, the players' ids, the table, the
    time, the notes as text and the chain, in the page's words."""
    first = _story_round(None)
    page = render.page_html(render.table_from_record(first.record()))
    assert page.count('<span class="badge auto">arranged by the server at the deadline</span>') == 2
    assert re.findall(r'<article class="([^"]*)"', page) == ["seat auto", "seat", "seat auto"]
    assert '<span class="player-id">player <bdi><span class="w">p-1</span></bdi></span>' in page
    assert '<dt>Table</dt><dd><bdi class="table-id"><span class="w">t-1</span></bdi></dd>' in page
    assert (
        '<time class="played-at" datetime="2027-01-15T08:00:00.000Z">2027-01-15 08:00:00 UTC</time>'
        in page
    )
    assert "&lt;b&gt;Budi&lt;/b&gt;" in page and "<b>" not in page
    assert '<li class="chain" data-chain="first">Chain: the first round' in page
    assert f">{first.digest}</code>" in page
    linked = _story_round(first.digest)
    page = render.page_html(render.table_from_record(linked.record()), "id")
    assert page.count("disusun oleh server saat batas waktu") == 2
    assert '<li class="chain" data-chain="linked">Rantai: menyusul ronde dengan digest' in page
    assert f'<code class="digest previous-digest" tabindex="0">{first.digest}</code>' in page
    assert '<li class="check" data-check="replay" data-status="ok">' in page
