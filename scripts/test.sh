#!/usr/bin/env bash
# Set up, build and run every test of shardcache:
#   1. scripts/setup.sh          (packages; no-op when present)
#   2. scripts/build.sh          (clean build, fails on any compiler warning)
#   3. phpt suite                (scripts/run-phpt.sh)
#   4. phpt suite under valgrind (scripts/run-phpt.sh --valgrind)
#   5. extra test commands       (EXTRA_TESTS below)
#   6. other platforms (PLATFORM_TESTS below): the phpt suite on PHP 8.4 NTS
#      (a trixie chroot, scripts/php84.sh), the phpt suite and the thread
#      driver on PHP 8.2 ZTS (scripts/php-zts.sh), Apache prefork + mod_php.
#      The 8.4 chroot and the ZTS PHP are made once and cached under
#      /opt/shardcache; on a fresh machine both are prepared in the
#      background (nice) from the start of the run, while phases 2-5 run.
# Prints a per-phase summary, a table per PHP version / build / SAPI, and,
# as the very last line, "N passed, N failed" summed over the phases.
# Exits non-zero on any failure.
#
# Options:
#   --no-valgrind   skip phase 4 (quick local runs; CI always runs it)
#   --no-platforms  skip phase 6 (only PHP 8.2 NTS)
#   --incremental   pass --incremental to scripts/build.sh
#   -h, --help      this text
# Environment: SC_PHPT_TIMEOUT (s, default 300), SC_VALGRIND_TIMEOUT
# (s, default 1500), SC_EXTRA_TIMEOUT (s, default 300), SC_SETUP_TIMEOUT (s,
# default 2400: waiting for the background 8.4 chroot / ZTS PHP build).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SO="$ROOT/modules/shardcache.so"

# ---------------------------------------------------------------------------
# EXTRA TEST COMMANDS -- add one entry per command: "name|shell command".
# Each runs from the project root through `bash -c`, with no stdin and a
# timeout of SC_EXTRA_TIMEOUT seconds. If it prints a run-tests summary or a
# line "N passed, N failed" those numbers are counted; otherwise it counts as
# 1 passed (exit 0) or 1 failed (non-zero exit). $SO is the built module.
EXTRA_TESTS=(
    # "bench-smoke|php -n benchmarks/bench.php --workload=fetch_int_hot16 --procs=2 --seconds=1 ..."
    "symfony|bash tests/symfony/run.sh \"\$SO\""
    "doctrine|bash tests/doctrine/run.sh \"\$SO\""
    "apcu-suite|bash scripts/apcu-suite.sh \"\$SO\""
    "fpm-abuse|bash scripts/fpm-abuse.sh --seconds=20 --so=\"\$SO\""
    "kill-test|bash scripts/kill-test.sh --kills=500 --seconds=100 --quiet --so=\"\$SO\""
    "kill-test-noproc|bash scripts/kill-test.sh --kills=500 --seconds=150 --quiet --no-proc --so=\"\$SO\""
    "kill-readers|bash scripts/kill-test.sh --readers --kills=400 --seconds=150 --quiet --so=\"\$SO\""
    "kill-zero-copy|bash scripts/kill-test.sh --zero-copy --kills=300 --seconds=100 --quiet --so=\"\$SO\""
    "kill-test-named|bash scripts/kill-test.sh --kills=300 --seconds=100 --quiet --segment=auto --restart-rounds=10 --so=\"\$SO\""
    "pin-death|bash scripts/pin-death-test.sh --so=\"\$SO\""
    "fpm-segments|bash scripts/fpm-segments-test.sh --so=\"\$SO\""
    "phpt-named|bash scripts/phpt-named.sh \"\$SO\""
    "segment-stale-lock|bash scripts/segment-stale-lock-test.sh --so=\"\$SO\""
    "fuzz|bash fuzz/run.sh 60"
    "package|bash scripts/check-package-xml.sh"
    "core-structure|bash scripts/check-core.sh"
    "browser|SO=\"\$SO\" bash scripts/browser-test.sh"
    "nearcache|bash tests/nearcache/run.sh \"\$SO\""
)

