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
# Example: bash benchmarks/instr.sh modules/shardcache.so store_delete 20000
set -e
SO=$1; W=$2; N=${3:-20000}
[ -n "$SO" ] && [ -n "$W" ] || { echo "usage: instr.sh SO WORKLOAD [N]" >&2; exit 2; }
DIR=$(cd "$(dirname "$0")" && pwd)
INI=(); for kv in ${INSTR_INI:-}; do [ "$kv" = -d ] || INI+=(-d "$kv"); done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ir() {
    USE_ZEND_ALLOC=0 valgrind --tool=callgrind --callgrind-out-file="$TMP/out.$1" \
        php -n -d extension="$SO" -d apc.enable_cli=1 -d apc.shm_size=128M ${INI[@]+"${INI[@]}"} "$DIR/instr.php" "$W" "$1" \
        > /dev/null 2> "$TMP/err" || { cat "$TMP/err" >&2; exit 1; }
    grep -m1 '^summary:\|^totals:' "$TMP/out.$1" | awk '{print $2}'
}
a=$(ir "$N"); b=$(ir $((2 * N)))
echo "$W $(basename "$SO") $(( (b - a) / N ))"
