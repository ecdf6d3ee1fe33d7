#!/usr/bin/env bash
# Statistical batteries from Debian's packages on the dealing generators, on
# a bounded sample (about half a minute): rngtest's FIPS 140-2 tests and a
# set of dieharder tests on the fair deal's HMAC-SHA256 stream, and dieharder
# on the seeded deal's ChaCha20 stream. The seeds are fixed, so a run is
# repeatable; `capsa rng dump` writes the same bytes for any other battery.
set -euo pipefail

if ! command -v dieharder >/dev/null || ! command -v rngtest >/dev/null; then
    echo "installing dieharder and rng-tools5 (rngtest) from Debian"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dieharder rng-tools5 >/dev/null
fi

server_seed=$(printf 'capsa rng battery' | sha256sum | cut -d' ' -f1)
fail=0

# rngtest: 5,000 blocks of 20,000 bits. Each block of ideal random bits fails
# with probability about 0.0008 (4 expected); more than 12 failures would
# happen by chance about once in 3,000 runs.
blocks=5000
report=$(capsa rng dump --count $((blocks * 625 + 1)) --out - --server-seed "$server_seed" 2>/dev/null \
    | rngtest -c "$blocks" 2>&1 || true)
failures=$(sed -n 's/^rngtest: FIPS 140-2 failures: \([0-9]*\)$/\1/p' <<<"$report")
echo "rngtest, fair stream: ${failures:-?} of $blocks blocks failed FIPS 140-2 (at most 12 allowed)"
if [ -z "$failures" ] || [ "$failures" -gt 12 ]; then
    echo "$report" >&2
    fail=1
fi

# dieharder reads raw 32-bit words from standard input (-g 200) until it has
# enough; the generator stops when dieharder closes the pipe. A test whose
# p-value is out of range even at the 1e-6 level is FAILED.
run_dieharder() {
    local name=$1
    shift
    local tests=(0 4 15 100 101)
    for t in "${tests[@]}"; do
        local out
        out=$("$@" 2>/dev/null | dieharder -g 200 -d "$t" 2>&1 | grep -E 'PASSED|WEAK|FAILED' || true)
        if [ -z "$out" ]; then
            echo "dieharder -d $t on the $name stream gave no result" >&2
            fail=1
            continue
        fi
        echo "$out" | sed "s/^/dieharder, $name stream: /"
        if grep -q FAILED <<<"$out"; then
            fail=1
        fi
    done
}
run_dieharder fair capsa rng dump --count 1099511627776 --out - --server-seed "$server_seed"
run_dieharder chacha20 capsa rng dump --count 1099511627776 --out - --generator chacha20 --seed 2026

if [ "$fail" -ne 0 ]; then
    echo "the statistical battery failed" >&2
    exit 1
fi
echo "statistical battery passed"
