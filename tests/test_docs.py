"""Every code example in the README and in docs/ runs as written.

The fenced blocks of each page are read in order:

* each ``python`` block runs as pasted into a file: ``python example.py``
  in a fresh subprocess and a fresh working directory, with a time limit.
  A ``toml`` block whose first line is a comment naming a file
  (``# house.toml``) is written to that file first, so the Python after it
  on the same page can load it. A block that cannot run on its own (a
  protocol transcript, say) is marked by an HTML comment on the line right
  before its fence, ``<!-- not-run: why -->``, and is only compiled;
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
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

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


_NOT_RUN = re.compile(r"^<!-- not-run: (?P<why>[^>]*\S)\s*-->$")
# Each snippet's limit; the whole set runs in well under a minute.
SNIPPET_SECONDS = 120


@dataclass(frozen=True)
class Block:
    """One fenced code block of a page."""

    page: Path
    line: int  # the line of the opening fence, counting from 1
    lang: str
    text: str
    not_run: str | None = None  # why, when the page marks the block not runnable

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of a page, in order."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    opening: tuple[int, str, str] | None = None
    body: list[str] = []
    not_run: str | None = None
    for number, line in enumerate(lines, start=1):
        fence = _FENCE.match(line)
        if opening is None:
            if fence:
                opening, body = (number, fence["fence"], fence["lang"]), []
                marker = _NOT_RUN.match(lines[number - 2].strip()) if number > 1 else None
                not_run = marker["why"] if marker else None
        elif fence and fence["fence"] == opening[1] and not fence["lang"]:
            text = "\n".join(body) + "\n"
            found.append(Block(page, opening[0], opening[2], text, not_run))
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


def _named_files(block: Block) -> dict[str, str]:
    """The files the page's ``# name.toml`` blocks before ``block`` write."""
    files: dict[str, str] = {}
    for earlier in blocks(block.page):
        if earlier.line >= block.line:
            break
        first_line = earlier.text.splitlines()[0] if earlier.text.strip() else ""
        named = _FILE_COMMENT.fullmatch(first_line)
        if earlier.lang == "toml" and named:
            files[named["name"]] = earlier.text
    return files


PYTHON_BLOCKS = all_blocks("python")


def test_python_examples_are_found_on_every_page_that_teaches_the_api() -> None:
    pages = {b.page.name for b in PYTHON_BLOCKS}
    assert {"README.md", "api.md", "bulk.md", "records.md", "solver.md"} <= pages, pages


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=_ids(PYTHON_BLOCKS))
def test_python_example_runs_as_pasted_into_a_file(block: Block, tmp_path: Path) -> None:
    compile(block.text, block.where, "exec")  # every block is at least valid Python
    if block.not_run is not None:
        return
    for name, text in _named_files(block).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    script = tmp_path / "example.py"
    script.write_text(block.text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, script.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=SNIPPET_SECONDS,
        check=False,
    )
    assert done.returncode == 0, f"{block.where}: exit {done.returncode}\n{done.stderr[-3000:]}"


def test_not_run_marks_are_few_and_say_why() -> None:
    marked = [b for b in PYTHON_BLOCKS if b.not_run is not None]
    assert len(marked) <= max(1, len(PYTHON_BLOCKS) // 10), [b.where for b in marked]


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


README = REPO / "README.md"
DOC_PAGES = sorted((REPO / "docs").glob("*.md"))
_MD_LINK = re.compile(r"\]\((?P<target>[^)#\s]+)(?:#[^)\s]*)?\)")
_DOC_CODE_SPAN = re.compile(r"`(?:docs/)?[a-z]+\.md`")
# A rate or a speed-up: what benches/RESULTS.md holds and the README does not.
_FIGURE = re.compile(
    r"\d[\d,.]*\s?[kMG]?\s?(?:hands|rounds|deals|pages|calls|lines|vectors)"
    r"(?:/s|\s+a second|\s+per second)|\d[\d.]*\s?[x×]\s+faster|\bµs\b"
)
# Phrases that narrate earlier versions; CHANGELOG.md holds history.
_HISTORY = re.compile(
    r"the previous solver|in the run before|what was tried|sixteen training iterations"
    r"|of that time|the earlier deep mode|trainer 2 and before",
    re.IGNORECASE,
)


def _readme() -> str:
    return README.read_text(encoding="utf-8")


def test_readme_is_a_tour_of_at_most_300_lines() -> None:
    text = _readme()
    assert len(text.splitlines()) <= 300
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings[0] == "## Set up", headings
    for user in ("game server", "operator", "implementer"):
        assert any(user in h.lower() for h in headings), (user, headings)


def test_readme_set_up_commands_come_first() -> None:
    text = _readme()
    first_bash = next(b for b in blocks(README) if b.lang == "bash")
    assert "pip install" in first_bash.text
    assert "python3 -m capsa play --seed 2026" in first_bash.text
    marked = re.search(
        r"<!-- test-command -->\n```bash\n(?P<command>[^\n]+)\n```\n<!-- /test-command -->", text
    )
    assert marked, "the test command between its markers, as .ci/run reads it"
    command = marked["command"]
    assert "cargo test" in command and "pytest" in command
    before = text[: marked.start()]
    assert re.search(r"about \d+ minutes\s+on two", before), "the test command's expected time"


def test_readme_links_every_doc_page_and_the_results() -> None:
    targets = {m["target"] for m in _MD_LINK.finditer(_readme())}
    wanted = {f"docs/{page.name}" for page in DOC_PAGES} | {"benches/RESULTS.md", "CHANGELOG.md"}
    assert wanted <= targets, sorted(wanted - targets)
    for target in targets:
        if not target.startswith(("http://", "https://")):
            assert (REPO / target).exists(), target


def test_doc_links_resolve() -> None:
    for page in DOC_PAGES:
        for match in _MD_LINK.finditer(page.read_text(encoding="utf-8")):
            target = match["target"]
            if not target.startswith(("http://", "https://", "mailto:")):
                assert (page.parent / target).exists(), f"{page.name}: {target}"


@pytest.mark.parametrize(
    "page", [README, *DOC_PAGES], ids=[README.name, *(p.name for p in DOC_PAGES)]
)
def test_pages_name_other_pages_by_links_not_code_spans(page: Path) -> None:
    prose = page.read_text(encoding="utf-8")
    for block in blocks(page):
        prose = prose.replace(block.text, "")
    spans = _DOC_CODE_SPAN.findall(prose)
    assert not spans, f"{page.name}: write these as Markdown links: {spans}"


def test_readme_has_no_benchmark_figures() -> None:
    found = _FIGURE.findall(_readme())
    assert not found, f"figures belong in benches/RESULTS.md: {found}"


@pytest.mark.parametrize(
    "page", [README, *DOC_PAGES], ids=[README.name, *(p.name for p in DOC_PAGES)]
)
def test_docs_describe_what_is_not_history(page: Path) -> None:
    found = _HISTORY.findall(page.read_text(encoding="utf-8"))
    assert not found, f"{page.name}: history belongs in CHANGELOG.md: {found}"


def test_changelog_keeps_the_history() -> None:
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in text
    assert re.search(r"^## \[0\.1\.0\] - \d{4}-\d{2}-\d{2}$", text, re.MULTILINE)
