#!/bin/bash
# pairs.sh [--cpu=N] [--ini="-d k=v ..."] [--ini-a=...] [--ini-b=...] WORKLOAD PAIRS PROCS A.so B.so
#
# Is build B faster or slower than build A on one bench.php workload?
# Runs benchmarks/bench.php --workload=WORKLOAD --procs=PROCS --seconds=1
# with each build in turn, PAIRS times, swapping the order every pair
# (A B, B A, A B, ...) so that a drift of the machine during a pair counts
# against each build equally, and prints the median of the per-pair ratios
# B/A (> 1: B faster) with every ratio.
#
# --ini-a / --ini-b: settings for one side only, e.g. the same build with
# shardcache.isolation=off as A and the default as B (A.so = B.so).
#
# --cpu=N pins both builds to vCPU N (taskset): on a machine whose vCPUs
# differ in speed, unpinned 1-process runs land on either and single pairs
# swing far more than the difference being measured. Leave it off for
# runs of 2 processes or more.
#
# Example: bash benchmarks/pairs.sh --cpu=1 fetch_obj_small 9 1 old.so new.so
set -e
DIR=$(cd "$(dirname "$0")" && pwd)
PIN=(); INI=(); INI_A=(); INI_B=()
while [ $# -gt 0 ]; do
    case "$1" in
        --cpu=*) PIN=(taskset -c "${1#--cpu=}") ;;
        --ini=*) read -r -a INI <<< "${1#--ini=}" ;;
        --ini-a=*) read -r -a INI_A <<< "${1#--ini-a=}" ;;
        --ini-b=*) read -r -a INI_B <<< "${1#--ini-b=}" ;;
        *) break ;;
    esac
    shift
done
[ $# -eq 5 ] || { echo "usage: pairs.sh [--cpu=N] [--ini=\"-d k=v\"] [--ini-a=...] [--ini-b=...] WORKLOAD PAIRS PROCS A.so B.so" >&2; exit 2; }
W=$1; N=$2; P=$3; A=$4; B=$5

# ops SO [SETTINGS...]
ops() {
    local out so=$1
    shift
    out=$("${PIN[@]}" php -n -d extension="$so" -d apc.enable_cli=1 -d apc.shm_size=128M "${INI[@]}" "$@" \
        "$DIR/bench.php" --workload="$W" --procs="$P" --seconds=1 2>&1)
    grep -o '"ops_per_sec":[0-9]*' <<< "$out" | cut -d: -f2 | grep . || { echo "pairs.sh: no result from $so: $out" >&2; exit 1; }
}

ratios=()
for i in $(seq 1 "$N"); do
    if (( i % 2 )); then a=$(ops "$A" "${INI_A[@]}"); b=$(ops "$B" "${INI_B[@]}")
    else b=$(ops "$B" "${INI_B[@]}"); a=$(ops "$A" "${INI_A[@]}"); fi
    ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')")
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ r[NR] = $1 } END { print r[int((NR + 1) / 2)] }')
echo "$W procs=$P B/A=$median [${ratios[*]}] load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?)"
