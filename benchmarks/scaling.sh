#!/usr/bin/env bash
# Store scaling (issue 35): the store_int_* variants (keys made by the
# parent, by each child, fresh keys) at 1, 2, 4 and 8 processes, shardcache
# paired with APCu and yac, then benchmarks/scaling.php's table.
#   bash benchmarks/scaling.sh [--pairs=7] [--seconds=2] [--procs=1,2,4,8] [--workloads=a,b]
#       [--apcu=PATH.so] [--shardcache=PATH.so] [--out=FILE.md]
# Run it on a quiet machine: nothing else building or benchmarking.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
pairs=7 seconds=2 out= procs=1,2,4,8 workloads=store_int_parent,store_int_child,store_int_own args=()
for a in "$@"; do
    case "$a" in
        --pairs=*) pairs=${a#*=} ;;
        --seconds=*) seconds=${a#*=} ;;
        --out=*) out=${a#*=} ;;
        --procs=*) procs=${a#*=} ;;
        --workloads=*) workloads=${a#*=} ;;
        --apcu=*|--shardcache=*) args+=("$a") ;;
        *) echo "scaling.sh: unknown option $a" >&2; exit 2 ;;
    esac
done
raw=$(mktemp /tmp/scaling.XXXXXX.jsonl)
php -n benchmarks/compare.php --workloads="$workloads" --procs="$procs" \
    --pairs="$pairs" --seconds="$seconds" --raw="$raw" "${args[@]}" >/dev/null
if [ -n "$out" ]; then
    php -n benchmarks/scaling.php "$raw" | tee "$out"
else
    php -n benchmarks/scaling.php "$raw"
fi
echo "raw runs: $raw" >&2
