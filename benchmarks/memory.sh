#!/usr/bin/env bash
# The "memory" suite of scripts/bench.sh (which sets up and builds first):
# the memory benchmarks side by side with APCu:
#   php -n benchmarks/churn.php     (churn at several fill targets, 1 and 4
#                                    processes, and bytes per small entry)
#   php -n benchmarks/hitratio.php  (Zipf get-or-set hit ratio, working set
#                                    twice the segment)
# and print their Markdown tables (also written to --out). Each cell runs in
# fresh `php -n -d extension=...` processes, alternating which cache goes
# first. See benchmarks/README.md.
#
# Runtime on a 2-core machine: 5-12 minutes (idle to busy); with --quick
# about 1 minute (fewer operations and targets). No single run takes more
# than a few minutes, and each is killed after --timeout seconds (default 600).
#
# Options of this script:
#   --quick           shorter runs (passes --quick to both benchmarks)
#   --out=FILE        where to write the tables (default benchmarks/memory-latest.md)
#   --shardcache=PATH, --apcu=PATH, --php=BINARY, --timeout=S, --seed=N
#                     passed to both benchmarks
#   --churn=OPT       pass OPT to churn.php (repeatable), e.g. --churn=--targets=0.8,0.9
#   --hit=OPT         pass OPT to hitratio.php (repeatable), e.g. --hit=--s=1.0
# Exit status: 0 = every run clean; 1 = a run failed or reported errors.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

out="$ROOT/benchmarks/memory-latest.md"
so="$ROOT/modules/shardcache.so"
common=()
churn_args=()
hit_args=()

for arg in "$@"; do
    case "$arg" in
        --quick)        common+=(--quick) ;;
        --out=*)        out="${arg#*=}" ;;
        --shardcache=*) so="${arg#*=}" ;;
        --apcu=*|--php=*|--timeout=*|--seed=*) common+=("$arg") ;;
        --churn=*)      churn_args+=("${arg#--churn=}") ;;
        --hit=*)        hit_args+=("${arg#--hit=}") ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-memory: unknown option $arg (see --help)" >&2; exit 2 ;;
    esac
done

if [ ! -f "$so" ]; then
    echo "bench-memory: $so not found (build it: scripts/bench.sh memory)" >&2
    exit 1
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/bench-memory.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

rc=0
cmd=(php -n benchmarks/churn.php "--shardcache=$so" ${common[@]+"${common[@]}"}
     ${churn_args[@]+"${churn_args[@]}"} "--out=$tmp/churn.md")
echo "bench-memory: ${cmd[*]}" >&2
"${cmd[@]}" </dev/null >/dev/null || rc=1

cmd=(php -n benchmarks/hitratio.php "--shardcache=$so" ${common[@]+"${common[@]}"}
     ${hit_args[@]+"${hit_args[@]}"} "--out=$tmp/hitratio.md")
echo "bench-memory: ${cmd[*]}" >&2
"${cmd[@]}" </dev/null >/dev/null || rc=1

for f in churn hitratio; do
    if [ ! -s "$tmp/$f.md" ]; then
        printf '## %s\n\n**no table: the benchmark failed to run (see the log above)**\n' "$f" >"$tmp/$f.md"
        rc=1
    fi
done
{ cat "$tmp/churn.md"; echo; cat "$tmp/hitratio.md"; } >"$out"
cat "$out"
echo "bench-memory: tables written to $out" >&2
exit "$rc"
