#!/usr/bin/env bash
# Set up, build and run the tests of shardcache, by named phases.
#
#   scripts/test.sh                      everything (what CI runs: .ci/run)
#   scripts/test.sh PHASE...             only these phases (after setup and build)
#   scripts/test.sh PHASE -- ARGS...     one phase, ARGS appended to its command
#                                        (e.g. scripts/test.sh phpt -- tests/api/,
#                                        scripts/test.sh kill-test -- --kills=50)
#   scripts/test.sh --list               the phases, in run order, with commands
#
# A PHASE is a phase's name, or a group: a prefix before "-" (kill: every
# kill-* phase; fpm; zts: zts-threads*) or "platforms" (every phase of
# another PHP version, build or SAPI). Every phase runs its command from the
# project root with no stdin, under a timeout; the command is the runner that
# lives beside its tests (tests/<area>/run.sh ...), which can also be run on
# its own (each has --help).
#
# What "everything" is: the phases `scripts/test.sh --list` prints, in that
# order, but the optional ones (the list is kept in this file alone; docs
# include its output: scripts/check-docs.sh). Their kinds: prereq (setup,
# build), core (the phpt suite, and under valgrind), extra (EXTRA_TESTS
# below), platform (PLATFORM_TESTS below: other PHP versions, builds and
# SAPIs) and optional (OPTIONAL_TESTS below, run only when named). The
# roots and PHP builds the platform phases need (PREPS below) are made
# once and cached under $SHARDCACHE_CACHE_DIR (default /opt/shardcache; an
# empty folder there makes a fresh machine's run); they are prepared in
# the background (nice) from the start of the run, while the other phases
# run.
# Prints a per-phase summary, a table per PHP version / build / SAPI, and,
# as the very last line, "N passed, N failed" summed over the phases.
# Exits non-zero on any failure.
#
# Options:
#   --list          list the phases and exit
#   --no-valgrind   skip phpt-valgrind in a whole run (quick local runs; CI always runs it)
#   --no-platforms  skip the platform phases in a whole run (only PHP 8.2 NTS)
#   --no-build      skip setup and build: test the existing modules/shardcache.so
#   --incremental   pass --incremental to scripts/build.sh
#   -h, --help      this text
# Environment: SHARDCACHE_CACHE_DIR (the cache of slow builds: roots, ZTS
# PHPs, downloaded sources; default /opt/shardcache), SC_PHPT_TIMEOUT (s, default 300), SC_VALGRIND_TIMEOUT
# (s, default 1500), SC_EXTRA_TIMEOUT (s, default 300), SC_SETUP_TIMEOUT (s,
# default 2400: waiting for the background roots / ZTS PHP builds).
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
    "apcu-suite|bash tests/apcu-suite/run.sh \"\$SO\""
    "fpm-abuse|bash tests/fpm/abuse.sh --seconds=20 --so=\"\$SO\""
    "kill-test|bash tests/kill/run.sh --kills=500 --seconds=100 --quiet --so=\"\$SO\""
    "kill-test-noproc|bash tests/kill/run.sh --kills=500 --seconds=150 --quiet --no-proc --so=\"\$SO\""
    "kill-readers|bash tests/kill/run.sh --readers --kills=400 --seconds=150 --quiet --so=\"\$SO\""
    "kill-zero-copy|bash tests/kill/run.sh --zero-copy --kills=300 --seconds=100 --quiet --so=\"\$SO\""
    "kill-test-named|bash tests/kill/run.sh --kills=300 --seconds=100 --quiet --segment=auto --restart-rounds=10 --so=\"\$SO\""
    "pin-death|bash tests/pin/run.sh --so=\"\$SO\""
    "fpm-segments|bash tests/fpm/segments.sh --so=\"\$SO\""
    "fpm-isolation|bash tests/fpm/isolation.sh --so=\"\$SO\""
    "kill-isolation|bash tests/isolation/killed-writers.sh --so=\"\$SO\""
    "phpt-named|bash tests/run-phpt.sh --named \"\$SO\" --"
    "segment-stale-lock|bash tests/segment/stale-lock.sh --so=\"\$SO\""
    "segment-squat|bash tests/segment/squat.sh --so=\"\$SO\""
    "segment-fuzz|bash tests/segment/fuzz-file.sh --seconds=60 --so=\"\$SO\""
    "zero-copy-reset-held|bash tests/zero-copy/reset-held.sh --so=\"\$SO\""
    "fuzz|bash fuzz/run.sh 60"
    "package|bash scripts/check-package-xml.sh"
    "core-structure|bash tests/structure/run.sh"
    "browser|SO=\"\$SO\" bash tests/browser/run.sh"
    "nearcache|bash tests/nearcache/run.sh \"\$SO\""
    "debian-package|bash tests/debian/run.sh"
)
# The extra phases that say which PHP they run on (the table at the end), and
# those with a timeout of their own (seconds) instead of SC_EXTRA_TIMEOUT.
declare -A EXTRA_PLATFORM=(
    [fpm-abuse]="8.2 NTS fpm"
    [debian-package]="8.2 NTS deb+fpm"
)
declare -A EXTRA_LIMIT=(
    [debian-package]=900
)

