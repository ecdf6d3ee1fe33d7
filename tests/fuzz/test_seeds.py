"""The fuzz targets' committed seeds are what ``python3 fuzz/make_seeds.py``
writes, byte for byte (docs/fuzzing.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parents[2] / "fuzz"


def test_the_committed_seeds_are_what_make_seeds_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = importlib.util.spec_from_file_location("make_seeds", FUZZ / "make_seeds.py")
    assert spec is not None and spec.loader is not None
    make_seeds = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_seeds)
    monkeypatch.setattr(make_seeds, "CORPUS", tmp_path)
    make_seeds.main()
    written = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*.*")}
    committed = {
        p.relative_to(FUZZ / "corpus"): p.read_bytes()
        for p in (FUZZ / "corpus").rglob("*.*")
        if p.is_file()
    }
    assert len(written) > 20
    assert sorted(written) == sorted(committed)
    stale = [str(name) for name, data in written.items() if committed[name] != data]
    assert not stale, f"run python3 fuzz/make_seeds.py: {stale[:5]}"
