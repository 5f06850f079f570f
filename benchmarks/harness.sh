#!/bin/bash
# benchmarks/harness.sh - the user_cache benchmark's 27 CLI cases
# (benchmarks/harness.php) for APCu and shardcache, side by side.
#
# For each serializer (apc.serializer=php, then igbinary), each pair and
# each case, three backends: APCu, shardcache copying (shardcache.zero_copy=0)
# and shardcache zero-copy (shardcache.zero_copy=1); the order turns round
# every pair (APCu first, then last, ...), so that neither cache always
# gets the same moment of a shared machine. Every case's reads and its
# stores run in a fresh process of their own, as in the original harness
# (one worker per case and operation): nothing one case leaves behind
# (memory, retired zero-copy values, class caches) reaches another.
# Each shardcache figure is divided by the APCu figure of its own pair; the table
# shows the median of those ratios per case (read / store; < 1: shardcache
# is faster) and their geomeans: read over the 6 array/string cases, read
# over the 21 object cases, store over all 27 (harness.php --report).
#
# Usage: bash benchmarks/harness.sh --apcu=PATH [options] [-- harness.php options]
#   --apcu=PATH          APCu's apcu.so (scripts/provision/apcu.sh builds one)
#   --so=PATH            shardcache.so (default modules/shardcache.so)
#   --pairs=N            pairs per serializer (default 5)
#   --first-pair=K       start numbering at pair K (to run a long
#                        comparison in pieces into one --out)
#   --serializers=LIST   default php,igbinary (igbinary: -d extension=igbinary.so,
#                        the system's php8.2-igbinary)
#   --modes=LIST         shardcache modes, default copy,zc
#   --cases=LIST         only these cases (harness.php --list)
#   --cpu=N              pin every run to vCPU N with taskset (default 1);
#   --no-pin             do not pin
#   --out=DIR            keep the runs' JSON there (default: a temporary
#                        folder); the report covers every run in DIR
#   --report-only        only print the report of the runs in --out
#   --quick              1 pair, short samples (a smoke run)
# Per-run sampling (harness.php options) defaults to
#   --reads=200 --writes=200 --warmup=1 --seconds=0.4
# (about 1.5 minutes per pair and serializer, so the default comparison
# takes about 15 minutes);
# anything after "--" is added to every harness.php run.
set -euo pipefail
DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$DIR")
APCU= SO=$ROOT/modules/shardcache.so PAIRS=5 FIRST=1 SERS=php,igbinary MODES=copy,zc CASES=
CPU=1 OUT= REPORT_ONLY= QUICK=
SAMPLING=(--reads=200 --writes=200 --warmup=1 --seconds=0.4)
EXTRA=()
usage() { sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
    case $1 in
        --apcu=*) APCU=${1#*=} ;;
        --so=*) SO=${1#*=} ;;
        --pairs=*) PAIRS=${1#*=} ;;
        --first-pair=*) FIRST=${1#*=} ;;
        --serializers=*) SERS=${1#*=} ;;
        --modes=*) MODES=${1#*=} ;;
        --cases=*) CASES=${1#*=} ;;
        --cpu=*) CPU=${1#*=} ;;
        --no-pin) CPU= ;;
        --out=*) OUT=${1#*=} ;;
        --report-only) REPORT_ONLY=1 ;;
        --quick) QUICK=1 ;;
        -h|--help) usage 0 ;;
        --) shift; EXTRA=("$@"); break ;;
        *) echo "harness.sh: unknown option $1" >&2; usage 2 ;;
    esac
    shift
done
if [ -n "$QUICK" ]; then
    PAIRS=1
    SAMPLING=(--reads=50 --writes=50 --warmup=1 --seconds=0.05)
fi
if [ -z "$OUT" ]; then
    [ -z "$REPORT_ONLY" ] || { echo "harness.sh: --report-only needs --out" >&2; exit 2; }
    OUT=$(mktemp -d)
    trap 'rm -rf "$OUT"' EXIT
fi
mkdir -p "$OUT"

if [ -z "$REPORT_ONLY" ]; then
    [ -f "$APCU" ] || { echo "harness.sh: --apcu=PATH (an apcu.so) is needed" >&2; exit 2; }
    [ -f "$SO" ] || { echo "harness.sh: no $SO (build it: bash scripts/build.sh)" >&2; exit 2; }
    PIN=()
    [ -z "$CPU" ] || PIN=(taskset -c "$CPU")
    IFS=, read -r -a SER_LIST <<< "$SERS"
    IFS=, read -r -a MODE_LIST <<< "$MODES"
    [ -n "$CASES" ] || CASES=$(php -n "$DIR/harness.php" --list | awk '{print $1}' | paste -sd,)
    IFS=, read -r -a CASE_LIST <<< "$CASES"
    run() { # SER PAIR LABEL CASE OP
        local ser=$1 pair=$2 label=$3 case=$4 op=$5 ext ini=() f
        [ "$ser" = php ] || ini+=(-d extension="$ser".so)
        if [ "$label" = apcu ]; then
            ext=$APCU
        else
            ext=$SO
            case $label in
                copy) ini+=(-d shardcache.zero_copy=0) ;;
                zc) ini+=(-d shardcache.zero_copy=1) ;;
                *) echo "harness.sh: unknown mode $label (copy, zc)" >&2; exit 2 ;;
            esac
        fi
        f=$OUT/$ser.$pair.$label.$case.$op.json
        "${PIN[@]}" php -n -d extension="$ext" "${ini[@]}" -d apc.enable_cli=1 -d apc.shm_size=256M \
            -d apc.serializer="$ser" "$DIR/harness.php" --json --cases="$case" \
            "--no-$([ "$op" = read ] && echo store || echo read)" \
            "${SAMPLING[@]}" ${EXTRA[@]+"${EXTRA[@]}"} > "$f.tmp"
        mv "$f.tmp" "$f"
    }
    for ser in "${SER_LIST[@]}"; do
        for ((p = FIRST; p < FIRST + PAIRS; p++)); do
            if [ $((p % 2)) = 1 ]; then
                order=(apcu "${MODE_LIST[@]}")
            else
                order=("${MODE_LIST[@]}" apcu)
            fi
            echo "harness.sh: $(date -u +%T) $ser pair $p: ${order[*]}" >&2
            for case in "${CASE_LIST[@]}"; do
                for label in "${order[@]}"; do
                    run "$ser" "$p" "$label" "$case" read
                    run "$ser" "$p" "$label" "$case" store
                done
            done
        done
    done
fi
shopt -s nullglob
files=("$OUT"/*.json)
[ ${#files[@]} -gt 0 ] || { echo "harness.sh: no runs in $OUT" >&2; exit 1; }
php -n "$DIR/harness.php" --report "${files[@]}"
