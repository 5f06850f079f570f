#!/usr/bin/env bash
# Set up, build, and run one benchmark suite: shardcache side by side with APCu.
#
#   scripts/bench.sh                         the speed suite (the README's command)
#   scripts/bench.sh SUITE [suite options]   one suite; its options go to its script
#   scripts/bench.sh --list                  the suites and their scripts
#
# Suites (each script lives beside what it drives and also runs on its own
# once modules/shardcache.so is built; each has --help):
#   speed      benchmarks/speed.sh            bench.php workloads through
#              compare.php: ops/s of both caches in alternating pairs, 1 to 16
#              processes (--procs=, --pairs=, --seconds=, --out=, --workloads=)
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
    bash scripts/setup.sh </dev/null
    bash scripts/build.sh ${build_args[@]+"${build_args[@]}"} </dev/null
fi
echo "bench: suite $suite: bash $script ${args[*]+"${args[*]}"} (load: $(uptime | sed 's/.*load average: //'))"
exec bash "$script" ${args[@]+"${args[@]}"} </dev/null
