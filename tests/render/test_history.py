"""A player's hand history from a record log (``capsa render --player``),
the rows in words with the reason each was won, and the links between the
pages of many rounds."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import capsa
from capsa import Round, Rules, render
from capsa.render._hands import hand_words, row_reason
from capsa.render._model import Row
from capsa.render._words import words

PLAYERS = ("ana", "budi", "citra", "dewi", "eko", "fajar")


def _row(text: str, rules: Rules | None = None) -> Row:
    cards = tuple(capsa.parse_cards(text))
    value = capsa.evaluate(cards, rules)
    return Row("bottom", cards, value.category, value.strength, 0)


@pytest.mark.parametrize(
    ("text", "en", "id_"),
    [
        ("9d 9h Kc", "pair of nines", "sepasang sembilan"),
        (
            "Ah Ad 8c 8d 8s",
            "full house, eights over aces",
            "full house, tris delapan dan sepasang as",
        ),
        ("Ah 2d 3c 4d 5s", "straight, five high", "straight, tertinggi lima"),
        ("Kh Kd 5c 5d 2s", "two pair, kings and fives", "dua pasang, king dan lima"),
        ("Th Jh Qh Kh Ah", "royal flush", "royal flush"),
        ("2c 7d 9h Jc Ks", "high card, king", "kartu tinggi king"),
        ("4s 4h 4d 4c 9s", "four fours", "four of a kind empat"),
    ],
)
def test_a_row_is_told_with_its_ranks(text: str, en: str, id_: str) -> None:
    row = _row(text)
    assert hand_words(row, words("en")) == en
    assert hand_words(row, words("id")) == id_


def test_a_joker_row_is_told_by_its_category() -> None:
    rules = Rules.preset("shisanshui-jokers")
    row = _row("BJ 9h 9d", rules)
    assert hand_words(row, words("en")) == "three of a kind"


def test_each_reason_says_what_decided_the_row() -> None:
    w = words("en")
    suits = Rules.preset("capsa-susun")
    plain = Rules.preset("pagat")
    kings, queens = _row("9d 9h Kc"), _row("9s 9c Qd")
    assert row_reason(kings, queens, 1, plain, w) == (
        "the same combination; the next card decides: king against queen"
    )
    assert row_reason(queens, kings, -1, plain, w).endswith("queen against king")
    assert row_reason(_row("9d 9h Kc"), _row("Td Th 2c"), -1, plain, w) == (
        "the higher rank decides: nines against tens"
    )
    assert row_reason(_row("Kh Kd 5c 5d 2s"), _row("Ks Kc 4c 4d As"), 1, plain, w) == (
        "the first group is equal; the second decides: fives against fours"
    )
    assert row_reason(_row("Kh Kd 5c"), _row("2h 3d 2s"), 1, plain, w) == "a pair beats a pair"[
        :0
    ] + ("the higher rank decides: kings against twos")
    assert row_reason(_row("9d 9h Kc"), _row("2c 7d Ks"), 1, plain, w) == "a pair beats a high card"
    same_a, same_b = _row("9d 9h Kc"), _row("9s 9c Kd")
    assert row_reason(same_a, same_b, 0, plain, w) == "the same ranks: neither wins the row"
    assert row_reason(same_a, same_b, -1, suits, w) == "the same ranks; the suit order decides"
    # words that would contradict the settlement are never said
    assert row_reason(kings, queens, -1, plain, w) == "ranked by this house's rules"


@pytest.mark.parametrize("preset", ["pagat", "capsa-susun", "shisanshui"])
def test_the_reasons_never_fall_back_under_standard_ranking(preset: str) -> None:
    """Under houses that rank as poker does, every row of 200 dealt tables
    is explained by its ranks, never by the fallback; a tie only when the
    settlement tied it."""
    rules = Rules.preset(preset)
    w = words("en")
    said = set()
    for seed in range(200):
        hands = capsa.deal(4, seed=seed, rules=rules)
        seats = [capsa.Seat(capsa.best_arrangement(h, rules).arrangement) for h in hands]
        table = render.table_from_settlement(capsa.settle(seats, rules), rules=rules)
        for pair in table.pairs:
            if pair.outcome != "rows":
                continue
            for k, result in enumerate(pair.rows):
                mine, theirs = table.seats[pair.i].rows[k], table.seats[pair.j].rows[k]
                reason = row_reason(mine, theirs, result, rules, w)
                assert reason != w["why.house"], (seed, pair, k)
                assert (reason == w["why.tie"]) == (result == 0), (seed, pair, k)
                said.add(reason.split(":")[0])
    assert len(said) >= 4, said


def _log(path: Path, rounds: int = 12) -> list[dict[str, object]]:
    """A record log of two tables and six players, rotating seats."""
    out, chains = [], {}
    for k in range(rounds):
        table_id = f"table-{k % 2 + 1}"
        rnd = Round(
            Rules.preset("capsa-susun"),
            4,
            100,
            round_id=f"{table_id}/round-{k // 2 + 1}",
            table_id=table_id,
            players=[PLAYERS[(k + j) % 6] for j in range(4)],
            previous_digest=chains.get(table_id),
            meta={"played_at": 1_800_000_000_000 + k * 90_000},
            server_seed=hashlib.sha256(f"history {k}".encode()).digest(),
        )
        rnd.deal()
        rnd.close(force=True)
        rnd.settle()
        record = rnd.record()
        chains[table_id] = record["digest"]
        out.append(record)
    path.write_text("".join(json.dumps(r) + "\n" for r in out), encoding="utf-8")
    return out


def _capsa(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "capsa", *args], capture_output=True, text=True, timeout=120
    )


def _seat_of(record: dict[str, object], player: str) -> int | None:
    seats = record["seats"]
    assert isinstance(seats, list)
    return next((k for k, s in enumerate(seats) if s["player"]["id"] == player), None)


def test_a_players_history_follows_them_across_tables(tmp_path: Path) -> None:
    records = _log(tmp_path / "log.jsonl")
    out = tmp_path / "ana.html"
    done = _capsa(
        "render", str(tmp_path / "log.jsonl"), "-o", str(out), "--player", "ana", "--page-size", "3"
    )
    assert done.returncode == 0, done.stderr
    theirs = [(r, _seat_of(r, "ana")) for r in records if _seat_of(r, "ana") is not None]
    assert len(theirs) == 8  # four seats of six players: ana sits out a third
    folder = tmp_path / "ana-rounds"
    balance = 0
    page = folder / "round-1.html"
    for number, (record, seat) in enumerate(theirs, start=1):
        page = folder / f"round-{number}.html"
        text = page.read_text(encoding="utf-8")
        settled = record["settlement"]["seats"][seat]  # type: ignore[index]
        balance += settled["net"]
        assert f"ana: round {record['round_id']}" in text
        # their seat first, their balance, their dealt hand and the solver's view
        first = re.search(r'<article class="seat[^"]*" id="seat-(\d)"', text)
        assert first is not None and int(first.group(1)) == seat
        assert f"balance <strong>{words('en').signed(balance)}</strong>" in text
        dealt = record["seats"][seat]["hand"].split()  # type: ignore[index]
        shown = re.search(r"<h3>Dealt</h3>\n<div class=\"cards\">(.*?)</div>", text)
        assert shown is not None
        assert re.findall(r'data-card="([^"]+)"', shown.group(1)) == dealt
        assert "The solver would have" in text
        assert text.count('class="replay-pair"') == 3 and " open>" in text
        # previous and next among theirs only, and the history page that lists it
        prev_link = re.search(r'<a href="(round-\d+\.html)" rel="prev">', text)
        next_link = re.search(r'<a href="(round-\d+\.html)" rel="next">', text)
        assert (prev_link.group(1) if prev_link else None) == (
            f"round-{number - 1}.html" if number > 1 else None
        )
        assert (next_link.group(1) if next_link else None) == (
            f"round-{number + 1}.html" if number < len(theirs) else None
        )
        listing = "../ana.html" if number <= 3 else f"page-{(number - 1) // 3 + 1}.html"
        assert f'<a href="{listing}">hand history</a>' in text
    first_page = out.read_text(encoding="utf-8")
    assert "8 rounds, net " + words("en").signed(balance) + ", on 3 pages." in first_page
    assert first_page.count('class="h-round"') == 3
    assert 'href="ana-rounds/page-2.html" rel="next"' in first_page
    third = (folder / "page-3.html").read_text(encoding="utf-8")
    assert third.count('class="h-round"') == 2 and 'rel="next"' not in third
    assert f"balance <strong>{words('en').signed(balance)}</strong>" in third


def test_a_player_who_sat_nowhere_is_an_error_line(tmp_path: Path) -> None:
    _log(tmp_path / "log.jsonl", rounds=2)
    done = _capsa(
        "render", str(tmp_path / "log.jsonl"), "-o", str(tmp_path / "x.html"), "--player", "nobody"
    )
    assert done.returncode == 1
    assert done.stderr.strip() == "capsa render: player 'nobody' sat at none of the rounds read"


def test_round_pages_link_the_rounds_before_and_after(tmp_path: Path) -> None:
    """An operator's round page links the previous and next round drawn and
    the index; a round that failed has no page and is skipped."""
    records = _log(tmp_path / "log.jsonl", rounds=3)
    lines = [
        json.dumps(records[0]),
        '{"garbage": 1}',
        json.dumps(records[1]),
        json.dumps(records[2]),
    ]
    (tmp_path / "mixed.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = _capsa("render", str(tmp_path / "mixed.jsonl"), "-o", str(tmp_path / "all.html"))
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "all-rounds"
    assert sorted(p.name for p in folder.iterdir()) == [
        "round-1.html",
        "round-3.html",
        "round-4.html",
    ]

    def links(name: str) -> tuple[str | None, str | None]:
        text = (folder / name).read_text(encoding="utf-8")
        assert '<a href="../all.html">all rounds</a>' in text
        prev_link = re.search(r'<a href="([^"]+)" rel="prev">', text)
        next_link = re.search(r'<a href="([^"]+)" rel="next">', text)
        return (prev_link and prev_link.group(1), next_link and next_link.group(1))

    assert links("round-1.html") == (None, "round-3.html")
    assert links("round-3.html") == ("round-1.html", "round-4.html")
    assert links("round-4.html") == ("round-3.html", None)


def test_the_rounds_drawn_are_counted_on_a_terminal_only() -> None:
    import io

    from capsa.cli.render import _Tally

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    shown = Terminal()
    # a round at 100.0 s, two within the half second after it
    times = iter([100.0, 100.1, 100.4])
    tally = _Tally(shown, clock=lambda: next(times))
    for _ in range(3):
        tally.tick()
    tally.done()
    # the first round is shown at once, the rest within the half second; the end on its own line
    assert shown.getvalue() == "\rcapsa render: 1 rounds\rcapsa render: 3 rounds\n"
    quiet = io.StringIO()
    silent = _Tally(quiet)
    silent.tick()
    silent.done()
    assert quiet.getvalue() == ""