# PLATFORM TESTS: "name|platform|timeout|shell command" (platform: the PHP
# version, NTS/ZTS and SAPI it covers, for the table at the end).
PLATFORM_TESTS=(
    "phpt-8.4|8.4 NTS cli|600|bash scripts/test-php84.sh"
    "phpt-8.2-zts|8.2 ZTS cli|600|bash scripts/test-zts.sh phpt"
    "zts-threads|8.2 ZTS embed|300|bash scripts/test-zts.sh driver --threads=8 --child-threads=2 --seconds=60"
    "zts-threads-vg|8.2 ZTS embed|600|bash scripts/test-zts.sh driver --threads=4 --child-threads=1 --seconds=8 --ops=100 --fatal-every=0 --valgrind"
    "apache-prefork|8.2 NTS apache2|300|bash scripts/apache-test.sh --seconds=30 --so=\"\$SO\""
)
# ---------------------------------------------------------------------------

with_valgrind=1
with_platforms=1
build_args=()
for arg in "$@"; do
    case "$arg" in
        --no-valgrind) with_valgrind=0 ;;
        --no-platforms) with_platforms=0 ;;
        --incremental) build_args+=(--incremental) ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "test: unknown option $arg" >&2; exit 2 ;;
    esac
done

export NO_INTERACTION=1 SO
PHPT_TIMEOUT="${SC_PHPT_TIMEOUT:-300}"
VALGRIND_TIMEOUT="${SC_VALGRIND_TIMEOUT:-1500}"
EXTRA_TIMEOUT="${SC_EXTRA_TIMEOUT:-300}"
SETUP_TIMEOUT="${SC_SETUP_TIMEOUT:-2400}"

logdir="$(mktemp -d "${TMPDIR:-/tmp}/shardcache-test.XXXXXX")"
trap 'rm -rf "$logdir"' EXIT

CHILD=""
TAILPID=""
on_signal() {
    trap - INT TERM
    echo >&2
    echo "test: interrupted" >&2
    [ -n "$CHILD" ] && kill -TERM "$CHILD" 2>/dev/null && wait "$CHILD" 2>/dev/null
    [ -n "$TAILPID" ] && kill "$TAILPID" 2>/dev/null
    for p in ${BG_PIDS[@]+"${BG_PIDS[@]}"}; do kill -TERM "$p" 2>/dev/null; done
    rm -rf "$logdir"
    exit 130
}
trap on_signal INT TERM

TOTAL_PASS=0
TOTAL_FAIL=0
TOTAL_SKIP=0
SUMMARY=()
PLATFORM_ROWS=()
RUN_START=$(date +%s)

finish() {
    echo
    echo "================ shardcache test summary ================"
    local line
    for line in "${SUMMARY[@]}"; do echo "  $line"; done
    echo "========================================================="
    if [ "${#PLATFORM_ROWS[@]}" -gt 0 ]; then
        echo
        echo "================ by PHP version, build and SAPI ========="
        printf '  %-6s %-4s %-8s %-16s %s\n' PHP build SAPI phase result
        for line in "${PLATFORM_ROWS[@]}"; do echo "  $line"; done
        echo "========================================================="
    fi
    echo "whole run: $(( $(date +%s) - RUN_START )) s"
    local tail=""
    [ "$TOTAL_SKIP" -gt 0 ] && tail=", $TOTAL_SKIP skipped"
    echo "$TOTAL_PASS passed, $TOTAL_FAIL failed$tail"
    [ "$TOTAL_FAIL" -eq 0 ] && exit 0
    exit 1
}

