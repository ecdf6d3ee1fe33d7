#!/usr/bin/env bash
# The README run as a newcomer runs it, on the release wheel .ci/wheel.sh
# built (left in CAPSA_WHEEL_DIR, else target/wheels): the wheel alone in a
# fresh venv of the highest CPython on the machine, where every block that
# needs no extra must run and every other must fail naming its extra; then
# the wheel with every extra (capsa[all]) in a second fresh venv, where every
# block must run, in order, in one directory. .ci/readme.py runs the blocks.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
    echo "readme.sh: FAILED: $*" >&2
    exit 1
}

started=$SECONDS
wheel_dir=${CAPSA_WHEEL_DIR:-target/wheels}
shopt -s nullglob
wheels=("$wheel_dir"/capsa-*.whl)
shopt -u nullglob
[ "${#wheels[@]}" -eq 1 ] \
    || fail "expected one capsa wheel in $wheel_dir, found ${#wheels[@]} (.ci/wheel.sh builds it into CAPSA_WHEEL_DIR)"
wheel=$(realpath "${wheels[0]}")

# The highest CPython: pyenv's, else the system's python3.N (as wheel.sh).
interpreter=""
highest=-1
consider() { # an interpreter, its minor version
    if [ -x "$1" ] && [ "$2" -ge 10 ] && [ "$2" -gt "$highest" ]; then
        interpreter=$1
        highest=$2
    fi
}
if command -v pyenv >/dev/null; then
    for dir in "$(pyenv root)"/versions/3.*; do
        [[ $(basename "$dir") =~ ^3\.([0-9]+)\.[0-9]+$ ]] || continue
        consider "$dir/bin/python3" "${BASH_REMATCH[1]}"
    done
fi
if [ -z "$interpreter" ]; then
    for exe in /usr/bin/python3.* /usr/local/bin/python3.*; do
        [[ $(basename "$exe") =~ ^python3\.([0-9]+)$ ]] || continue
        consider "$exe" "${BASH_REMATCH[1]}"
    done
fi
[ -n "$interpreter" ] || fail "no CPython >= 3.10 found"

work=$(mktemp -d)
all_pid=""
cleanup() {
    if [ -n "$all_pid" ]; then
        kill "$all_pid" 2>/dev/null || true
        wait "$all_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

echo "-- wheel $(basename "$wheel"), Python 3.$highest ($interpreter)"
# The extras take the longest to install: they do while the core venv runs.
"$interpreter" -m venv "$work/venv-all" || fail "could not make a venv with $interpreter"
"$work/venv-all/bin/python" -m pip install -q --only-binary=:all: "${wheel}[all]" \
    >"$work/install-all.log" 2>&1 &
all_pid=$!

"$interpreter" -m venv "$work/venv-core" || fail "could not make a venv with $interpreter"
"$work/venv-core/bin/python" -m pip install -q --only-binary=:all: "$wheel" \
    || fail "pip could not install $(basename "$wheel")"
echo "   (core venv ready: $((SECONDS - started)) s)"
"$work/venv-core/bin/python" .ci/readme.py run --mode core --dir "$work/core" \
    || fail "the README with the core install"

status=0
wait "$all_pid" || status=$?
all_pid=""
if [ "$status" -ne 0 ]; then
    cat "$work/install-all.log" >&2
    fail "pip could not install $(basename "$wheel")[all]"
fi
echo "   (venv with every extra ready: $((SECONDS - started)) s)"
"$work/venv-all/bin/python" .ci/readme.py run --mode all --dir "$work/all" \
    || fail "the README with every extra"

echo "-- the README ran on the wheel alone and with every extra in $((SECONDS - started)) s"
