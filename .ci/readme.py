"""The README's examples, run as a newcomer runs them (``.ci/readme.sh``).

``python .ci/readme.py run --mode core|all --dir DIR``, run with the python
of a venv that holds the installed wheel, runs the README's ``python`` and
``bash`` blocks in order in DIR (``toml`` blocks naming a file are written
there first, as the page says), with that venv first on ``PATH``:

* ``--mode all`` (the wheel with every extra): every block must succeed;
* ``--mode core`` (the wheel alone): a block needing no extra must succeed
  and a block needing one must fail with an error that names the extra to
  install.

A server started by a block (``python -m examples.server``) is run until it
answers ``GET /health``, then stopped with Ctrl-C. The README's set-up
commands install from the checkout and are not run; the test command,
between the ``test-command`` markers, is not read at all. DIR gets a copy
of what the blocks run from the repository's root use (``FROM_ROOT``:
``examples/``) and nothing else of the checkout. ``python .ci/readme.py list`` prints
the blocks and what each needs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10, whose capsa depends on tomli
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"

# What each block needs beyond the core install, by its title (its first line
# that is not blank, an import or a comment, without a trailing comment): the
# extras the README names beside it. A block missing here fails the run and
# tests/test_readme_run.py, so that a new block is sorted into one or the other.
EXTRAS: dict[str, tuple[str, ...]] = {
    'rules = capsa.Rules.preset("pagat").derive(': (),
    "KEY = secrets.token_bytes(32)": (),
    "python -m examples.server --store sqlite:///records.db --tables 8": ("server",),
    'rules = capsa.Rules.load("house.toml")': (),
    'rnd = capsa.Round(capsa.Rules.preset("shisanshui-banker"), 4, 10,': (),
    'rnd = capsa.Round(capsa.Rules.preset("shisanshui-6"), 6, 10, round_id="t/2")': (),
    "hands = np.array([[c.id for c in h] for h in capsa.deal(4, seed=7)], dtype=np.uint8)": (
        "parquet",
    ),
    "capsa settle rounds.parquet -o results.parquet": ("parquet", "report"),
    'capsa conformance run --engine "node examples/node-engine/engine.js" --rules pagat': (),
}
# Blocks that are not run, by title, and why.
NOT_RUN: dict[str, str] = {
    "python3 -m pip install . && python3 -m capsa play --seed 2026": (
        "installs from the checkout; the venv holds the wheel instead"
    ),
}

# What of the checkout the blocks run "from the repository's root" use: all
# the run copies of it.
FROM_ROOT = ("examples",)
_FROM_ROOT_NOTE = "from the repository's root"
# A command that serves until it is stopped; it prints where it listens.
_SERVER = re.compile(r"^python3? -m examples\.server\b")
_LISTENING = re.compile(r"^listening on (?P<url>http://\S+)$")
_FENCE = re.compile(r"^(?P<fence>`{3,})(?P<lang>[^`\s]*)\s*$")
_FILE_COMMENT = re.compile(r"#\s*(?P<name>[\w.-]+\.toml)\s*$")
_TRAILING_COMMENT = re.compile(r"\s+#.*$")
_IMPORT = re.compile(r"^(import \w|from [\w.]+ import )")
_MISSING_MODULE = re.compile(r"ModuleNotFoundError: No module named '(?P<module>[\w.]+)'\s*$")
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line \d+', re.MULTILINE)

COMMAND_SECONDS = 300  # a command's limit; the slowest, capsa simulate, takes about 50 s
LISTEN_SECONDS = 60  # for the server to listen, after its leases and restarts
STOP_SECONDS = 30  # for the server to stop after Ctrl-C


@dataclass(frozen=True)
class Block:
    """One fenced block of the README that the run reads."""

    line: int  # of the opening fence, counting from 1
    lang: str
    text: str

    @property
    def title(self) -> str:
        for line in self.text.splitlines():
            if line.strip() and not line.startswith("#") and not _IMPORT.match(line):
                return _TRAILING_COMMENT.sub("", line).rstrip()
        return ""

    @property
    def first_line(self) -> str:
        return self.text.splitlines()[0] if self.text else ""

    @property
    def file_name(self) -> str | None:
        """The file a ``toml`` block whose first line names one is written to."""
        named = _FILE_COMMENT.fullmatch(self.first_line)
        return named["name"] if self.lang == "toml" and named else None

    @property
    def where(self) -> str:
        return f"README.md:{self.line}"


def blocks(text: str) -> list[Block]:
    """The README's ``python`` and ``bash`` blocks and its ``toml`` blocks
    that name a file, in order, leaving out the test command."""
    found: list[Block] = []
    opening: tuple[int, str, str] | None = None
    body: list[str] = []
    in_test_command = False
    for number, line in enumerate(text.splitlines(), start=1):
        fence = _FENCE.match(line)
        if opening is None:
            if line.strip() == "<!-- test-command -->":
                in_test_command = True
            elif line.strip() == "<!-- /test-command -->":
                in_test_command = False
            elif fence:
                opening, body = (number, fence["fence"], fence["lang"]), []
        elif fence and fence["fence"] == opening[1] and not fence["lang"]:
            block = Block(opening[0], opening[2], "\n".join(body) + "\n")
            if not in_test_command and (
                block.lang in ("python", "bash") or block.file_name is not None
            ):
                found.append(block)
            opening = None
        else:
            body.append(line)
    if opening is not None:
        raise ValueError(f"README.md:{opening[0]}: a code block is not closed")
    if in_test_command:
        raise ValueError("README.md: the test-command markers are not closed")
    return found


def problems(found: Sequence[Block]) -> list[str]:
    """What the maps above do not know of the README's blocks, or know of
    blocks it no longer has."""
    titles = [b.title for b in found if b.lang in ("python", "bash")]
    known = EXTRAS.keys() | NOT_RUN.keys()
    wrong = [
        f"{b.where}: block {b.title!r} is not in EXTRAS or NOT_RUN of .ci/readme.py"
        for b in found
        if b.lang in ("python", "bash") and b.title not in known
    ]
    wrong += [f"no README block has the title {t!r} of .ci/readme.py" for t in known - {*titles}]
    wrong += [f"two README blocks have the title {t!r}" for t in {*titles} if titles.count(t) > 1]
    for block in found:
        uses = {p for p in FROM_ROOT if re.search(rf"\b{p}[/.]", block.text)}
        if uses and _FROM_ROOT_NOTE not in block.text:
            wrong.append(
                f"{block.where}: uses {', '.join(sorted(uses))} but does not say it runs "
                f"{_FROM_ROOT_NOTE}"
            )
        if _FROM_ROOT_NOTE in block.text and not uses:
            wrong.append(f"{block.where}: runs {_FROM_ROOT_NOTE} but uses none of {FROM_ROOT}")
    return wrong


def extra_modules(pyproject: Path = REPO / "pyproject.toml") -> dict[str, set[str]]:
    """The top-level modules each extra of pyproject.toml installs."""
    optional = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    optional = optional["optional-dependencies"]

    def modules(extra: str) -> set[str]:
        found: set[str] = set()
        for requirement in optional[extra]:
            name = re.match(r"[A-Za-z0-9_.-]+", requirement)
            inner = re.match(r"capsa\[(?P<extras>[\w,]+)\]", requirement)
            if inner:
                for other in inner["extras"].split(","):
                    found |= modules(other)
            elif name:
                found.add(name.group().lower().replace("-", "_"))
        return found

    return {extra: modules(extra) for extra in optional}


def names_extra(output: str, extras: Sequence[str], script: Path | None = None) -> str | None:
    """How a failure's output names one of ``extras``, or None: capsa's own
    error names ``capsa[EXTRA]``, and a block that imports the extra's
    module itself fails on that import, beside the README naming the extra."""
    for extra in extras:
        if re.search(rf"capsa\[[\w,]*\b{re.escape(extra)}\b", output):
            return f"capsa[{extra}]"
    missing = _MISSING_MODULE.search(output)
    frames = _FRAME.findall(output)
    if script is None or missing is None or not frames or frames[-1] != str(script):
        return None
    module = missing["module"].split(".")[0]
    modules = extra_modules()
    for extra in extras:
        if module in modules.get(extra, set()):
            return f"the block's own import of {module} (extra {extra})"
    return None


@dataclass
class Outcome:
    ok: bool
    output: str
    what: str  # the command that failed, or the server's health
    steps: list[tuple[str, float]] = field(default_factory=list)  # a shell block's, timed


def _environment() -> dict[str, str]:
    """A newcomer's environment: the venv first on PATH, nothing of CI's
    or the checkout's."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CAPSA_", "PYTHON")) and key not in ("VIRTUAL_ENV", "CI")
    }
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join([venv_bin, env.get("PATH", os.defpath)])
    env["VIRTUAL_ENV"] = sys.prefix
    return env