# PLATFORM TESTS: "name|platform|timeout|shell command" (platform: the PHP
# version, NTS/ZTS and SAPI it covers, for the table at the end).
PLATFORM_TESTS=(
    "phpt-8.4|8.4 NTS cli|600|bash tests/phpver/run.sh 8.4 --"
    "phpt-8.5|8.5 NTS cli|600|bash tests/phpver/run.sh 8.5 --"
    "phpt-8.6|8.6 NTS cli|600|bash tests/phpver/run.sh 8.6 --"
    "phpt-8.2-zts|8.2 ZTS cli|600|bash tests/zts/run.sh phpt --"
    "zts-threads|8.2 ZTS embed|300|bash tests/zts/run.sh driver --threads=8 --child-threads=2 --seconds=60"
    "zts-threads-vg|8.2 ZTS embed|600|bash tests/zts/run.sh driver --threads=4 --child-threads=1 --seconds=8 --ops=100 --fatal-every=0 --valgrind"
    "zc-cross-build|8.2 ZTS cli+8.2/8.4 NTS|300|bash tests/zero-copy/cross-build.sh --so=\"\$SO\""
    "apache-prefork|8.2 NTS apache2|300|bash tests/apache/run.sh --seconds=30 --so=\"\$SO\""
    "asan|8.2 NTS cli ASan+UBSan|1500|bash tests/asan/run.sh --kill-test=300"
    "phpt-debug|8.2 NTS cli debug|600|bash scripts/build.sh --debug && bash tests/run-phpt.sh \"\$(bash scripts/build.sh --debug --print-dir)/modules/shardcache.so\" --"
)

# OPTIONAL TESTS: "name|timeout|shell command", run only when named.
# ZTS PHP 8.6: optional until Debian's mirror serves a php8.6 source
# package that downloads (`bash scripts/provision/php-zts.sh 8.6 --versions`
# lists what its index names; the files of 8.6.0~rc3-1 answer 404; php-zts.sh
# exits 3).
OPTIONAL_TESTS=(
    "phpt-8.6-zts|1500|bash scripts/provision/php-zts.sh 8.6 && bash tests/zts/run.sh 8.6 phpt --"
    "zts-threads-8.6|1200|bash scripts/provision/php-zts.sh 8.6 && bash tests/zts/run.sh 8.6 driver --threads=8 --child-threads=2 --seconds=60"
    "zts-threads-8.6-vg|1200|bash scripts/provision/php-zts.sh 8.6 && bash tests/zts/run.sh 8.6 driver --threads=4 --child-threads=1 --seconds=8 --ops=100 --fatal-every=0 --valgrind"
)
# ---------------------------------------------------------------------------

with_valgrind=1
with_platforms=1
do_build=1
list_only=0
build_args=()
selectors=()
pass_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --no-valgrind) with_valgrind=0 ;;
        --no-platforms) with_platforms=0 ;;
        --no-build) do_build=0 ;;
        --incremental) build_args+=(--incremental) ;;
        --list) list_only=1 ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --) shift; pass_args=("$@"); break ;;
        -*) echo "test: unknown option $1" >&2; exit 2 ;;
        *) selectors+=("$1") ;;
    esac
    shift
done

PHPT_TIMEOUT="${SC_PHPT_TIMEOUT:-300}"
VALGRIND_TIMEOUT="${SC_VALGRIND_TIMEOUT:-1500}"
EXTRA_TIMEOUT="${SC_EXTRA_TIMEOUT:-300}"
SETUP_TIMEOUT="${SC_SETUP_TIMEOUT:-2400}"