# count_from_log LOG -> prints "passed failed skipped" or nothing.
# Understands run-tests.php's summary (failed = failed + borked + leaked) and
# a plain "N passed, N failed[, N skipped]" line; the last one printed wins.
count_from_log() {
    local log="$1"
    num() { # label -> last value of "<label> : N" in the run-tests summary
        grep -E "^$1 *: *[0-9]+" "$log" | tail -n 1 | sed -E "s/^$1 *: *([0-9]+).*/\1/"
    }
    if grep -qE '^Tests passed *: *[0-9]+' "$log"; then
        local p f b l s
        p="$(num 'Tests passed')"; f="$(num 'Tests failed')"; b="$(num 'Tests borked')"
        l="$(num 'Tests leaked')"; s="$(num 'Tests skipped')"
        echo "${p:-0} $(( ${f:-0} + ${b:-0} + ${l:-0} )) ${s:-0}"
        return
    fi
    local plain
    plain="$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" | tail -n 1)"
    if [ -n "$plain" ]; then
        echo "$plain" | sed -E 's/^([A-Za-z]+: )?([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\2 \3 \5/' \
            | awk '{ print $1, $2, ($3 == "" ? 0 : $3) }'
    fi
}

# run_phase NAME TIMEOUT MODE CMD...   MODE: suite (must report tests) | cmd
run_phase() {
    local name="$1" limit="$2" mode="$3"; shift 3
    local log="$logdir/phase-${#SUMMARY[@]}.log"
    echo
    echo "==== [$name] $* (timeout ${limit}s)"
    # timeout runs the command in its own process group and kills the whole
    # group at the limit; the output goes to the log and is shown live.
    timeout -k 30 "$limit" "$@" </dev/null >"$log" 2>&1 &
    CHILD=$!
    tail -n +1 -f --pid="$CHILD" "$log" &
    TAILPID=$!
    wait "$CHILD"
    local rc=$?
    CHILD=""
    wait "$TAILPID" 2>/dev/null
    TAILPID=""
    local counts p=0 f=0 s=0 note=""
    counts="$(count_from_log "$log")"
    if [ -n "$counts" ]; then
        read -r p f s <<<"$counts"
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            f=1; note=" (exit $rc with no failed test: counted as 1 failure)"
        fi
        if [ "$mode" = suite ] && [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
            f=1; note=" (no test passed: counted as 1 failure)"
        fi
    elif [ "$mode" = suite ]; then
        f=1; note=" (no test summary found: counted as 1 failure)"
    elif [ "$rc" -eq 0 ]; then
        p=1
    else
        f=1
    fi
    [ "$rc" -eq 124 ] && note="$note (timed out after ${limit}s)"
    TOTAL_PASS=$((TOTAL_PASS + p))
    TOTAL_FAIL=$((TOTAL_FAIL + f))
    TOTAL_SKIP=$((TOTAL_SKIP + s))
    SUMMARY+=("$(printf '%-16s exit %-3s %s passed, %s failed, %s skipped%s' "$name" "$rc" "$p" "$f" "$s" "$note")")
    if [ -n "${PHASE_PLATFORM:-}" ]; then
        local ver bld sapi
        read -r ver bld sapi <<<"$PHASE_PLATFORM"
        PLATFORM_ROWS+=("$(printf '%-6s %-4s %-8s %-16s %s passed, %s failed, %s skipped%s' "$ver" "$bld" "$sapi" \
            "$name" "$p" "$f" "$s" "$note")")
    fi
}

# Setup and build are prerequisites, not tests: a failure there is reported
# as 1 failure and stops the run.
step() { # NAME CMD...
    local name="$1"; shift
    echo
    echo "==== [$name] $*"
    if "$@" </dev/null; then
        SUMMARY+=("$(printf '%-16s ok' "$name")")
    else
        local rc=$?
        SUMMARY+=("$(printf '%-16s FAILED (exit %s)' "$name" "$rc")")
        TOTAL_FAIL=$((TOTAL_FAIL + 1))
        finish
    fi
}

step setup bash scripts/setup.sh

# The slow preparations of phase 6 (a debootstrap, a PHP build) start now in
# the background, niced, and are waited for before their phases.
BG_PIDS=()
if [ "$with_platforms" -eq 1 ]; then
    (nice -n 10 bash scripts/php84.sh >"$logdir/prep-php84.log" 2>&1 </dev/null; echo $? >"$logdir/prep-php84.rc") &
    BG_PIDS+=($!)
    (nice -n 10 bash scripts/php-zts.sh >"$logdir/prep-zts.log" 2>&1 </dev/null; echo $? >"$logdir/prep-zts.rc") &
    BG_PIDS+=($!)
fi

step build bash scripts/build.sh "${build_args[@]}"

if [ ! -f scripts/run-phpt.sh ]; then
    echo "test: scripts/run-phpt.sh is missing" >&2
    SUMMARY+=("$(printf '%-16s FAILED (scripts/run-phpt.sh missing)' phpt)")
    TOTAL_FAIL=$((TOTAL_FAIL + 1))
else
    PHASE_PLATFORM="8.2 NTS cli"
    run_phase phpt "$PHPT_TIMEOUT" suite bash scripts/run-phpt.sh "$SO"
    if [ "$with_valgrind" -eq 1 ]; then
        if command -v valgrind >/dev/null 2>&1; then
            run_phase phpt-valgrind "$VALGRIND_TIMEOUT" suite bash scripts/run-phpt.sh --valgrind "$SO"
        else
            SUMMARY+=("$(printf '%-16s FAILED (valgrind not installed)' phpt-valgrind)")
            TOTAL_FAIL=$((TOTAL_FAIL + 1))
        fi
    else
        SUMMARY+=("$(printf '%-16s skipped (--no-valgrind)' phpt-valgrind)")
    fi
fi

PHASE_PLATFORM="8.2 NTS cli"
for entry in ${EXTRA_TESTS[@]+"${EXTRA_TESTS[@]}"}; do
    name="${entry%%|*}"
    case "$name" in fpm-abuse) PHASE_PLATFORM="8.2 NTS fpm" ;; *) PHASE_PLATFORM="" ;; esac
    run_phase "$name" "$EXTRA_TIMEOUT" cmd bash -c "${entry#*|}"
