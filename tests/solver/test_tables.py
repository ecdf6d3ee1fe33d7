"""The shipped solver tables are current and reproducible, and the training
command writes where it says."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import capsa.cli
import capsa.tables as tables_cli
from capsa import Rules, presets
from capsa.solver import (
    TRAIN_DEFAULTS,
    TRAINER_VERSION,
    load_tables,
    tables_info,
    train_tables,
)

SMALL = ["--hands", "400", "--iterations", "1"]


# the shipped tables trained smaller than the defaults, and that size
# (docs/solver.md gives the command)
TRAINED_SMALLER = {
    "mau-binh",
    "shisanshui",
    "shisanshui-5",
    "shisanshui-6",
    "shisanshui-banker",
    "shisanshui-jokers",
    "taiwanese",
    "thai",
}
SMALLER_SIZE = {"hands": 40_000, "iterations": 8}
# the presets of larger decks are trained at the table size they are for
TABLE_SEATS = {"shisanshui-5": 5, "shisanshui-6": 6}
SHIPPED = [p for p in capsa.presets() if tables_cli.shipped(p) is not None]
# the checkout's folder of the files the extension embeds
SOURCE = tables_cli.source_tables_dir()


def test_the_extension_embeds_the_checkouts_files_byte_for_byte() -> None:
    # after `train --ship` the extension must be rebuilt: a stale build
    # would play, and check, other tables than the ones in the tree
    assert SOURCE is not None
    files = {p.stem: p.read_bytes() for p in SOURCE.glob("*.bin")}
    assert sorted(files) == sorted(SHIPPED)
    assert all(tables_cli.shipped(name) == data for name, data in files.items())
    assert tables_cli.shipped("no-such-preset") is None


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_tables_come_from_the_current_trainer(name: str) -> None:
    info = tables_info(Rules.preset(name), load_tables(name))
    assert int(info["trainer"]) == TRAINER_VERSION, (
        f"{name}.bin is from trainer {info['trainer']}: "
        "run python -m capsa.tables train --all --ship"
    )
    size = dict(SMALLER_SIZE) if name in TRAINED_SMALLER else {}
    if name in TABLE_SEATS:
        # hands are dealt as many to a deck as it seats: rounded up to that
        per_deal = size["seats"] = TABLE_SEATS[name]
        size["hands"] = -(-size["hands"] // per_deal) * per_deal
    for key in ("seats", "hands", "iterations", "seed"):
        assert int(info[key]) == size.get(key, TRAIN_DEFAULTS[key]), key


def test_the_smaller_tables_are_shipped_presets() -> None:
    assert TRAINED_SMALLER <= set(SHIPPED) <= set(presets())


def test_one_set_of_training_defaults() -> None:
    signature = inspect.signature(train_tables).parameters
    for key, value in TRAIN_DEFAULTS.items():
        assert signature[key].default == value, key
    args = capsa.cli._parser().parse_args(["tables", "train", "--preset", "pagat"])
    assert {k: getattr(args, k) for k in TRAIN_DEFAULTS} == TRAIN_DEFAULTS


def test_training_is_deterministic_and_records_its_parameters() -> None:
    rules = Rules.preset("mau-binh")
    first = train_tables(rules, hands=1000, iterations=1, seed=7, name="t")
    assert train_tables(rules, hands=1000, iterations=1, seed=7, name="t") == first
    assert train_tables(rules, hands=1000, iterations=1, seed=8, name="t") != first
    info = tables_info(rules, first)
    assert (info["trainer"], info["hands"], info["iterations"], info["seed"]) == (
        str(TRAINER_VERSION),
        "1000",
        "1",
        "7",
    )


def test_train_writes_to_the_working_directory_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert SOURCE is not None
    shipped = {p: p.read_bytes() for p in SOURCE.glob("*.bin")}
    assert capsa.cli.main(["tables", "train", "--preset", "pagat", *SMALL]) == 0
    captured = capsys.readouterr()
    out = captured.out
    # before the minutes of training, what it trains (the results go to stdout)
    assert captured.err.startswith("pagat: training, ")
    written = tmp_path / "pagat.bin"
    assert written.read_bytes()[:8] == b"CAPSATB1"
    assert "tables=" in out and "pagat.bin" in out and "rebuild" not in out
    assert {p: p.read_bytes() for p in SOURCE.glob("*.bin")} == shipped


def test_train_out_names_a_file_or_a_directory(tmp_path: Path) -> None:
    assert (
        capsa.cli.main(["tables", "train", "--preset", "2-4", *SMALL, "--out", str(tmp_path)]) == 0
    )
    assert (tmp_path / "2-4.bin").is_file()
    target = tmp_path / "mine.bin"
    assert capsa.cli.main(["tables", "train", "--preset", "2-4", *SMALL, "--out", str(target)]) == 0
    assert target.is_file()
    assert capsa.cli.main(["tables", "train", "--all", *SMALL, "--out", str(target)]) == 2


def test_ship_refuses_an_installed_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    installed = tmp_path / "site-packages"
    installed.mkdir()
    monkeypatch.setattr(tables_cli, "_CHECKOUT", installed)
    assert tables_cli.source_tables_dir() is None
    assert capsa.cli.main(["tables", "train", "--preset", "pagat", *SMALL, "--ship"]) == 2
    assert "needs a source checkout" in capsys.readouterr().err
    assert not list(installed.iterdir())


def test_check_reports_a_difference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # shipped tables whose metadata says "400 hands, 1 iteration" but whose
    # rows come from other hands: check must retrain and find them different
    small = train_tables(Rules.preset("pagat"), hands=400, iterations=1, seed=1, name="pagat")
    other = train_tables(Rules.preset("pagat"), hands=400, iterations=1, seed=2, name="pagat")
    fake = {"pagat": small}
    monkeypatch.setattr(tables_cli, "shipped", fake.get)
    assert capsa.cli.main(["tables", "check", "--preset", "pagat"]) == 0
    assert "pagat: identical" in capsys.readouterr().out
    fake["pagat"] = other.replace(b"seed=2", b"seed=1")
    assert capsa.cli.main(["tables", "check", "--preset", "pagat"]) == 1
    assert "pagat: DIFFERENT" in capsys.readouterr().out


def test_a_refused_argument_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert capsa.cli.main(["tables", "train", "--preset", "pagat", "--hands", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "hands" in err and "Traceback" not in err
