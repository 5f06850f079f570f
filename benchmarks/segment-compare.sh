#!/usr/bin/env bash
# Named segment against anonymous segment: the same shardcache build, the
# same bench.php workloads, run in pairs whose order alternates (anonymous,
# named / named, anonymous / ...), reporting per workload the median ops/s of
# each and the median of the per-pair ratios named/anonymous.
#
#   benchmarks/segment-compare.sh [--so=PATH] [--workloads=a,b] [--procs=N]
#       [--seconds=S] [--pairs=N] [--shm=SIZE] [--dir=/dev/shm]
#
# The named segment is a fresh file in a private directory under --dir
# (default /dev/shm), removed after each run, so that every run starts
# from an empty cache as the anonymous runs do.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SO="$ROOT/modules/shardcache.so"
WORKLOADS="fetch_int_hot16,fetch_str_1k,fetch_arr_100,store_int_own,mixed_90_10,inc_hot,entry_10k"
PROCS=2
SECS=1
PAIRS=5
SHM=128M
BASEDIR=/dev/shm
for arg in "$@"; do
    case "$arg" in
        --so=*) SO="${arg#*=}" ;;
        --workloads=*) WORKLOADS="${arg#*=}" ;;
        --procs=*) PROCS="${arg#*=}" ;;
        --seconds=*) SECS="${arg#*=}" ;;
        --pairs=*) PAIRS="${arg#*=}" ;;
        --shm=*) SHM="${arg#*=}" ;;
        --dir=*) BASEDIR="${arg#*=}" ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "segment-compare: unknown option $arg" >&2; exit 2 ;;
    esac
done
DIR="$(mktemp -d "$BASEDIR/shardcache-bench.XXXXXX")" || exit 2
TMPSO="$DIR/shardcache.so"
cp "$SO" "$TMPSO" || exit 2
RAW="$DIR/raw"
trap 'rm -rf "$DIR"' EXIT

run() { # kind workload -> ops/s
    local extra=()
    [ "$1" = named ] && extra=(-d "shardcache.segment=$DIR/seg")
    rm -f "$DIR/seg"
    php -n -d "extension=$TMPSO" -d apc.enable_cli=1 -d "apc.shm_size=$SHM" "${extra[@]}" \
        "$ROOT/benchmarks/bench.php" --workload="$2" --procs="$PROCS" --seconds="$SECS" \
        | php -n -r '$j = json_decode(stream_get_contents(STDIN), true); echo ($j["errors"] ?? 1) || ($j["failed_children"] ?? 1) ? "ERR" : $j["ops_per_sec"];'
    rm -f "$DIR/seg"
}

echo "named vs anonymous segment: $(basename "$SO"), procs=$PROCS, ${SECS}s runs, $PAIRS pairs, apc.shm_size=$SHM, named file in $BASEDIR"
echo "| workload | anonymous ops/s (median) | named ops/s (median) | named/anonymous (median of pair ratios) | pair ratios |"
echo "|---|---:|---:|---:|---|"
IFS=, read -ra WL <<<"$WORKLOADS"
for w in "${WL[@]}"; do
    : >"$RAW"
    for ((p = 0; p < PAIRS; p++)); do
        if ((p % 2 == 0)); then a="$(run anon "$w")"; n="$(run named "$w")"; else n="$(run named "$w")"; a="$(run anon "$w")"; fi
        echo "$a $n" >>"$RAW"
    done
    php -n -r '
        $a = $n = $r = [];
        foreach (file($argv[1], FILE_IGNORE_NEW_LINES) as $l) {
            [$x, $y] = explode(" ", $l);
            if (!is_numeric($x) || !is_numeric($y)) { echo "| $argv[2] | error | error | - | $l |\n"; exit(1); }
            $a[] = $x; $n[] = $y; $r[] = $y / $x;
        }
        $med = function ($v) { sort($v); $c = count($v); return $c % 2 ? $v[intdiv($c, 2)] : ($v[$c / 2 - 1] + $v[$c / 2]) / 2; };
        printf("| %s | %s | %s | %.3f | %s |\n", $argv[2], number_format($med($a)), number_format($med($n)), $med($r),
               implode(" ", array_map(fn($x) => sprintf("%.2f", $x), $r)));' "$RAW" "$w"
done