# Every phase in run order: "name|kind|timeout|platform|command"
# (kind: core = must report tests; extra, platform, optional = any command).
PHASES=(
    "phpt|core|$PHPT_TIMEOUT|8.2 NTS cli|bash tests/run-phpt.sh \"\$SO\" --"
    "phpt-valgrind|core|$VALGRIND_TIMEOUT|8.2 NTS cli|bash tests/run-phpt.sh --valgrind \"\$SO\" --"
)
for entry in ${EXTRA_TESTS[@]+"${EXTRA_TESTS[@]}"}; do
    name="${entry%%|*}"
    PHASES+=("$name|extra|${EXTRA_LIMIT[$name]:-$EXTRA_TIMEOUT}|${EXTRA_PLATFORM[$name]:-}|${entry#*|}")
done
for entry in "${PLATFORM_TESTS[@]}"; do
    IFS='|' read -r name plat limit cmd <<<"$entry"
    PHASES+=("$name|platform|$limit|$plat|$cmd")
done
for entry in ${OPTIONAL_TESTS[@]+"${OPTIONAL_TESTS[@]}"}; do
    IFS='|' read -r name limit cmd <<<"$entry"
    PHASES+=("$name|optional|$limit||$cmd")
done

if [ "$list_only" -eq 1 ]; then
    printf '%-20s %-9s %s\n' setup prereq "bash scripts/setup.sh"
    printf '%-20s %-9s %s\n' build prereq "bash scripts/build.sh"
    for entry in "${PHASES[@]}"; do
        IFS='|' read -r name kind limit plat cmd <<<"$entry"
        printf '%-20s %-9s %s\n' "$name" "$kind" "$cmd"
    done
    echo "(groups: a prefix before \"-\", e.g. kill, fpm, zts; \"platforms\": every platform phase;"
    echo " optional phases run only when named; \$SO is the built module)"
    exit 0
fi

# SELECTED[name]=1 for the phases to run.
declare -A SELECTED=()
if [ "${#selectors[@]}" -eq 0 ]; then
    for entry in "${PHASES[@]}"; do
        IFS='|' read -r name kind _ <<<"$entry"
        case "$kind" in
            optional) ;;
            platform) [ "$with_platforms" -eq 1 ] && SELECTED[$name]=1 ;;
            *) [ "$name" = phpt-valgrind ] && [ "$with_valgrind" -eq 0 ] || SELECTED[$name]=1 ;;
        esac
    done
else
    for sel in "${selectors[@]}"; do
        found=0
        for entry in "${PHASES[@]}"; do
            IFS='|' read -r name kind _ <<<"$entry"
            [ "$name" = "$sel" ] && { SELECTED[$name]=1; found=1; }
        done
        if [ "$found" -eq 0 ]; then
            for entry in "${PHASES[@]}"; do
                IFS='|' read -r name kind _ <<<"$entry"
                # A group never takes an optional phase: those run only
                # when named.
                [ "$kind" = optional ] && continue
                if [ "${name#"$sel"-}" != "$name" ] || { [ "$sel" = platforms ] && [ "$kind" = platform ]; }; then
                    SELECTED[$name]=1; found=1
                fi
            done
        fi
        [ "$found" -eq 1 ] || { echo "test: no phase or group named $sel (see scripts/test.sh --list)" >&2; exit 2; }
    done
fi
if [ "${#pass_args[@]}" -gt 0 ] && [ "${#SELECTED[@]}" -ne 1 ]; then
    echo "test: arguments after -- go to one phase; ${#SELECTED[@]} phases are selected" >&2
    exit 2
fi

export NO_INTERACTION=1 SO

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
FAILED_LOGS=()  # "name|log" of each failed phase, shown again at the end
RUN_START=$(date +%s)

finish() {
    # A failed phase's output scrolled past long ago: its last lines are
    # printed again here, where a reader of only the run's tail sees them.
    local entry
    for entry in ${FAILED_LOGS[@]+"${FAILED_LOGS[@]}"}; do
        echo
        echo "==== failed phase ${entry%%|*}: the last lines of its output"
        grep -v -E '^TEST [0-9]+/[0-9]+ .*(PASS|SKIP)' "${entry#*|}" | tail -n 30 | cut -c 1-400
    done
    echo
    echo "================ shardcache test summary ================"
    local line
    for line in "${SUMMARY[@]}"; do echo "  $line"; done
    echo "========================================================="
    if [ "${#PLATFORM_ROWS[@]}" -gt 0 ]; then
        echo
        echo "================ by PHP version, build and SAPI ========="
        printf '  %-6s %-4s %-8s %-18s %s\n' PHP build SAPI phase result
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
    # group at the limit; the output goes to the log and is shown live. The
    # log exists before tail starts (on a loaded machine tail could start
    # before the background job's redirection made it: "tail: cannot open").
    : >"$log"
    local t0
    t0=$(date +%s)
    timeout -k 30 "$limit" "$@" </dev/null >>"$log" 2>&1 &
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
    [ "$f" -gt 0 ] && FAILED_LOGS+=("$name|$log")
    SUMMARY+=("$(printf '%-16s exit %-3s %s passed, %s failed, %s skipped, %s s%s' "$name" "$rc" "$p" "$f" "$s" \
        "$(( $(date +%s) - t0 ))" "$note")")
    if [ -n "${PHASE_PLATFORM:-}" ]; then
        local ver bld sapi
        read -r ver bld sapi <<<"$PHASE_PLATFORM"
        PLATFORM_ROWS+=("$(printf '%-6s %-4s %-8s %-18s %s passed, %s failed, %s skipped%s' "$ver" "$bld" "$sapi" \
            "$name" "$p" "$f" "$s" "$note")")
    fi
}