def _run(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    try:
        done = subprocess.run(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=COMMAND_SECONDS,
        )
    except subprocess.TimeoutExpired as exc:
        output = exc.output if isinstance(exc.output, str) else ""
        return -1, f"{output}\n(stopped after {COMMAND_SECONDS} s)"
    return done.returncode, done.stdout


def _health(url: str) -> tuple[bool, str]:
    """Whether ``GET url/health`` answers 200 ``ok``, within a few tries."""
    said = ""
    for _ in range(20):
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=10) as answer:
                said = answer.read().decode()
                if answer.status == 200 and json.loads(said).get("status") == "ok":
                    return True, said
        except (urllib.error.URLError, OSError, ValueError) as exc:
            said = str(exc)
        time.sleep(0.5)
    return False, said


def _serve(line: str, cwd: Path, env: dict[str, str]) -> Outcome:
    """Starts a server, asks its health, stops it with Ctrl-C. It listens on
    a free port rather than the README's default, which may be taken."""
    argv = [*shlex.split(_TRAILING_COMMENT.sub("", line)), "--port", "0"]
    server = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert server.stdout is not None
    lines: list[str] = []
    listening = threading.Event()
    url: list[str] = []

    def read(stream: Iterable[str]) -> None:
        for text in stream:
            lines.append(text)
            found = _LISTENING.match(text.strip())
            if found and not url:
                url.append(found["url"])
                listening.set()
        listening.set()  # the server ended without listening

    reader = threading.Thread(target=read, args=(server.stdout,), daemon=True)
    reader.start()
    listening.wait(LISTEN_SECONDS)
    healthy, said = _health(url[0]) if url else (False, "it did not listen")
    if server.poll() is None:
        server.send_signal(signal.SIGINT)
    try:
        code = server.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        server.kill()
        code = server.wait()
        lines.append(f"(killed: still running {STOP_SECONDS} s after Ctrl-C)\n")
    reader.join(5)
    output = "".join(lines)
    if not healthy:
        return Outcome(False, output, f"{line} (GET /health: {said})")
    # uvicorn stops cleanly on Ctrl-C, then ends by the signal it was sent
    if code not in (0, -signal.SIGINT):
        return Outcome(False, output, f"{line} (exit {code} after Ctrl-C)")
    return Outcome(True, output, f"{line} (GET /health: ok)")


