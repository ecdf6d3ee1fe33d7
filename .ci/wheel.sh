#!/usr/bin/env bash
# The wheel as it would be published: build it (abi3, manylinux2014, linked
# with zig against glibc 2.17), check that its tag is what a package index
# expects and that auditwheel finds the extension satisfies exactly the
# manylinux policy the tag claims, then install it into fresh venvs of the
# lowest and the highest CPython on the machine and run it there; leave it in
# CAPSA_WHEEL_DIR when that is set.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
    echo "wheel.sh: FAILED: $*" >&2
    exit 1
}

# The build tools go into the CI venv; outside CI, into the project's .venv.
if [ -z "${VIRTUAL_ENV:-}" ]; then
    [ -f .venv/bin/activate ] || fail "no venv active and no .venv: run .ci/run, or make .venv first"
    # shellcheck disable=SC1091
    . .venv/bin/activate
fi

compatibility=manylinux2014
arch=$(uname -m)
expected_platform="manylinux_2_17_${arch}"
expected_python=cp310
expected_abi=abi3
# The lowest CPython the wheel supports: 3.10, from cp310 (pyo3's abi3-py310).
min_minor=10

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$SECONDS
stage_started=$SECONDS
stage_done() {
    echo "   ($1: $((SECONDS - stage_started)) s)"
    stage_started=$SECONDS
}

echo "-- installing maturin, ziglang, auditwheel into $VIRTUAL_ENV"
python -m pip install -q "maturin>=1.9.4,<2" "ziglang>=0.13,<0.18" "auditwheel>=6,<7" \
    || fail "could not install maturin, ziglang and auditwheel"
stage_done "tools"

echo "-- building the wheel (maturin build --release --zig --compatibility $compatibility)"
maturin build --release --zig --compatibility "$compatibility" --out "$work/dist" \
    || fail "maturin build failed"