# Setup and build are prerequisites, not tests: a failure there is reported
# as 1 failure and stops the run.
step() { # NAME CMD...
    local name="$1"; shift
    echo
    echo "==== [$name] $*"
    local t0
    t0=$(date +%s)
    if "$@" </dev/null; then
        SUMMARY+=("$(printf '%-16s ok, %s s' "$name" "$(( $(date +%s) - t0 ))")")
    else
        local rc=$?
        SUMMARY+=("$(printf '%-16s FAILED (exit %s)' "$name" "$rc")")
        TOTAL_FAIL=$((TOTAL_FAIL + 1))
        finish
    fi
}

# The background preparations, by the platform of the phases that need
# them: "name|platform pattern|command" (platform phases, and extra phases
# with an EXTRA_PLATFORM). Each runs at most once, niced; the
# roots (debootstrap) one after another in one chain, the ZTS PHP builds
# (compiling, the slow ones) in another, so that at most two run at once
# beside the test phases. A preparation that fails (scripts/provision/php-zts.sh
# exits 3 when the mirror serves no source it can download) fails each of
# its phases, with its reason, in the summary.
PREPS=(
    "debroot|8.2 NTS deb*|bash scripts/provision/debian-root.sh"
    "php84|8.4 NTS*|bash scripts/provision/chroot.sh 8.4"
    "php85|8.5 NTS*|bash scripts/provision/chroot.sh 8.5"
    "php86|8.6 NTS*|bash scripts/provision/chroot.sh 8.6"
    "zts|8.2 ZTS*|bash scripts/provision/php-zts.sh 8.2"
    "zts86|8.6 ZTS*|bash scripts/provision/php-zts.sh 8.6"
)
# prep_of PLATFORM: the name of the preparation a phase of that platform needs.
prep_of() {
    local entry pname pat pcmd
    for entry in "${PREPS[@]}"; do
        IFS='|' read -r pname pat pcmd <<<"$entry"
        # shellcheck disable=SC2254
        case "$1" in $pat) echo "$pname"; return ;; esac
    done
}
# needs_prep NAME: is a selected phase waiting for that preparation?
needs_prep() {
    local entry name kind limit plat cmd
    for entry in "${PHASES[@]}"; do
        IFS='|' read -r name kind limit plat cmd <<<"$entry"
        [ -n "${SELECTED[$name]:-}" ] && [ -n "$plat" ] || continue
        [ "$(prep_of "$plat")" = "$1" ] && return 0
    done
    return 1
}

if [ "$do_build" -eq 1 ]; then
    step setup bash scripts/setup.sh
fi

# The slow preparations of the platform phases and debian-package (debootstraps, PHP builds)
# start now in the background, niced, and are waited for before their phases.
BG_PIDS=()
prep_chain() { # NAME... : run those preparations one after another
    local want entry pname pat pcmd
    for want in "$@"; do
        for entry in "${PREPS[@]}"; do
            IFS='|' read -r pname pat pcmd <<<"$entry"
            [ "$pname" = "$want" ] || continue
            needs_prep "$pname" || continue
            local t0
            t0=$(date +%s)
            nice -n 10 bash -c "$pcmd" >"$logdir/prep-$pname.log" 2>&1 </dev/null
            local rc=$?
            echo "prepare $pname: exit $rc after $(( $(date +%s) - t0 )) s (niced, beside the other work)" >>"$logdir/prep-$pname.log"
            echo "$rc" >"$logdir/prep-$pname.rc"
        done
    done
}
prep_chain debroot php84 php85 php86 &
BG_PIDS+=($!)
prep_chain zts zts86 &
BG_PIDS+=($!)

