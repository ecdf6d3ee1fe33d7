"""The variant report without a browser: how it writes rates, margins,
shares and money (on worked values, in English and Indonesian), how it
names variants, what it derives from a summary (turnover, hold, rake per
hour, identical curves), how the variants' rules differ, and what the
page says in each language; ``capsa simulate --rounds-per-hour`` and
``--lang``."""

from __future__ import annotations

import html
import math
import re
from dataclasses import replace
from pathlib import Path

import pytest

import capsa
from capsa.cli import main
from capsa.report import ROUNDS_PER_HOUR, render_report, write_report
from capsa.report.knobs import differences, variant_rules
from capsa.report.numbers import (
    money_text,
    percent_text,
    rate_text,
    rate_with_margin,
    wilson_interval,
)
from capsa.report.variants import Variant, arranging_text, identical_groups, variants_of
from capsa.report.words import report_words
from capsa.summary import Summary

# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("rate", "text"),
    [
        (1 / 8889, "1 in 8,900"),
        (1 / 158_753_389_900, "1 in 160,000,000,000"),
        (0.0117, "1.2%"),
        (0.01, "1.0%"),  # the figures kept, not "1%" beside "1.2%"
        (0.0099, "1 in 100"),
        (0.19033, "19%"),
        (1.0, "100%"),
        (0.0, "0"),
        (math.nan, "-"),
    ],
)
def test_a_rate_has_two_significant_figures(rate: float, text: str) -> None:
    assert rate_text(rate) == text


@pytest.mark.parametrize(
    ("count", "total", "text"),
    [
        # Wilson: centre 1.1730e-4, half-width 3.3218e-5, so 1 in 6,644 .. 1 in 11,893,
        # both to the hundreds the estimate is written to
        (45, 400_000, "1 in 8,900 (95%: 1 in 6,600 to 1 in 11,900)"),
        (4_450, 40_000_000, "1 in 9,000 (95%: 1 in 8,700 to 1 in 9,300)"),
        (3, 10, "30% (95%: 11% to 60%)"),
        # a bound far below the estimate keeps its own two figures
        (117, 10_000, "1.2% (95%: 0.98% to 1.4%)"),
        # bounds that would read as the estimate get the digit that tells them apart
        (19_033, 100_000, "19% (95%: 18.8% to 19.3%)"),
        # nothing seen: the rate it could still be
        (0, 10_000, "0 (95%: below 1 in 2,600)"),
        (0, 100, "0 (95%: below 3.7%)"),
        # everything seen: the rate it could still be, set apart from 100%
        (7, 7, "100% (95%: above 65%)"),
        (10_000, 10_000, "100% (95%: above 99.96%)"),
        (5, 0, "-"),
    ],
)
def test_a_rate_with_its_margin_is_one_form_to_one_digit(count: int, total: int, text: str) -> None:
    assert rate_with_margin(count, total) == text