shopt -s nullglob
wheels=("$work"/dist/*.whl)
shopt -u nullglob
[ "${#wheels[@]}" -eq 1 ] || fail "expected one wheel in $work/dist, found ${#wheels[@]}"
wheel=${wheels[0]}
stage_done "build"

# name-version-python-abi-platform.whl; the platform may be a dotted set of tags.
wheel_name=$(basename "$wheel" .whl)
IFS=- read -r _name version python_tag abi_tag platform_tags extra <<<"$wheel_name"
[ -z "${extra:-}" ] || fail "unexpected wheel name $wheel_name (a build tag?)"
echo "-- wheel: $wheel_name"
echo "   tags: python $python_tag, abi $abi_tag, platform $platform_tags"
[ "$python_tag" = "$expected_python" ] || fail "python tag is $python_tag, expected $expected_python"
[ "$abi_tag" = "$expected_abi" ] || fail "abi tag is $abi_tag, expected $expected_abi"
case ".$platform_tags." in
*".$expected_platform."*) ;;
*) fail "platform tags $platform_tags do not include $expected_platform" ;;
esac
contents=$(python -m zipfile -l "$wheel") || fail "could not list $wheel_name"
grep -q "\.dist-info/licenses/LICENSE " <<<"$contents" || fail "the wheel has no dist-info/licenses/LICENSE"

echo "-- auditwheel show"
audit=$(auditwheel show "$wheel") || fail "auditwheel show failed on $wheel_name"
while IFS= read -r line; do echo "   $line"; done <<<"$audit"
# auditwheel names the lowest policy the extension's symbols allow.
policy=$(echo "$audit" | tr '\n' ' ' \
    | sed -n 's/.*consistent with the following platform tag: *"\([^"]*\)".*/\1/p')
[ -n "$policy" ] || fail "could not read the platform policy from auditwheel show"
[ "$policy" = "$expected_platform" ] \
    || fail "auditwheel finds policy $policy, the wheel claims $expected_platform"
stage_done "tag checks"

# CPython versions the wheel supports: pyenv's, else the system's python3.N.
declare -A python_for_minor=()
if command -v pyenv >/dev/null; then
    for dir in "$(pyenv root)"/versions/3.*; do
        release=$(basename "$dir")
        [[ $release =~ ^3\.([0-9]+)\.[0-9]+$ ]] || continue
        [ -x "$dir/bin/python3" ] || continue
        python_for_minor[${BASH_REMATCH[1]}]="$dir/bin/python3"
    done
fi
if [ "${#python_for_minor[@]}" -eq 0 ]; then
    for exe in /usr/bin/python3.* /usr/local/bin/python3.*; do
        [[ $(basename "$exe") =~ ^python3\.([0-9]+)$ ]] || continue
        [ -x "$exe" ] || continue
        python_for_minor[${BASH_REMATCH[1]}]=$exe
    done
fi
supported=()
for minor in "${!python_for_minor[@]}"; do
    if [ "$minor" -ge "$min_minor" ]; then
        supported+=("$minor")
    fi
done
[ "${#supported[@]}" -ge 2 ] \
    || fail "need two CPython versions >= 3.$min_minor to test the wheel on, found ${#supported[@]}"
mapfile -t supported < <(printf '%s\n' "${supported[@]}" | sort -n)
lowest=${supported[0]}
highest=${supported[${#supported[@]} - 1]}

# The CI venv's own build plays the reference game, when it has one.
reference=""
if [ -x "$VIRTUAL_ENV/bin/capsa" ]; then
    reference="$work/play-reference.txt"
    (cd "$work" && "$VIRTUAL_ENV/bin/capsa" play --seed 2026 >"$reference") \
        || fail "capsa play --seed 2026 failed in $VIRTUAL_ENV"
fi

for minor in "$lowest" "$highest"; do
    interpreter=${python_for_minor[$minor]}
    venv="$work/venv-3.$minor"
    echo "-- Python 3.$minor ($interpreter): fresh venv, install the wheel, run it"
    "$interpreter" -m venv "$venv" || fail "could not make a venv with $interpreter"
    "$venv/bin/python" -m pip install -q --only-binary=:all: "$wheel" \
        || fail "pip could not install $wheel_name on Python 3.$minor"
    # Run outside the checkout so that only the installed package is importable.
    installed_version=$(cd "$work" && "$venv/bin/python" -c "import capsa; print(capsa.__version__)") \
        || fail "import capsa failed on Python 3.$minor"
    echo "   capsa.__version__ = $installed_version"
    [ "$installed_version" = "$version" ] \
        || fail "Python 3.$minor imports capsa $installed_version, the wheel is $version"
    location=$(cd "$work" && "$venv/bin/python" -c "import capsa; print(capsa.__file__)")
    [[ $location == "$venv"/* ]] || fail "Python 3.$minor imports capsa from $location, not the venv"
    play="$work/play-3.$minor.txt"
    (cd "$work" && "$venv/bin/capsa" play --seed 2026 >"$play") \
        || fail "capsa play --seed 2026 failed on Python 3.$minor"
    echo "   capsa play --seed 2026: $(wc -l <"$play") lines"
    if [ -n "$reference" ]; then
        cmp -s "$play" "$reference" \
            || fail "capsa play --seed 2026 from the wheel on Python 3.$minor differs from $VIRTUAL_ENV's"
    fi
    stage_done "Python 3.$minor"
done

# .ci/readme.sh runs the README on this wheel rather than building another.
if [ -n "${CAPSA_WHEEL_DIR:-}" ]; then
    mkdir -p "$CAPSA_WHEEL_DIR"
    rm -f "$CAPSA_WHEEL_DIR"/capsa-*.whl
    cp "$wheel" "$CAPSA_WHEEL_DIR/" || fail "could not copy $wheel_name to $CAPSA_WHEEL_DIR"
    echo "-- wheel left in $CAPSA_WHEEL_DIR"
fi

echo "-- wheel $wheel_name passed on Python 3.$lowest and 3.$highest in $((SECONDS - started)) s"
