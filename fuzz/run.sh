#!/usr/bin/env bash
# Runs the fuzz target for a bounded time (building it first if needed).
#
#   fuzz/run.sh [seconds]         fuzz for that long (default 60) on 1 worker
#   fuzz/run.sh --repro FILE...   run the given inputs once (e.g. a crash-* file)
#   fuzz/run.sh --help            this text
#
# The corpus is kept in fuzz/out/corpus (grows across runs); inputs that make
# the target fail are written to fuzz/out/ as crash-*/leak-*/timeout-* and
# the failing input is printed in base64 as well. libFuzzer's own output goes
# to fuzz/out/fuzz.log; the outcome (or the failure report) is printed.
# To see what a failing input does: FUZZ_TRACE=1 fuzz/run.sh --repro FILE. Prints "1 passed, 0 failed"
# or "0 passed, 1 failed" last; exit status 0 only when no input failed.
# Environment: FUZZ_OUT (default fuzz/out), FUZZ_ARGS (extra libFuzzer flags).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${FUZZ_OUT:-$ROOT/fuzz/out}"
BIN="$OUT/fuzz_cache"

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
    sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
    exit 0
fi

if [ ! -x "$BIN" ] || [ -n "$(find "$ROOT/src" "$ROOT/include" "$ROOT/fuzz" -newer "$BIN" \( -name '*.c' -o -name '*.h' \) -print -quit)" ]; then
    FUZZ_OUT="$OUT" bash "$ROOT/fuzz/build.sh" || { echo "0 passed, 1 failed"; exit 1; }
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

if [ "${1:-}" = "--repro" ]; then
    shift
    "$BIN" -runs=1 "$@"
    rc=$?
else
    secs="${1:-60}"
    mkdir -p "$OUT/corpus"
    # -rss_limit_mb: each input maps a fresh segment of up to 4 MB;
    # -max_len: programs of up to ~800 operations.
    log="$OUT/fuzz.log"
    echo "fuzz: fuzzing for ${secs}s (corpus $OUT/corpus, log $log)"
    # shellcheck disable=SC2086
    "$BIN" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -max_len=4096 \
        -print_final_stats=1 -artifact_prefix="$OUT/" ${FUZZ_ARGS:-} "$OUT/corpus" >"$log" 2>&1
    rc=$?
    # libFuzzer's progress lines are long; show the outcome only.
    if [ "$rc" -eq 0 ]; then
        grep -E '^(Done|stat::)|INFO: (Loaded|seed)' "$log"
    else
        first=$(grep -nE 'fuzz_cache: op|ERROR: |runtime error|^==[0-9]+==' "$log" | head -1 | cut -d: -f1)
        if [ -n "$first" ]; then tail -n +"$((first > 20 ? first - 20 : 1))" "$log" | grep -vE '^"|# Uses:' | head -150
        else tail -n 80 "$log"; fi
    fi
fi
if [ "$rc" -eq 0 ]; then
    echo "1 passed, 0 failed"
else
    echo "fuzz: the target failed (exit $rc); see above and $OUT/"
    echo "0 passed, 1 failed"
fi
exit "$rc"