def _commands(text: str) -> list[str]:
    """A shell block's commands, a line each (a trailing backslash joins)."""
    commands: list[str] = []
    pending = ""
    for line in text.splitlines():
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        line, pending = pending + line, ""
        if line.strip() and not line.lstrip().startswith("#"):
            commands.append(line)
    return commands


def run_block(block: Block, cwd: Path, scripts: Path, env: dict[str, str]) -> Outcome:
    """Runs one block; a shell block stops at its first failing command."""
    if block.lang == "python":
        script = scripts / f"readme_{block.line}.py"
        script.write_text(block.text, encoding="utf-8")
        code, output = _run([sys.executable, str(script)], cwd, env)
        return Outcome(code == 0, output, f"python (exit {code})")
    outputs: list[str] = []
    steps: list[tuple[str, float]] = []
    for command in _commands(block.text):
        began = time.monotonic()
        if _SERVER.match(command):
            outcome = _serve(command, cwd, env)
        else:
            code, output = _run(["bash", "-o", "pipefail", "-c", command], cwd, env)
            outcome = Outcome(
                code == 0, output, command if code == 0 else f"{command} (exit {code})"
            )
        outputs.append(outcome.output)
        steps.append((outcome.what if outcome.ok else command, time.monotonic() - began))
        if not outcome.ok:
            return Outcome(False, "".join(outputs), outcome.what, steps)
    return Outcome(True, "".join(outputs), "", steps)


def _tail(output: str, lines: int = 80) -> str:
    kept = output.rstrip("\n").splitlines()[-lines:]
    return "\n".join(f"   | {line}" for line in kept)


