#!/usr/bin/env bash
# The kill test: worker processes share one cache segment and hammer it
# (store, fetch, delete, add, inc/dec, cas, entry, array fetches, a rare
# clear) with self-checking values, while a killer SIGKILLs random workers at
# random moments (50 us .. 5 ms apart) and forks replacements. It counts
# kills, hangs (a worker with no progress for 5 s) and wrong values, then
# checks the whole cache from a fresh process. See tests/kill/kill.php.
#
#   tests/kill/run.sh [--kills=N] [--workers=8] [--seconds=S] [options]
#
#   --kills=N      stop after N kills (default 200; with only --seconds: no target)
#   --workers=N    concurrent workers (default 8)
#   --seconds=S    time limit of the killing phase (default 100; reaching it
#                  before N kills is a failure); with no --kills: run S seconds
#   --hang=S       seconds without progress that make a hang (default 5)
#   --seed=N       random seed (printed at the start of every run)
#   --shm=SIZE     apc.shm_size (default 2M: small, so that stores evict and
#                  kills land inside evictions and page-pool work too)
#   --shards=N     shardcache.shards (default: the extension's default)
#   --so=PATH      extension to test (default modules/shardcache.so; a bare
#                  name such as apcu.so is looked up in PHP's extension_dir)
#   --segment=PATH run on a named segment (shardcache.segment=PATH; a file
#                  there is removed first, and afterwards), then add the
#                  restart rounds of tests/kill/restart.php: all users of the
#                  segment are killed at once, mid-operation, and the next
#                  process to map it must find it consistent and usable;
#                  --segment=auto: a file in a new private directory in /dev/shm
#   --restart-rounds=N  restart rounds with --segment (default 10)
#   --quiet        no progress lines every 5 s
#   --readers      the victims only read (fetch, exists, key_info, iterator,
#                  cache_info, sma_info, shardcache_info, metrics): every key
#                  stored before must be there after, unchanged, with no
#                  repair and no reset (default --shm then 32M: no eviction)
#   --zero-copy    shardcache.zero_copy=1: fetched arrays and strings are
#                  used in place; killed workers hold epochs, which must be
#                  released (the final check counts epochs still held)
#   --no-proc      run the PHP processes with /proc hidden
#                  (tests/lib/without-proc.sh; root): liveness must not need it
#
# CI runs `tests/kill/run.sh --kills=500`, the same with --no-proc, and
# `--readers` (through scripts/test.sh); the
# long run is `tests/kill/run.sh --kills=1000 --seconds=600`.
# LD_PRELOAD, when set, is applied to the PHP processes only (not to this
# script's own tools): tests/asan/run.sh --kill-test uses it to run the
# kill test against the sanitizer build.
# Output ends with "kills: N, hangs: N, wrong values: N", "crashes: N" and
# "N passed, N failed"; exit status 0 only when passed. The whole run is in
# its own process group under `timeout`; whatever is left of it when it
# ends (e.g. after the killer itself was killed) is SIGKILLed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PHP_PRELOAD="${LD_PRELOAD:-}"
unset LD_PRELOAD
SO="$ROOT/modules/shardcache.so"
SHM=""
SHARDS=""
NOPROC=0
READERS=0
ZEROCOPY=0
SECONDS_LIMIT=100
SEGMENT=""
RESTART_ROUNDS=10
SEGDIR=""
args=()
for arg in "$@"; do
    case "$arg" in
        --kills=*|--workers=*|--hang=*|--seed=*|--quiet) args+=("$arg") ;;
        --readers) READERS=1; args+=("$arg") ;;
        --no-proc) NOPROC=1 ;;
        --zero-copy) ZEROCOPY=1 ;;
        --seconds=*) SECONDS_LIMIT="${arg#*=}"; args+=("$arg") ;;
        --shm=*) SHM="${arg#*=}" ;;
        --shards=*) SHARDS="${arg#*=}" ;;
        --so=*) SO="${arg#*=}" ;;
        --segment=*) SEGMENT="${arg#*=}" ;;
        --restart-rounds=*) RESTART_ROUNDS="${arg#*=}" ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "kill-test: unknown option $arg" >&2; exit 2 ;;
    esac
done