def test_the_wilson_interval_on_known_values() -> None:
    low, high = wilson_interval(0, 10_000)
    assert low == 0 and high == pytest.approx(3.8415 / (10_000 + 3.8415), rel=1e-4)
    low, high = wilson_interval(50, 100)
    assert (low, high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson_interval(7, 7)[1] == 1.0
    for bad in ((-1, 10), (11, 10), (0, 0)):
        with pytest.raises(ValueError, match="count"):
            wilson_interval(*bad)
    with pytest.raises(ValueError):
        rate_with_margin(11, 10)


def test_shares_and_money() -> None:
    assert [percent_text(x) for x in (0.03, 0.0297, 0.000123, 0.0)] == [
        "3.0%",
        "3.0%",
        "0.012%",
        "0%",
    ]
    assert percent_text(math.inf) == "-"
    assert [money_text(x) for x in (1345.4125, -11.2, 0.0)] == ["1,345.41", "-11.20", "0.00"]
    assert money_text(math.nan) == "-"


# ---------------------------------------------------------------- variants


def _summary(rules: str, points: tuple[dict[int, int], ...], rake: dict[int, int]) -> Summary:
    """A two-seat summary of two rounds with these histograms, stake 10."""
    return Summary(
        rules=rules,
        rules_digest="0" * 16,
        seats=2,
        strategy="greedy",
        seed=1,
        stake=10,
        rake={"basis_points": 1000, "minimum_pot": 0, "cap_per_pot": 0, "cap_per_round": 0},
        ranges=((0, 2),),
        points=points,
        net=points,
        house_rake=rake,
        qualifying={},
        declared={},
        fouls=0,
        surrenders=0,
        sweep_alls=0,
        scoops=0,
        pairs=2,
    )


# two rounds: +3/-3, then -1/+1; the house raked 3 and 1
_TWO_ROUNDS = _summary("house", ({3: 1, -1: 1}, {-3: 1, 1: 1}), {3: 1, 1: 1})


def test_turnover_hold_and_rake_per_hour() -> None:
    v = Variant("house", "house.toml", _TWO_ROUNDS)
    # the winners won 3 and 1 points, 40 minor units over two rounds
    assert v.turnover_per_round == 20.0
    # 4 raked of 40 won
    assert v.hold == pytest.approx(0.1)
    assert v.rake_per_hour(30) == 60.0
    nothing = Variant("x", "x", replace(_TWO_ROUNDS, points=({0: 2}, {0: 2}), house_rake={0: 2}))
    assert math.isnan(nothing.hold)


def test_variants_are_named_by_their_rules() -> None:
    pagat = replace(_TWO_ROUNDS, rules="pagat")
    house = replace(_TWO_ROUNDS, rules="house")
    names = [v.name for v in variants_of([("pagat", pagat), ("sim/house-pagat.toml", house)])]
    assert names == ["pagat", "house"]
    shared = [("pagat", pagat), ("sim/house-pagat.toml", pagat), ("pagat", pagat)]
    assert [v.name for v in variants_of(shared)] == [
        "pagat #1",
        "pagat (sim/house-pagat.toml)",
        "pagat #3",
    ]


def test_identical_curves_are_grouped() -> None:
    other = replace(_TWO_ROUNDS, rules="other", points=({2: 1, -1: 1}, {-2: 1, 1: 1}))
    variants = variants_of([("a", _TWO_ROUNDS), ("b", other), ("c", replace(_TWO_ROUNDS))])
    groups = identical_groups(variants)
    assert [[v.source for v in g] for g in groups] == [["a", "c"], ["b"]]


def test_the_arranging_text_says_what_the_strategy_hides() -> None:
    solver = Variant("x", "x", replace(_TWO_ROUNDS, strategy="solver"))
    text = arranging_text([solver])
    assert "the solver" in text and "ever fouls" in text and "Real players foul" in text
    assert "surrenders only when the rules allow it" in text and "no one surrendered" in text
    surrendering = Variant("y", "y", replace(_TWO_ROUNDS, strategy="random", surrenders=1))
    text = arranging_text([surrendering])
    assert "a random valid arrangement" in text and "the strategy's alone" in text


# ---------------------------------------------------------------- the page


def _text(markup: str) -> str:
    """What a reader sees of some HTML: no tags, entities read."""
    return html.unescape(re.sub(r"<[^>]*>", "", markup)).replace("\u00a0", " ")


@pytest.fixture(scope="module")
def summaries() -> list[tuple[str, Summary]]:
    pagat = capsa.simulate("pagat", deals=300, strategy="greedy", seed=5, stake=100)
    house = capsa.simulate("capsa-susun", deals=300, strategy="greedy", seed=5, stake=100)
    return [("pagat", pagat), ("sim/house.toml", house), ("sim/pagat-copy.toml", pagat)]


def test_the_page_names_rates_and_notes(summaries: list[tuple[str, Summary]]) -> None:
    markup = render_report(summaries, rounds_per_hour=45)
    page = _text(markup)
    columns = [_text(c) for c in re.findall(r"<th scope='col'[^>]*>(.*?)</th>", markup)]
    names = ["pagat", "capsa-susun", "pagat (sim/pagat-copy.toml)"]
    assert columns[:8] == ["rule", *names, "figure", *names]
    # a file is named only where two variants share a rules name
    assert "sim/house.toml" not in page
    assert "at 45 rounds an hour" in page and "Hold: house rake as a share" in page
    # the copy's curve is the original's: one line, said so
    assert "pagat and pagat (sim/pagat-copy.toml) end rounds with exactly the same" in page
    assert "No simulated player ever fouls" in page
    # no bare "±" margins, every rate with its interval
    # the overview's rates, the naturals dealt, and those declared where paid
    paid = sum(len(capsa.Rules.preset(s.rules)["naturals.enabled"]) for _, s in summaries)
    assert "±" not in page and page.count("(95%: ") == 7 * 3 + 20 + paid
    svgs = re.findall(r"<svg [^>]*>", markup)
    assert len(svgs) == 8
    for svg in svgs:
        label = re.search(r'aria-label="([^"]+)"', svg)
        assert 'role="img"' in svg and label and len(label.group(1)) > 40
    assert "<script" not in markup and "src=" not in markup


def test_the_page_refuses_bad_arguments(summaries: list[tuple[str, Summary]]) -> None:
    with pytest.raises(ValueError, match="rounds_per_hour"):
        render_report(summaries[:1], rounds_per_hour=0)
    with pytest.raises(TypeError, match="rounds_per_hour"):
        render_report(summaries[:1], rounds_per_hour=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one"):
        render_report([])
    with pytest.raises(TypeError, match="pairs"):
        render_report([("x", "not a summary")])  # type: ignore[list-item]


def test_write_report_and_the_command_line(
    tmp_path: Path, summaries: list[tuple[str, Summary]], capsys: pytest.CaptureFixture[str]
) -> None:
    write_report(summaries[:1], tmp_path / "one.html")
    assert f"at {ROUNDS_PER_HOUR} rounds an hour" in _text((tmp_path / "one.html").read_text())
    out = tmp_path / "r.html"
    argv = ["simulate", "--rules", "pagat", "--deals", "50", "--strategy", "greedy",
            "--no-progress", "--report", str(out), "--rounds-per-hour", "45"]  # fmt: skip
    assert main(argv) == 0
    assert "at 45 rounds an hour" in _text(out.read_text())
    capsys.readouterr()
    assert main([*argv[:-1], "0"]) == 2
    assert "--rounds-per-hour" in capsys.readouterr().err


def test_the_docs_state_the_default_rounds_per_hour() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "bulk.md").read_text()
    assert f"{ROUNDS_PER_HOUR} unless `--rounds-per-hour N`" in docs


# ---------------------------------------------------------------- the rules compared


def test_the_page_says_how_the_variants_differ(summaries: list[tuple[str, Summary]]) -> None:
    variants = variants_of(summaries)
    rules = variant_rules(variants)
    assert [r.name if r else None for r in rules] == ["pagat", "capsa-susun", "pagat"]
    rows, same = differences(variants, rules, report_words("en"))
    by_key = {key: (name, values) for key, name, values in rows}
    assert by_key["tie_break"] == (
        "How rows of equal rank are broken",
        ["not broken: a tie", "by suit", "not broken: a tie"],
    )
    assert by_key["money.rake_basis_points"][1] == ["none", "3%", "none"]
    # a knob equal in every variant is counted, not listed
    assert "row_points" not in by_key and "money.stake" not in by_key
    assert same > 10
    page = _text(render_report(summaries))
    assert "How the variants differ" in page
    assert f"The other {same} rules are the same in every variant." in page
    single = _text(render_report(summaries[:1]))
    assert "Only one variant: there is nothing to compare." in single


def test_rules_not_known_are_said_so() -> None:
    """A summary of rules that are no preset: the page cannot compare them
    unless it is given them."""
    house = replace(_TWO_ROUNDS, rules="house")
    other = replace(_TWO_ROUNDS, rules="other")
    page = _text(render_report([("house.toml", house), ("other.toml", other)]))
    assert "The rules of the variants are not known to this report" in page
    given = [capsa.Rules.preset("pagat"), capsa.Rules.preset("capsa-susun")]
    page = _text(render_report([("house.toml", house), ("other.toml", other)], rules=given))
    assert "not known" not in page and "How rows of equal rank are broken" in page
    with pytest.raises(ValueError, match="rules: 1 given for 2 variants"):
        render_report([("house.toml", house), ("other.toml", other)], rules=given[:1])


def test_naturals_a_variant_does_not_pay_say_so(summaries: list[tuple[str, Summary]]) -> None:
    markup = render_report(summaries)
    row = re.search(r"<tr role='row' data-figure='clean-dragon'>(.*?)</tr>", markup)
    assert row is not None
    cells = [_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))]
    # exact, dealt, then declared: neither pagat nor capsa-susun pays it
    assert cells[2:] == ["not paid"] * 3
    dragon = re.search(r"<tr role='row' data-figure='dragon'>(.*?)</tr>", markup)
    assert dragon is not None and "not paid" not in dragon.group(1)