def _check_isolation(cwd: Path, env: dict[str, str]) -> None:
    """Fails unless the venv's capsa is the one imported, with nothing of
    the checkout on sys.path."""
    probe = "import sys, capsa; print(capsa.__file__); print(*sys.path, sep='\\n')"
    code, output = _run([sys.executable, "-c", probe], cwd, env)
    if code != 0:
        raise SystemExit(f"readme.py: import capsa failed in {sys.prefix}:\n{_tail(output)}")
    location, *path = output.splitlines()
    if not Path(location).is_relative_to(sys.prefix):
        raise SystemExit(f"readme.py: capsa is imported from {location}, not {sys.prefix}")
    checkout = [p for p in path if p and Path(p).resolve().is_relative_to(REPO)]
    if checkout:
        raise SystemExit(f"readme.py: the checkout is on sys.path: {checkout}")


def run(mode: str, cwd: Path) -> int:
    """Runs every block in order in ``cwd``; 0 when each did what ``mode``
    expects of it."""
    found = blocks(README.read_text(encoding="utf-8"))
    wrong = problems(found)
    if wrong:
        print("readme.py: the README and the lists of .ci/readme.py differ:", *wrong, sep="\n  ")
        return 1
    cwd.mkdir(parents=True, exist_ok=True)
    scripts = cwd.parent / f"{cwd.name}-scripts"
    scripts.mkdir(exist_ok=True)
    for path in FROM_ROOT:
        shutil.copytree(
            REPO / path, cwd / path, ignore=shutil.ignore_patterns("__pycache__", "build")
        )
    env = _environment()
    _check_isolation(cwd, env)
    print(f"-- {mode}: the README's blocks in {cwd}, with {sys.executable}", flush=True)
    started = time.monotonic()
    for block in found:
        if block.file_name is not None:
            (cwd / block.file_name).write_text(block.text, encoding="utf-8")
            print(f"   {block.where}  wrote {block.file_name}", flush=True)
            continue
        if block.title in NOT_RUN:
            print(f"   {block.where}  not run ({NOT_RUN[block.title]}): {block.first_line}")
            continue
        extras = EXTRAS[block.title] if mode == "core" else ()
        began = time.monotonic()
        outcome = run_block(block, cwd, scripts, env)
        seconds = time.monotonic() - began
        script = scripts / f"readme_{block.line}.py" if block.lang == "python" else None
        named = names_extra(outcome.output, extras, script) if extras else None
        if extras and not outcome.ok and named:
            verdict = f"fails without {'/'.join(extras)}, naming {named}"
        elif extras and outcome.ok:
            print(f"FAILED {block.where}: {block.first_line}")
            print(f"   runs without the extra {'/'.join(extras)} the README names for it")
            return 1
        elif extras:
            print(f"FAILED {block.where}: {block.first_line}")
            print(f"   fails without naming the extra to install ({', '.join(extras)}):")
            print(f"   {outcome.what}\n{_tail(outcome.output)}")
            return 1
        elif not outcome.ok:
            print(f"FAILED {block.where}: {block.first_line}")
            print(f"   {outcome.what}\n{_tail(outcome.output)}")
            return 1
        else:
            verdict = "ran"
        print(f"   {block.where}  {verdict} ({seconds:.1f} s): {block.first_line}", flush=True)
        if len(outcome.steps) > 1 or (outcome.steps and outcome.steps[0][0] != block.first_line):
            for command, took in outcome.steps:
                print(f"      {took:6.1f} s  {command}")
    print(f"-- {mode}: every block did as expected in {time.monotonic() - started:.0f} s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True)
    runs = commands.add_parser("run", help="run the blocks with this python's venv")
    runs.add_argument("--mode", choices=("core", "all"), required=True)
    runs.add_argument("--dir", type=Path, required=True, help="a new directory to run them in")
    commands.add_parser("list", help="print the blocks and what each needs")
    args = parser.parse_args(argv)
    if args.command == "run":
        return run(args.mode, args.dir.resolve())
    found = blocks(README.read_text(encoding="utf-8"))
    for block in found:
        if block.file_name is not None:
            need = f"written to {block.file_name}"
        elif block.title in NOT_RUN:
            need = f"not run: {NOT_RUN[block.title]}"
        else:
            need = ", ".join(EXTRAS.get(block.title, ("?",))) or "core"
        print(f"{block.where}  {block.lang:6}  {need:12}  {block.first_line}")
    wrong = problems(found)
    for problem in wrong:
        print(problem)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