case "$SO" in
    */*) [ -f "$SO" ] || { echo "kill-test: $SO not found (build it: bash scripts/build.sh)" >&2; echo "0 passed, 1 failed"; exit 2; } ;;
esac

[ -z "$SHM" ] && { [ "$READERS" = 1 ] && SHM=32M || SHM=2M; }
wrap=()
if [ "$NOPROC" = 1 ]; then
    if ! bash "$ROOT/tests/lib/without-proc.sh" --check; then
        echo "kill-test: --no-proc needs root and unshare (a private mount namespace to hide /proc in)"
        echo "0 passed, 1 failed"
        exit 2
    fi
    wrap=(bash "$ROOT/tests/lib/without-proc.sh")
fi

php_args=(-n -d extension=posix -d "extension=$SO" -d apc.enable_cli=1 -d "apc.shm_size=$SHM"
          -d memory_limit=512M -d display_errors=stderr)
[ -n "$SHARDS" ] && php_args+=(-d "shardcache.shards=$SHARDS")
[ "$ZEROCOPY" = 1 ] && php_args+=(-d shardcache.zero_copy=1)
if [ "$SEGMENT" = auto ]; then
    SEGDIR="$(mktemp -d /dev/shm/shardcache-killtest.XXXXXX)" || { echo "kill-test: cannot make a directory in /dev/shm"; echo "0 passed, 1 failed"; exit 2; }
    SEGMENT="$SEGDIR/segment"
fi
if [ -n "$SEGMENT" ]; then
    rm -f "$SEGMENT"
    php_args+=(-d "shardcache.segment=$SEGMENT")
    echo "kill-test: named segment $SEGMENT"
fi

# Upper bound for the whole run: the killing phase, the settle and final
# checks (a few hang periods) and slack for a slow machine.
limit=$(( ${SECONDS_LIMIT%.*} + 60 ))

# `timeout` puts the run in a process group of its own (its pid) and signals
# the whole group when the limit is hit.
php_cmd=(${wrap[@]+"${wrap[@]}"} php)
[ -n "$PHP_PRELOAD" ] && php_cmd=(${wrap[@]+"${wrap[@]}"} env "LD_PRELOAD=$PHP_PRELOAD" php)
timeout -k 5 "$limit" "${php_cmd[@]}" "${php_args[@]}" "$ROOT/tests/kill/kill.php" "${args[@]}" &
tpid=$!
trap 'kill -TERM "$tpid" 2>/dev/null; wait "$tpid"; kill -KILL -- "-$tpid" 2>/dev/null; echo "kill-test: interrupted"; exit 130' INT TERM
wait "$tpid"
rc=$?
trap - INT TERM

# Nothing of the run may survive it.
summary=0   # kill.php printed its own summary (exit 0, 1 or 2)
[ "$rc" -le 2 ] && summary=1
if leftover="$(pgrep -g "$tpid" 2>/dev/null)" && [ -n "$leftover" ]; then
    echo "kill-test: processes left behind: $(echo $leftover); killing them"
    kill -KILL -- "-$tpid" 2>/dev/null
    rc=1
    summary=0
fi
if [ "$rc" -eq 124 ]; then
    echo "kill-test: the run did not finish within ${limit}s and was killed"
elif [ "$summary" -eq 0 ] && [ "$rc" -gt 2 ]; then
    echo "kill-test: the killer ended abnormally (exit $rc)"
fi
if [ "$summary" -eq 0 ]; then
    echo "0 passed, 1 failed"
    [ "$rc" -eq 0 ] && rc=1
fi
if [ -n "$SEGMENT" ]; then
    # The run must really have been on the file.
    if [ ! -f "$SEGMENT" ]; then
        echo "kill-test: no segment file at $SEGMENT after the run: the extension did not use a named segment"
        rc=1
    fi
    # The restart rounds, then one summary line for both parts.
    so_abs="$SO"
    case "$SO" in */*) ;; *) so_abs="$(php -n -r 'echo ini_get("extension_dir");')/$SO" ;; esac
    restart_args=(--segment="$SEGMENT" --so="$so_abs" --shm="$SHM" --rounds="$RESTART_ROUNDS")
    [ -n "$SHARDS" ] && restart_args+=(--shards="$SHARDS")
    timeout -k 5 $((RESTART_ROUNDS * 50 + 30)) php -n -d apc.enabled=0 "$ROOT/tests/kill/restart.php" \
        "${restart_args[@]}" </dev/null
    rrc=$?
    [ "$rrc" -eq 124 ] && echo "kill-test: the restart rounds did not finish in time"
    rm -f "$SEGMENT" "$SEGMENT".*.new
    [ -n "$SEGDIR" ] && rmdir "$SEGDIR" 2>/dev/null
    p=0; f=0
    if [ "$rc" -eq 0 ]; then p=$((p + 1)); else f=$((f + 1)); fi
    if [ "$rrc" -eq 0 ]; then p=$((p + 1)); else f=$((f + 1)); fi
    echo "kill test and restart rounds on a named segment:"
    echo "$p passed, $f failed"
    [ "$rc" -eq 0 ] && rc=$rrc
fi
exit "$rc"
