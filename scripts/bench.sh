#!/usr/bin/env bash
# Set up, build, and run one benchmark suite: shardcache side by side with APCu.
#
#   scripts/bench.sh                         the speed suite, short: about 5
#                                            minutes with setup and build
#   scripts/bench.sh --full                  the speed suite's whole grid (~35 min)
#   scripts/bench.sh SUITE [suite options]   one suite; its options go to its script
#   scripts/bench.sh --list                  the suites and their scripts
#
# The default run: shardcache against the newest APCu this machine can build
# (the newest php-apcu source the Debian mirror serves, built once with
# phpize8.2 under ${SHARDCACHE_CACHE_DIR:-/opt/shardcache}; Debian's
# php8.2-apcu, flagged in bold, if that fails), on fetch_int_hot16,
# fetch_obj_small, fetch_arr_100, store_int_own and mixed_90_10 at 1, 2 and 8
# processes, 5 alternating pairs of 1 s runs per cell; then the table (median
# ops/s, median per-pair ratio) and a short verdict, also written to
# benchmarks/results-latest.md.
#   --apcu=PATH      compare with that apcu.so (or --apcu=VERSION: built)
#   --apcu-src=DIR   compare with the APCu built from that source tree
#   --full           every workload at 1,2,4,8,16 processes, 3 pairs of 2 s,
#                    yac as a third column
#
# Suites (each script lives beside what it drives and also runs on its own
# once modules/shardcache.so is built; each has --help):
#   speed      benchmarks/speed.sh            bench.php workloads through
#              compare.php: ops/s of both caches in alternating pairs
#              (--full, --apcu=, --apcu-src=, --procs=, --pairs=, --seconds=,
#              --out=, --workloads=)
#   memory     benchmarks/memory.sh           churn.php and hitratio.php: memory
#              kept under churn, bytes per entry, hit ratio (--quick, --out=)
#   web        benchmarks/web/run.sh          php-fpm behind nginx loaded by wrk
#              (--workers=, --pairs=, --pages=, ...)
#   nearcache  benchmarks/nearcache.sh        Shardcache\NearCache against
#              phpredis and Symfony's ChainAdapter (--rounds=, --seconds=)
#   segment    benchmarks/segment-compare.sh  named segment against anonymous
#              segment, same build (--workloads=, --pairs=, --shm=)
# See benchmarks/README.md. Speed figures come from these paired runs only;
# on a shared or busy machine they are noisy (print `uptime` beside them).
#
# Options of this script (anywhere on the line; the rest goes to the suite):
#   --no-build      use the existing modules/shardcache.so (no setup/build)
#   --incremental   pass --incremental to scripts/build.sh
#   --list, -h, --help
# Environment: SHARDCACHE_CACHE_DIR (default /opt/shardcache): where slow
# builds and downloads are kept (APCu builds, yac, Debian's package lists);
# SC_DEBIAN_MIRROR (default http://deb.debian.org/debian).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
. "$ROOT/scripts/lib.sh"

SUITES=(
    "speed|benchmarks/speed.sh"
    "memory|benchmarks/memory.sh"
    "web|benchmarks/web/run.sh"
    "nearcache|benchmarks/nearcache.sh"
    "segment|benchmarks/segment-compare.sh"
)

suite=speed
named=0          # 1 once the suite is named (the first word that is not an option)
do_build=1
build_args=()
args=()
for arg in "$@"; do
    case "$arg" in
        --no-build) do_build=0 ;;
        --incremental) build_args+=(--incremental) ;;
        --list)
            for entry in "${SUITES[@]}"; do printf '%-10s %s\n' "${entry%%|*}" "${entry#*|}"; done
            exit 0 ;;
        -h|--help) [ "$named" -eq 0 ] && { sc_help "$0"; exit 0; }; args+=("$arg") ;;
        -*) args+=("$arg") ;;
        *) if [ "$named" -eq 0 ]; then suite="$arg"; named=1; else args+=("$arg"); fi ;;
    esac
done

script=""
for entry in "${SUITES[@]}"; do
    [ "${entry%%|*}" = "$suite" ] && script="${entry#*|}"
done
[ -n "$script" ] || { echo "bench: no suite named $suite (see scripts/bench.sh --list)" >&2; exit 2; }

if [ "$do_build" -eq 1 ]; then
    bash scripts/setup.sh --bench </dev/null
    bash scripts/build.sh ${build_args[@]+"${build_args[@]}"} </dev/null
fi
echo "bench: suite $suite: bash $script ${args[*]+"${args[*]}"} (load: $(uptime | sed 's/.*load average: //'))"
exec bash "$script" ${args[@]+"${args[@]}"} </dev/null
