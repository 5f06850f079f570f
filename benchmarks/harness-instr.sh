#!/bin/bash
# harness-instr.sh SO CASE [read|store] [N]: exact instructions per read
# (fetch + the case's probe) or per store of one benchmarks/harness.php
# case, for comparing APCu and shardcache where paired timings swing.
# Two callgrind runs of one sample of N and 2N operations (one process,
# USE_ZEND_ALLOC=0), the difference divided by N: building the payload,
# the checks and the startup cancel out. SO: shardcache.so or APCu's
# apcu.so. HX_INI="k=v ...": extra -d settings (shardcache.zero_copy=1,
# apc.serializer=igbinary, which loads igbinary.so too). HX_TOP=K: also
# print the K functions with the most instructions of their own (self
# cost) in the 2N run, to see where the time goes.
# Example: bash benchmarks/harness-instr.sh modules/shardcache.so sleep_wakeup_object read 2000
set -euo pipefail
SO=${1:-}; CASE=${2:-}; OP=${3:-read}; N=${4:-1000}
if [ -z "$SO" ] || [ -z "$CASE" ] || [ "$SO" = --help ] || [ "$SO" = -h ]; then
    sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'
    [ "$SO" = --help ] || [ "$SO" = -h ]; exit $?
fi
DIR=$(cd "$(dirname "$0")" && pwd)
INI=()
for kv in ${HX_INI:-}; do
    INI+=(-d "$kv")
    [ "$kv" != apc.serializer=igbinary ] || INI=(-d extension=igbinary.so "${INI[@]}")
done
case $OP in
    read) OPTS=(--no-store --reads="$N") OPTS2=(--no-store --reads=$((2 * N))) ;;
    store) OPTS=(--no-read --writes="$N") OPTS2=(--no-read --writes=$((2 * N))) ;;
    *) echo "harness-instr.sh: read or store, not $OP" >&2; exit 2 ;;
esac
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ir() { # NAME OPTIONS...
    local name=$1; shift
    USE_ZEND_ALLOC=0 valgrind --tool=callgrind --callgrind-out-file="$TMP/$name" \
        php -n ${INI[@]+"${INI[@]}"} -d extension="$SO" -d apc.enable_cli=1 -d apc.shm_size=256M \
        "$DIR/harness.php" --cases="$CASE" --samples=1 --warmup=0 "$@" > "$TMP/$name.out" 2> "$TMP/err" \
        || { cat "$TMP/err" "$TMP/$name.out" >&2; exit 1; }
    grep -m1 '^summary:\|^totals:' "$TMP/$name" | awk '{print $2}'
}
a=$(ir a "${OPTS[@]}")
b=$(ir b "${OPTS2[@]}")
echo "$CASE $OP $(basename "$SO") ${HX_INI:-} $(( (b - a) / N )) instructions per op"
if [ -n "${HX_TOP:-}" ]; then
    callgrind_annotate "$TMP/b" 2>/dev/null | sed -n '/file:function/,$p' | sed -n "2,$((HX_TOP + 1))p"
fi