def test_the_rake_words_follow_the_stake() -> None:
    low = capsa.simulate("capsa-susun", deals=300, strategy="greedy", seed=5, stake=1)
    high = capsa.simulate("capsa-susun", deals=300, strategy="greedy", seed=5, stake=100)
    free = capsa.simulate("pagat", deals=300, strategy="greedy", seed=5, stake=1)
    at_one = _text(render_report([("capsa-susun", low), ("pagat", free)]))
    assert "at this stake its rake is mostly zero" in at_one
    assert "pagat takes no rake." in at_one
    zero = low.house_rake.get(0, 0) / low.deals
    assert f"the house took nothing in {percent_text(zero)} of rounds" in at_one
    at_hundred = _text(render_report([("capsa-susun", high)]))
    assert "mostly zero" not in at_hundred and "one unit per point" not in at_hundred
    assert "capsa-susun (3% at a stake of 100 per point)" in at_hundred


# ---------------------------------------------------------------- languages

# English words that an Indonesian page must not show (the game's own
# terms, natural and the poker names of combinations, are Indonesian usage)
_ENGLISH = {
    "the", "of", "and", "a", "in", "to", "is", "round", "rounds", "player",
    "players", "rake", "house", "hold", "stake", "points", "every", "variant", "not",
    "paid", "dealt", "declared", "exact", "probability", "share", "below", "above",
    "none", "yes", "no", "rule", "rules", "scale", "money", "after", "won", "lost",
}  # fmt: skip


