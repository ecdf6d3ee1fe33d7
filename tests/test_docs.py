"""Every code example in the README and in docs/ runs as written.

The fenced blocks of each page are read in order:

* ``python`` blocks run, one namespace per page, in a fresh working
  directory; a ``toml`` block whose first line is a comment naming a file
  (``# house.toml``) is written to that file first, so the Python after it
  can load it;
* ``toml`` blocks are rules files: each loads with ``capsa.Rules.from_toml``,
  and one naming a preset without a ``base`` is that preset exactly;
* ``json`` blocks parse, and a round (an object with ``seats``) settles with
  ``capsa settle --strict``;
* ``bash`` and ``console`` blocks are not run, but their read-only ``capsa``
  command lines (and those in inline code) run through the command line's
  own entry point and exit with 0;
* ``text`` blocks (usage synopses, file trees) are not read.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import capsa
import capsa.cli

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LANGUAGES = frozenset({"python", "toml", "json", "bash", "console", "text"})
_FENCE = re.compile(r"^(?P<fence>`{3,})(?P<lang>[^`\s]*)\s*$")
_FILE_COMMENT = re.compile(r"#\s*(?P<name>[\w.-]+\.toml)\s*$")
_INLINE_CODE = re.compile(r"(?<!`)`(?P<code>[^`\n]+)`(?!`)")
# Commands that only read and print: safe to run from a test.
_READ_ONLY = frozenset({"rank", "arrange", "presets", "rules", "play", "--version"})


@dataclass(frozen=True)
class Block:
    """One fenced code block of a page."""

    page: Path
    line: int  # the line of the opening fence, counting from 1
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of a page, in order."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    opening: tuple[int, str, str] | None = None
    body: list[str] = []
    for number, line in enumerate(lines, start=1):
        fence = _FENCE.match(line)
        if opening is None:
            if fence:
                opening, body = (number, fence["fence"], fence["lang"]), []
        elif fence and fence["fence"] == opening[1] and not fence["lang"]:
            found.append(Block(page, opening[0], opening[2], "\n".join(body) + "\n"))
            opening = None
        else:
            body.append(line)
    assert opening is None, f"{page.name}:{opening[0]}: a code block is not closed"
    return found


def all_blocks(*langs: str) -> list[Block]:
    return [b for page in PAGES for b in blocks(page) if b.lang in langs]


def _ids(items: list[Block]) -> list[str]:
    return [b.where for b in items]


def test_pages_have_the_examples_checked_here() -> None:
    langs = {b.lang for page in PAGES for b in blocks(page)}
    assert {"python", "toml", "json", "bash"} <= langs


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_block_names_its_language(page: Path) -> None:
    for block in blocks(page):
        assert block.lang in LANGUAGES, f"{block.where}: fenced block labelled {block.lang!r}"


PYTHON_PAGES = [p for p in PAGES if any(b.lang == "python" for b in blocks(p))]


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=[p.name for p in PYTHON_PAGES])
def test_python_examples_run(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": f"docs:{page.name}"}
    for block in blocks(page):
        first_line = block.text.splitlines()[0] if block.text.strip() else ""
        named = _FILE_COMMENT.fullmatch(first_line)
        if block.lang == "toml" and named:
            (tmp_path / named["name"]).write_text(block.text, encoding="utf-8")
        elif block.lang == "python":
            code = compile(block.text, block.where, "exec")
            exec(code, namespace)  # the documented example itself, as a reader runs it
    capsys.readouterr()


@pytest.mark.parametrize("block", all_blocks("toml"), ids=_ids(all_blocks("toml")))
def test_toml_examples_are_rules_files(block: Block) -> None:
    rules = capsa.Rules.from_toml(block.text)
    data = tomllib.loads(block.text)
    if "base" not in data and data.get("name") in capsa.presets():
        assert rules == capsa.Rules.preset(data["name"]), (
            f"{block.where}: the block names the preset {data['name']} but differs from it"
        )


@pytest.mark.parametrize("block", all_blocks("json"), ids=_ids(all_blocks("json")))
def test_json_examples_parse_and_rounds_settle(
    block: Block, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    value = json.loads(block.text)
    if isinstance(value, dict) and "seats" in value:
        path = tmp_path / "round.json"
        path.write_text(block.text, encoding="utf-8")
        assert capsa.cli.main(["settle", str(path), "--strict"]) == 0, block.where
        record = json.loads(capsys.readouterr().out)
        assert "error" not in record, f"{block.where}: {record}"
        assert sum(record["points"]) == 0


def _shell_commands(text: str) -> Iterator[str]:
    """The commands of a shell block: continuations joined, prompts and
    comments dropped, ``&&`` chains split."""
    joined = re.sub(r"\\\n\s*", " ", text)
    for line in joined.splitlines():
        line = line.strip().removeprefix("$ ")
        for part in line.split("&&"):
            words = shlex.split(part, comments=True)
            if words:
                yield shlex.join(words)


def _entry_point(words: list[str]) -> tuple[Callable[[list[str]], int], list[str]] | None:
    """The entry point and arguments of a read-only capsa command, else None."""
    if words[:1] == ["capsa"]:
        words = ["capsa-cli", *words[1:]]
    elif len(words) >= 3 and words[0] in ("python", "python3") and words[1] == "-m":
        words = (["capsa-cli"] if words[2] == "capsa" else ["other"]) + words[3:]
    if len(words) < 2 or words[1] not in _READ_ONLY:
        return None
    if words[0] == "capsa-cli":
        return capsa.cli.main, words[1:]
    return None


def _documented_commands() -> list[tuple[str, str]]:
    """(where, command) for every read-only capsa command in the pages."""
    found: list[tuple[str, str]] = []
    for block in all_blocks("bash", "console"):
        found += [(block.where, c) for c in _shell_commands(block.text)]
    for page in PAGES:
        prose = page.read_text(encoding="utf-8")
        for block in blocks(page):
            prose = prose.replace(block.text, "")
        for match in _INLINE_CODE.finditer(prose):
            if match["code"].startswith("capsa "):
                found.append((f"{page.relative_to(REPO)} (inline)", match["code"]))
    return [(w, c) for w, c in found if _entry_point(shlex.split(c))]


COMMANDS = _documented_commands()


def test_documented_commands_are_found() -> None:
    verbs = {shlex.split(c)[1] for _, c in COMMANDS if shlex.split(c)[0] == "capsa"}
    assert {"arrange", "presets", "rules"} <= verbs, COMMANDS


@pytest.mark.parametrize(("where", "command"), COMMANDS, ids=[c for _, c in COMMANDS])
def test_documented_commands_run(
    where: str, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = _entry_point(shlex.split(command))
    assert entry is not None
    main, argv = entry
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, f"{where}: {command!r} exited {code}: {captured.err}"
    assert captured.out.strip(), f"{where}: {command!r} printed nothing"


# A citation of a section of the rule reference: its path, then the section's
# title in double quotes, after a comma or in parentheses.
_CITATION = re.compile(r'docs/rules\.md,? \(?"(?P<title>[^"]+)"')
_HEADING = re.compile(r"^#{2,6} (?P<title>.+?)\s*$", re.MULTILINE)
_OUTSIDE = re.compile(r"RULES\.md|\.\./shared|\bseeds? \d{3}\b")
SOURCE_DIRS = ("src", "python", "tests", "benches", "fuzz")
SOURCE_SUFFIXES = frozenset({".rs", ".py", ".pyi", ".toml", ".md"})


def _project_texts() -> Iterator[tuple[Path, str]]:
    yield from ((page, page.read_text(encoding="utf-8")) for page in PAGES)
    for folder in SOURCE_DIRS:
        for path in sorted((REPO / folder).rglob("*")):
            if path.suffix in SOURCE_SUFFIXES and path.is_file() and "target" not in path.parts:
                yield path, path.read_text(encoding="utf-8")


def test_citations_of_the_rule_reference_name_its_sections() -> None:
    titles = {m["title"] for m in _HEADING.finditer((REPO / "docs" / "rules.md").read_text())}
    cited = [
        (path.relative_to(REPO), m["title"])
        for path, text in _project_texts()
        for m in _CITATION.finditer(text)
    ]
    assert len(cited) > 10
    unknown = [(str(path), title) for path, title in cited if title not in titles]
    assert not unknown, f"citations of sections docs/rules.md does not have: {unknown}"


def test_nothing_cites_a_document_outside_the_repository() -> None:
    for path, text in _project_texts():
        if path == Path(__file__):
            continue  # it holds the pattern
        for number, line in enumerate(text.splitlines(), start=1):
            assert not _OUTSIDE.search(line), f"{path.relative_to(REPO)}:{number}: {line}"
