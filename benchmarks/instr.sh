#!/bin/bash
# instr.sh SO WORKLOAD [N]: instructions per op of one of bench.php's loop
# bodies (benchmarks/instr.php), everything included (the interpreter, the
# cache, libc): callgrind runs of N and 2N ops (USE_ZEND_ALLOC=0), the
# difference divided by N, so setup and teardown cancel out. Exact and
# independent of the machine's load; says nothing about cache-line
# transfers between processes (see benchmarks/RESULTS.md).
# SO may be any build that provides apcu_* (shardcache, or an APCu apcu.so:
# scripts/provision/apcu.sh). INSTR_INI="k=v k=v": extra -d settings, e.g.
# INSTR_INI=shardcache.zero_copy=1 (a "-d" before a setting is allowed).
# INSTR_FORK=1: the loop runs in a forked child (instr.php), as in
# bench.php; every process's count is summed. INSTR_CACHE=1: callgrind's
# cache simulation too (D1 48 KiB 12-way, LL 2 MiB 16-way, 64-byte lines:
# a core's L1d and L2), and the simulated data misses per op follow the
# instructions: "W SO IR D1_MISSES LL_MISSES" - a model, not the machine's
# counters, but exact and load-independent like the instructions.
# Example: bash benchmarks/instr.sh modules/shardcache.so store_delete 20000
set -e
SO=$1; W=$2; N=${3:-20000}
[ -n "$SO" ] && [ -n "$W" ] || { echo "usage: instr.sh SO WORKLOAD [N]" >&2; exit 2; }
DIR=$(cd "$(dirname "$0")" && pwd)
INI=(); for kv in ${INSTR_INI:-}; do [ "$kv" = -d ] || INI+=(-d "$kv"); done
SIM=(); [ -z "${INSTR_CACHE:-}" ] || SIM=(--cache-sim=yes --D1=49152,12,64 --LL=2097152,16,64)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ir() {
    USE_ZEND_ALLOC=0 valgrind --tool=callgrind ${SIM[@]+"${SIM[@]}"} --callgrind-out-file="$TMP/out.$1.%p" \
        php -n -d extension="$SO" -d apc.enable_cli=1 -d apc.shm_size=128M ${INI[@]+"${INI[@]}"} "$DIR/instr.php" "$W" "$1" \
        > /dev/null 2> "$TMP/err" || { cat "$TMP/err" >&2; exit 1; }
    # one file per process (INSTR_FORK=1 forks): their sum of Ir and, with
    # the cache simulation (events Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw),
    # of D1mr + D1mw and DLmr + DLmw
    for f in "$TMP"/out."$1".*; do grep -m1 '^summary:\|^totals:' "$f"; done \
        | awk '{ir += $2; d1 += $6 + $7; ll += $9 + $10} END {printf "%d %d %d\n", ir, d1, ll}'
}
ra=$(ir "$N"); rb=$(ir $((2 * N)))
read -r a ad al <<< "$ra"; read -r b bd bl <<< "$rb"
if [ -n "${INSTR_CACHE:-}" ]; then
    echo "$W $(basename "$SO") $(( (b - a) / N )) $(awk -v x=$((bd - ad)) -v y=$((bl - al)) -v n="$N" 'BEGIN {printf "%.2f %.2f", x / n, y / n}')"
else
    echo "$W $(basename "$SO") $(( (b - a) / N ))"
fi
