#!/usr/bin/env bash
# Builds the fuzz targets once and runs each for a bounded time; the CI fuzz
# step. Usage: bash fuzz/run.sh [TARGET...] (default: every target).
#
#   CAPSA_FUZZ_SECONDS  seconds per target (default 30)
#   CAPSA_FUZZ_TOOLS    where cargo-fuzz is installed (default: a cache under
#                       $HOME, reused while it holds the pinned version)
#
# Exits non-zero on the first crash, panic, timeout or out-of-memory, after
# printing the reproducer's path and base64. See docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")"

CARGO_FUZZ_VERSION=0.13.2
seconds=${CAPSA_FUZZ_SECONDS:-30}
tools=${CAPSA_FUZZ_TOOLS:-${HOME:-/root}/.cache/capsa-fuzz/cargo-fuzz-$CARGO_FUZZ_VERSION}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(card_text round_json solver_tables settle_table round_record)
fi
# libFuzzer needs -Z flags (sanitizer coverage); this lets stable rustc take
# them, so no nightly toolchain is needed.
export RUSTC_BOOTSTRAP=1
# Optimised, with debug assertions and overflow checks (cargo-fuzz's default).
# No sanitizer: the core has no unsafe code, and uninstrumented runs are about
# twice as fast.
build_flags=(--sanitizer none)
# cargo-fuzz builds the workspace's release profile: here without its fat
# LTO (minutes of linking for no gain in a bounded run), with line tables so
# that a crash's backtrace names the line
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_DEBUG=1
# per input: 15 s, 2 GiB
libfuzzer_flags=(-max_total_time="$seconds" -timeout=15 -rss_limit_mb=2048 -print_final_stats=1)

if ! "$tools/bin/cargo-fuzz" --version 2>/dev/null | grep -qx "cargo-fuzz $CARGO_FUZZ_VERSION"; then
    echo "installing cargo-fuzz $CARGO_FUZZ_VERSION into $tools"
    start=$SECONDS
    cargo install cargo-fuzz --version "=$CARGO_FUZZ_VERSION" --locked --root "$tools" --quiet
    echo "installed in $((SECONDS - start)) s"
fi
export PATH="$tools/bin:$PATH"

start=$SECONDS
# every target at once: they share all but their own file
cargo fuzz build "${build_flags[@]}"
echo "built in $((SECONDS - start)) s"

mkdir -p logs
for target in "${targets[@]}"; do
    # new inputs go to work/, so the committed seeds stay as they are
    mkdir -p "work/$target" "artifacts/$target"
    log="logs/$target.log"
    echo "-- $target, ${seconds} s"
    set +e
    cargo fuzz run "${build_flags[@]}" "$target" "work/$target" "corpus/$target" \
        -- "${libfuzzer_flags[@]}" >"$log" 2>&1
    status=$?
    set -e
    if [ "$status" -ne 0 ]; then
        grep -E -A3 'panicked at|ERROR: libFuzzer|SUMMARY' "$log" | head -n 40
        echo "fuzz target $target failed (exit $status); full log: fuzz/$log" >&2
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
        if [ -n "$artifact" ]; then
            echo "reproducer: $artifact" >&2
            echo "reproducer (base64): $(base64 -w0 "$artifact")" >&2
            echo "reproduce: (cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer none $target $artifact)" >&2
        fi
        exit 1
    fi
    grep -E '^Done [0-9]+ runs' "$log" || true
    grep -E '^#[0-9]+.*(cov|ft):' "$log" | tail -n 1 || true
done
echo "fuzzing: every target ran ${seconds} s without a crash"
