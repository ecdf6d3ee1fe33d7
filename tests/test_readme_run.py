"""What ``.ci/readme.sh`` reads of the README: every ``python`` and ``bash``
block, and the extras each needs, so that a README edit the lists of
``.ci/readme.py`` do not follow fails here rather than in CI's wheel step."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ci_readme", REPO / ".ci" / "readme.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


readme = _load()
BLOCKS = readme.blocks(README.read_text(encoding="utf-8"))


def test_every_python_and_bash_block_is_known_to_the_run() -> None:
    assert readme.problems(BLOCKS) == []


def test_the_run_reads_every_block_but_the_test_command() -> None:
    text = README.read_text(encoding="utf-8")
    fences = len(re.findall(r"^```(python|bash)\s*$", text, flags=re.MULTILINE))
    shell_and_python = [b for b in BLOCKS if b.lang in ("python", "bash")]
    assert len(shell_and_python) == fences - 1  # the test command's
    test_command = text.split("<!-- test-command -->")[1].split("<!-- /test-command -->")[0]
    assert all(b.text.strip() not in test_command for b in shell_and_python)
    assert [b.file_name for b in BLOCKS if b.lang == "toml"] == ["house.toml"]


def test_the_set_up_command_alone_is_not_run() -> None:
    not_run = [b for b in BLOCKS if b.title in readme.NOT_RUN]
    assert len(not_run) == 1
    assert "pip install ." in not_run[0].text


def test_the_server_is_started_and_stopped_rather_than_skipped() -> None:
    commands = [c for b in BLOCKS if b.lang == "bash" for c in readme._commands(b.text)]
    servers = [c for c in commands if readme._SERVER.match(c)]
    assert len(servers) == 1
    assert readme.EXTRAS[readme._TRAILING_COMMENT.sub("", servers[0])] == ("server",)


def test_each_extra_is_one_of_pyproject_named_in_the_section_of_its_block() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    extras = pyproject["project"]["optional-dependencies"]
    lines = README.read_text(encoding="utf-8").splitlines()
    for block in BLOCKS:
        for extra in readme.EXTRAS.get(block.title, ()):
            assert extra in extras, f"{block.where}: no extra {extra!r} in pyproject.toml"
            before = lines[: block.line - 1]
            heading = max(i for i, line in enumerate(before) if line.startswith("## "))
            section = "\n".join(before[heading:])
            assert f"`{extra}`" in section, f"{block.where}: the README does not name {extra}"
    assert "all" in extras


def test_a_block_the_lists_do_not_know_fails_the_run() -> None:
    text = README.read_text(encoding="utf-8")
    added = text + "\n```bash\ncapsa simulate --deals 10 --report new.html\n```\n"
    assert readme.problems(readme.blocks(added)) == [
        f"README.md:{len(text.splitlines()) + 2}: block "
        "'capsa simulate --deals 10 --report new.html' is not in EXTRAS or NOT_RUN "
        "of .ci/readme.py"
    ]
    gone = text.replace("import secrets\n", "import secrets\nimport random\n").replace(
        "KEY = secrets.token_bytes(32)", "KEY = random.randbytes(32)"
    )
    assert any(
        "no README block has the title 'KEY = secrets" in p
        for p in readme.problems(readme.blocks(gone))
    )


def test_blocks_that_use_the_checkout_say_they_run_from_its_root() -> None:
    assert {b.where for b in BLOCKS if "from the repository's root" in b.text} == {
        b.where for b in BLOCKS if "examples" in b.text
    }
    pasted = readme.Block(9, "bash", "node examples/node-engine/engine.js\n")
    assert readme.problems([pasted])[-1] == (
        "README.md:9: uses examples but does not say it runs from the repository's root"
    )


def test_titles_leave_out_imports_and_comments() -> None:
    block = readme.Block(1, "python", "import capsa\n\n# why\nx = 1   # what\n")
    assert block.title == "x = 1"
    assert readme.Block(1, "bash", "capsa play  # one table\n").title == "capsa play"


def test_a_failure_names_the_extra_by_capsa_message_or_the_block_own_import() -> None:
    said = "capsa settle: Parquet needs pyarrow: pip install 'capsa[parquet]'\n"
    assert readme.names_extra(said, ("parquet", "report")) == "capsa[parquet]"
    assert readme.names_extra(said, ("report",)) is None
    script = Path("/tmp/run-scripts/readme_203.py")
    own = (
        "Traceback (most recent call last):\n"
        f'  File "{script}", line 2, in <module>\n'
        "    import pyarrow.parquet as pq\n"
        "ModuleNotFoundError: No module named 'pyarrow'\n"
    )
    assert readme.names_extra(own, ("parquet",), script) is not None
    assert readme.names_extra(own, ("server",), script) is None
    inside = own.replace(str(script), "/venv/lib/capsa/bulk.py")
    assert readme.names_extra(inside, ("parquet",), script) is None
