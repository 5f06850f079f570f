#!/usr/bin/env bash
# Run test phases again and again with busy loops beside them, to find the
# tests that fail only on a loaded machine (timing, ordering).
#
#   scripts/soak.sh [--rounds=N] [--hogs=N] [PHASE[:ARGS]...]
#
#   --rounds=N   how many rounds; each runs every PHASE once (default 10)
#   --hogs=N     busy loops (one process each) kept running for the whole
#                soak, at normal priority (default 2: both cores of the
#                project's machine)
#   PHASE        a phase or group of scripts/test.sh (default: the
#                concurrency phases: phpt-valgrind zero-copy-reset-held
#                pin-death kill fpm segment nearcache zts-threads)
#   PHASE:ARGS   one phase with ARGS (split at spaces) appended to its
#                command, e.g. "kill-test:--kills=50 --seconds=20"
#
# Each round runs `scripts/test.sh --no-build` once per PHASE, in order, on
# the built modules/shardcache.so. The logs are kept in a folder printed at
# the start; a failed phase's summary is printed at once. Ends with
# "N passed, N failed" counting phase runs; exits non-zero when one failed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
. "$ROOT/scripts/lib.sh"

rounds=10
hogs=2
phases=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds=*) rounds="${1#--rounds=}" ;;
        --hogs=*) hogs="${1#--hogs=}" ;;
        -h|--help) sc_help "$0"; exit 0 ;;
        -*) echo "soak: unknown option $1" >&2; exit 2 ;;
        *) phases+=("$1") ;;
    esac
    shift
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "soak: --rounds takes a positive number" >&2; exit 2; }
[[ "$hogs" =~ ^[0-9]+$ ]] || { echo "soak: --hogs takes a number" >&2; exit 2; }
[ "${#phases[@]}" -gt 0 ] || phases=(phpt-valgrind zero-copy-reset-held pin-death kill fpm segment nearcache zts-threads)
[ -f modules/shardcache.so ] || { echo "soak: build first (bash scripts/build.sh)" >&2; exit 2; }

logs="$(mktemp -d "${TMPDIR:-/tmp}/shardcache-soak.XXXXXX")"
HOG_PIDS=()
stop_hogs() {
    local p
    for p in ${HOG_PIDS[@]+"${HOG_PIDS[@]}"}; do kill "$p" 2>/dev/null; done
    for p in ${HOG_PIDS[@]+"${HOG_PIDS[@]}"}; do wait "$p" 2>/dev/null; done
    HOG_PIDS=()
}
trap stop_hogs EXIT
trap 'stop_hogs; exit 130' INT TERM
for ((h = 0; h < hogs; h++)); do
    # A busy loop of its own that ends with the soak (and in any case
    # after a day).
    timeout 86400 bash -c 'while :; do :; done' &
    HOG_PIDS+=($!)
done

echo "soak: $rounds rounds of ${phases[*]} beside $hogs busy loops; logs in $logs"
passed=0
failed=0
start=$(date +%s)
for ((r = 1; r <= rounds; r++)); do
    for spec in "${phases[@]}"; do
        name="${spec%%:*}"
        args=()
        # shellcheck disable=SC2206
        [ "$name" != "$spec" ] && args=(-- ${spec#*:})
        log="$logs/round-$r-$name.log"
        t0=$(date +%s)
        bash scripts/test.sh --no-build "$name" ${args[@]+"${args[@]}"} </dev/null >"$log" 2>&1
        rc=$?
        last="$(tail -n 1 "$log")"
        if [ "$rc" -eq 0 ]; then
            passed=$((passed + 1))
            echo "soak: round $r, $name: ok ($last; $(( $(date +%s) - t0 )) s)"
        else
            failed=$((failed + 1))
            echo "soak: round $r, $name: FAILED (exit $rc; $last; $(( $(date +%s) - t0 )) s):"
            sed -n '/^==== failed phase/,$p' "$log" | sed 's/^/  /'
        fi
    done
done
stop_hogs
echo "soak: $(( $(date +%s) - start )) s in all; logs in $logs"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