def _visible_words(markup: str) -> set[str]:
    """The words a reader sees, the charts' and their text alternatives
    included; a picture's styles and metadata left out."""
    shown = re.sub(r"<(style|metadata|defs)\b.*?</\1>", " ", markup, flags=re.S)
    labels = " ".join(re.findall(r'aria-label="([^"]*)"', shown))
    text = _text(shown) + " " + html.unescape(labels)
    text = re.sub(r"(four|five) of a kind|full house", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-z]+", text)}


def test_the_indonesian_page(summaries: list[tuple[str, Summary]]) -> None:
    markup = render_report(summaries, lang="id", rounds_per_hour=45)
    assert markup.startswith("<!doctype html><html lang='id'>")
    english = _visible_words(markup) & _ENGLISH
    assert not english, f"English words on the Indonesian page: {sorted(english)}"
    page = _text(markup)
    assert "Perbandingan varian capsa: pagat, capsa-susun" in page
    assert "Perbedaan antarvarian" in page and "tidak dibayar" in page
    assert "pada 45 ronde per jam" in page and "1 dari " in page
    # the English page does have them: the check can fail
    assert _visible_words(render_report(summaries)) & _ENGLISH


def test_numbers_in_indonesian() -> None:
    assert (
        rate_with_margin(45, 400_000, "id")
        == "1 dari 8.900 (95%: 1 dari 6.600 sampai 1 dari 11.900)"
    )
    assert rate_with_margin(19_033, 100_000, "id") == "19% (95%: 18,8% sampai 19,3%)"
    assert rate_with_margin(0, 10_000, "id") == "0 (95%: di bawah 1 dari 2.600)"
    assert money_text(1345.4125, "id") == "1.345,41" and percent_text(0.0117, "id") == "1,2%"


def test_both_languages_have_every_word() -> None:
    english, indonesian = report_words("en"), report_words("id")
    assert english.keys() == indonesian.keys()
    keys = english.keys()
    same = [k for k in keys if english[k] == indonesian[k]]
    # only names shared by both languages: numbers' templates, poker names
    assert len(same) < len(english.keys()) // 10, same


@pytest.mark.parametrize("lang", ["fr", "EN", ""])
def test_an_unknown_language_is_refused(
    summaries: list[tuple[str, Summary]], lang: str, tmp_path: Path
) -> None:
    with pytest.raises(capsa.ArgumentError, match="lang must be one of en, id"):
        render_report(summaries[:1], lang=lang)
    with pytest.raises(ValueError, match="lang"):
        write_report(summaries[:1], tmp_path / "x.html", lang=lang)
    assert not (tmp_path / "x.html").exists()
    with pytest.raises(TypeError, match="lang"):
        render_report(summaries[:1], lang=None)  # type: ignore[arg-type]


def test_the_command_line_writes_either_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "id.html"
    argv = ["simulate", "--rules", "pagat", "--rules", "capsa-susun", "--deals", "40",
            "--strategy", "greedy", "--no-progress", "--report", str(out)]  # fmt: skip
    assert main([*argv, "--lang", "id"]) == 0
    markup = out.read_text()
    assert "<html lang='id'>" in markup and "Perbedaan antarvarian" in _text(markup)
    assert main(argv) == 0
    assert "<html lang='en'>" in out.read_text()
    capsys.readouterr()
    assert main([*argv, "--lang", "fr"]) == 2
    assert "--lang" in capsys.readouterr().err