if [ "$do_build" -eq 1 ]; then
    step build bash scripts/build.sh ${build_args[@]+"${build_args[@]}"}
fi

# wait_prep NAME: waits (up to SETUP_TIMEOUT in all) for a background
# preparation; prints its log and how long the whole run had waited.
# Returns 0 ready, 3 source missing from the mirror, 1 failed.
prep_deadline=$(( $(date +%s) + SETUP_TIMEOUT ))
wait_prep() {
    local name="$1" rc
    while [ ! -f "$logdir/prep-$name.rc" ] && [ "$(date +%s)" -lt "$prep_deadline" ]; do
        sleep 5
    done
    echo
    echo "==== [prepare $name] (background, since the start of the run: $(( $(date +%s) - RUN_START )) s)"
    cat "$logdir/prep-$name.log" 2>/dev/null
    rc="$(cat "$logdir/prep-$name.rc" 2>/dev/null)"
    if [ "$rc" = 0 ]; then
        SUMMARY+=("$(printf '%-16s ok (ready %s s after the start)' "prep-$name" "$(( $(date +%s) - RUN_START ))")")
        return 0
    fi
    # The failure is counted once per phase that needed it (below).
    SUMMARY+=("$(printf '%-16s FAILED (exit %s: %s)' "prep-$name" "${rc:-none}" "$(prep_reason "$name")")")
    [ "$rc" = 3 ] && return 3
    return 1
}

# prep_reason NAME: the last line of a preparation's own output that says
# what went wrong (its exit line excluded), cut to 160 characters.
prep_reason() {
    local why
    why="$(grep -v -E '^prepare [a-z0-9]+: exit' "$logdir/prep-$1.log" 2>/dev/null | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c 1-160)"
    [ -f "$logdir/prep-$1.rc" ] || why="not ready after ${SETUP_TIMEOUT}s (SC_SETUP_TIMEOUT)"
    echo "${why:-no output}"
}

declare -A PREP_STATE=()   # name -> 0 ready, 1 failed, 3 source missing (unset: not waited for)
for entry in "${PHASES[@]}"; do
    IFS='|' read -r name kind limit plat cmd <<<"$entry"
    if [ -z "${SELECTED[$name]:-}" ]; then
        case "$name:${#selectors[@]}" in
            phpt-valgrind:0) SUMMARY+=("$(printf '%-16s skipped (--no-valgrind)' phpt-valgrind)") ;;
        esac
        continue
    fi
    prep=""
    [ -n "$plat" ] && prep="$(prep_of "$plat")"
    if [ -n "$prep" ]; then
        if [ -z "${PREP_STATE[$prep]:-}" ]; then
            wait_prep "$prep"
            PREP_STATE[$prep]=$?
        fi
        if [ "${PREP_STATE[$prep]}" -ne 0 ]; then
            # A phase that cannot be prepared fails, with the reason, in
            # both tables: it never vanishes from the summary.
            why="$(prep_reason "$prep")"
            SUMMARY+=("$(printf '%-16s FAILED (not run: prep-%s failed: %s)' "$name" "$prep" "$why")")
            PLATFORM_ROWS+=("$(printf '%-6s %-4s %-8s %-18s FAILED, not run: prep-%s failed' $plat "$name" "$prep")")
            TOTAL_FAIL=$((TOTAL_FAIL + 1))
            continue
        fi
    fi
    if [ "$name" = phpt-valgrind ] && ! command -v valgrind >/dev/null 2>&1; then
        SUMMARY+=("$(printf '%-16s FAILED (valgrind not installed)' phpt-valgrind)")
        TOTAL_FAIL=$((TOTAL_FAIL + 1))
        continue
    fi
    mode=cmd
    [ "$kind" = core ] && mode=suite
    # The platform column of the table at the end: the core phases and the
    # platform phases (and fpm-abuse, debian-package) say which PHP they ran on.
    PHASE_PLATFORM="$plat"
    if [ "${#pass_args[@]}" -gt 0 ]; then
        run_phase "$name" "$limit" "$mode" bash -c "$cmd \"\$@\"" "$name" "${pass_args[@]}"
    else
        run_phase "$name" "$limit" "$mode" bash -c "$cmd"
    fi
done
PHASE_PLATFORM=""
if [ "${#selectors[@]}" -eq 0 ] && [ "$with_platforms" -eq 0 ]; then
    SUMMARY+=("$(printf '%-16s skipped (--no-platforms)' platforms)")
fi

finish