done
PHASE_PLATFORM=""

# wait_prep NAME: waits (up to SETUP_TIMEOUT in all) for a background
# preparation; prints its log and how long the whole run had waited.
prep_deadline=$(( $(date +%s) + SETUP_TIMEOUT ))
wait_prep() {
    local name="$1"
    while [ ! -f "$logdir/prep-$name.rc" ] && [ "$(date +%s)" -lt "$prep_deadline" ]; do
        sleep 5
    done
    echo
    echo "==== [prepare $name] (background, since the start of the run: $(( $(date +%s) - RUN_START )) s)"
    cat "$logdir/prep-$name.log" 2>/dev/null
    if [ "$(cat "$logdir/prep-$name.rc" 2>/dev/null)" = 0 ]; then
        SUMMARY+=("$(printf '%-16s ok (ready %s s after the start)' "prep-$name" "$(( $(date +%s) - RUN_START ))")")
        return 0
    fi
    SUMMARY+=("$(printf '%-16s FAILED (see above)' "prep-$name")")
    TOTAL_FAIL=$((TOTAL_FAIL + 1))
    return 1
}

if [ "$with_platforms" -eq 1 ]; then
    php84_ok=0 zts_ok=0
    wait_prep php84 && php84_ok=1
    for entry in "${PLATFORM_TESTS[@]}"; do
        IFS='|' read -r name PHASE_PLATFORM limit cmd <<<"$entry"
        case "$PHASE_PLATFORM" in
            8.4*) [ "$php84_ok" -eq 1 ] || continue ;;
            *ZTS*)
                if [ "$zts_ok" -eq 0 ]; then
                    wait_prep zts && zts_ok=1 || zts_ok=2
                fi
                [ "$zts_ok" -eq 1 ] || continue ;;
        esac
        run_phase "$name" "$limit" cmd bash -c "$cmd"
    done
    PHASE_PLATFORM=""
else
    SUMMARY+=("$(printf '%-16s skipped (--no-platforms)' platforms)")
fi

finish
