#!/usr/bin/env bash
# benchmarks/device-scaling.sh - shardcache against APCu at 1 to 16
# processes, for a machine with 16 cores or more (benchmarks/compare.php's
# pairs, one call): what a 2-core machine cannot show.
#   bash benchmarks/device-scaling.sh [--bundle=.devcarry/bundle.tar.xz] [--out=DIR]
#       [--seconds=1] [--pairs=3] [--procs=1,2,4,8,16] [--workloads=a,b]
#       [--shardcache-ini=k=v] [--apcu=PATH]
# With --bundle (benchmarks/device-bundle.sh), php, APCu and shardcache
# come from it; without, php from PATH, modules/shardcache.so, and --apcu
# (default: the newest release build of scripts/provision/apcu.sh in
# ${SHARDCACHE_APCU_DIR:-${SHARDCACHE_CACHE_DIR:-/opt/shardcache}}/apcu-*/,
# else apcu.so of PHP's extension_dir). Writes DIR/scaling.md (the table),
# DIR/raw.jsonl (every run, as it ends: a run cut short still leaves the
# finished cells) and DIR/machine.txt (cores, load, versions).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bundle= apcu= out=/tmp/device-scaling seconds=1 pairs=3 procs=1,2,4,8,16 scini=shardcache.zero_copy=1
workloads=fetch_int_hot16,fetch_str_1k,fetch_arr_100,fetch_obj_small,store_int_own,store_int_parent,store_arr_100,store_delete,mixed_90_10,inc_hot
for a in "$@"; do
    case "$a" in
        --bundle=*) bundle=${a#*=} ;;
        --out=*) out=${a#*=} ;;
        --seconds=*) seconds=${a#*=} ;;
        --pairs=*) pairs=${a#*=} ;;
        --procs=*) procs=${a#*=} ;;
        --workloads=*) workloads=${a#*=} ;;
        --shardcache-ini=*) scini=${a#*=} ;;
        --apcu=*) apcu=${a#*=} ;;
        *) echo "device-scaling.sh: unknown option $a" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
php=php sc=modules/shardcache.so
if [ -z "$apcu" ]; then
    apcu=$(ls -d "${SHARDCACHE_APCU_DIR:-${SHARDCACHE_CACHE_DIR:-/opt/shardcache}}"/apcu-*/apcu.so 2>/dev/null |
           grep -E '/apcu-[0-9]+\.[0-9]+\.[0-9]+/apcu\.so$' | sort -V | tail -n 1)
    apcu=${apcu:-apcu.so}
fi
if [ -n "$bundle" ]; then
    dir=$(mktemp -d)
    tar -C "$dir" -xJf "$bundle" || exit 1
    export LD_LIBRARY_PATH="$dir/b/lib"
    php="$dir/b/bin/php" apcu="$dir/b/apcu.so" sc="$dir/b/shardcache.so"
fi
{
    echo "cores: $(nproc); $(uname -sr)"
    echo "load: $(cat /proc/loadavg 2>/dev/null)"
    echo "php: $("$php" -n -v | head -1)"
    echo "apcu: $("$php" -n -d "extension=$apcu" -r 'echo phpversion("apcu");')"
    echo "shardcache: $("$php" -n -d "extension=$sc" -r 'echo phpversion("shardcache");')"
    grep -m1 'model name' /proc/cpuinfo 2>/dev/null
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"
"$php" -n benchmarks/compare.php --php="$php" --apcu="$apcu" --shardcache="$sc" --yac=none \
    --shardcache-ini="$scini" --workloads="$workloads" --procs="$procs" --seconds="$seconds" \
    --pairs="$pairs" --raw="$out/raw.jsonl" --out="$out/scaling.md" 2>"$out/progress.txt"
rc=$?
cat "$out/scaling.md" 2>/dev/null
exit $rc
