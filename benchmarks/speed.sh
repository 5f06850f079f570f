#!/usr/bin/env bash
# The "speed" suite of scripts/bench.sh (its default; bench.sh sets up and
# builds first): the side-by-side benchmark, shardcache vs APCu:
#   php -n benchmarks/compare.php --shardcache=modules/shardcache.so \
#       --procs=1,2,4,8,16 --pairs=3 --seconds=2 --out=benchmarks/results-latest.md
#
# --procs=, --pairs=, --seconds=, --out= and --shardcache= given here replace
# the defaults above; other arguments (e.g. --workloads=a,b, --apcu=PATH) are
# passed to compare.php unchanged. See benchmarks/README.md.
# compare.php adds yac as a third column where its API allows: it fetches
# Debian's php8.2-yac into /opt/shardcache/yac itself (benchmarks/fetch-yac.sh;
# never installed system-wide); pass --yac=none to leave it out.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

procs="1,2,4,8,16"
pairs="3"
seconds="2"
out="$ROOT/benchmarks/results-latest.md"
so="$ROOT/modules/shardcache.so"
extra=()

for arg in "$@"; do
    case "$arg" in
        --procs=*)      procs="${arg#*=}" ;;
        --pairs=*)      pairs="${arg#*=}" ;;
        --seconds=*)    seconds="${arg#*=}" ;;
        --out=*)        out="${arg#*=}" ;;
        --shardcache=*) so="${arg#*=}" ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *)              extra+=("$arg") ;;
    esac
done

if [ ! -f benchmarks/compare.php ]; then
    echo "bench: benchmarks/compare.php is missing" >&2
    exit 1
fi
if [ ! -f "$so" ]; then
    echo "bench: $so not found (build it: scripts/bench.sh speed)" >&2
    exit 1
fi

cmd=(php -n benchmarks/compare.php "--shardcache=$so" "--procs=$procs"
     "--pairs=$pairs" "--seconds=$seconds" "--out=$out" ${extra[@]+"${extra[@]}"})
echo "bench: ${cmd[*]}"
"${cmd[@]}" </dev/null
echo "bench: table written to $out"
