#!/usr/bin/env bash
# The "speed" suite of scripts/bench.sh (its default; bench.sh sets up and
# builds first): shardcache against the newest APCu this machine can build,
# bench.php workloads through compare.php in alternating pairs, then a
# Markdown table and a short verdict (stdout and --out).
#
# The default run (about 3 minutes of runs; 5 minutes with setup and build):
#   workloads fetch_int_hot16 (a hot int), fetch_obj_small (a small object),
#   fetch_arr_100 (a 100-element array), store_int_own (stores),
#   mixed_90_10 (90% fetch / 10% store over 10,000 keys); 1, 2 and 8
#   processes; 5 pairs of 1 s runs per cell; no yac column.
# --full: the whole grid (every workload of compare.php, 1,2,4,8,16
#   processes, 3 pairs of 2 s, yac as a third column): about 35 minutes.
# --workloads=a,b --procs=1,2 --pairs=N --seconds=N replace those of either.
#
# The peer (APCu):
#   --apcu=PATH       that apcu.so (or a version, e.g. --apcu=5.1.24: built
#                     by scripts/provision/apcu.sh VERSION)
#   --apcu-src=DIR    an unpacked APCu source tree, built with phpize8.2 by
#                     scripts/provision/apcu.sh --src=DIR
#   (neither)         scripts/provision/apcu.sh --newest: the newest php-apcu
#                     source the Debian mirror serves (bookworm, trixie, sid,
#                     experimental; SC_DEBIAN_MIRROR), built once into
#                     ${SHARDCACHE_CACHE_DIR:-/opt/shardcache}/apcu-VERSION;
#                     if that fails, Debian's php8.2-apcu package, and the
#                     table's header and verdict say so in bold.
# The table names the APCu version and where it came from.
#
# Other options: --out=FILE (default benchmarks/results-latest.md),
# --shardcache=PATH.so (default modules/shardcache.so); anything else
# (e.g. --yac=none, --ini=k=v, --raw=F.jsonl) goes to compare.php unchanged.
# See benchmarks/README.md. Exit status: compare.php's (0: every run clean).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

full=0
procs="" pairs="" seconds="" workloads=""
apcu="" apcu_src="" yac_given=0
out="$ROOT/benchmarks/results-latest.md"
so="$ROOT/modules/shardcache.so"
extra=()

for arg in "$@"; do
    case "$arg" in
        --full)         full=1 ;;
        --procs=*)      procs="${arg#*=}" ;;
        --pairs=*)      pairs="${arg#*=}" ;;
        --seconds=*)    seconds="${arg#*=}" ;;
        --workloads=*)  workloads="${arg#*=}" ;;
        --out=*)        out="${arg#*=}" ;;
        --shardcache=*) so="${arg#*=}" ;;
        --apcu=*)       apcu="${arg#*=}" ;;
        --apcu-src=*)   apcu_src="${arg#*=}" ;;
        --yac=*)        yac_given=1; extra+=("$arg") ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *)              extra+=("$arg") ;;
    esac
done
if [ -n "$apcu" ] && [ -n "$apcu_src" ]; then
    echo "bench: give --apcu=PATH or --apcu-src=DIR, not both" >&2
    exit 2
fi

if [ "$full" -eq 1 ]; then
    : "${procs:=1,2,4,8,16}" "${pairs:=3}" "${seconds:=2}"
else
    : "${procs:=1,2,8}" "${pairs:=5}" "${seconds:=1}"
    : "${workloads:=fetch_int_hot16,fetch_obj_small,fetch_arr_100,store_int_own,mixed_90_10}"
    [ "$yac_given" -eq 1 ] || extra+=(--yac=none)
fi
[ -z "$workloads" ] || extra+=("--workloads=$workloads")

if [ ! -f benchmarks/compare.php ]; then
    echo "bench: benchmarks/compare.php is missing" >&2
    exit 1
fi
if [ ! -f "$so" ]; then
    echo "bench: $so not found (build it: scripts/bench.sh speed)" >&2
    exit 1
fi

# ---- the peer -------------------------------------------------------------
# source_of SO DEFAULT: where the APCu build SO came from (the SOURCE line
# scripts/provision/apcu.sh writes beside each build), else DEFAULT.
source_of() { cat "$(dirname "$1")/SOURCE" 2>/dev/null || echo "$2"; }
start=$(date +%s)
note="" chosen=""
if [ -n "$apcu_src" ]; then
    chosen="--apcu-src=$apcu_src"
    apcu_so="$(bash scripts/provision/apcu.sh "--src=$apcu_src")" \
        || { echo "bench: --apcu-src=$apcu_src: APCu could not be built (above)" >&2; exit 1; }
    note="$(source_of "$apcu_so" "built from $apcu_src")"
elif [[ "$apcu" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    chosen="--apcu=$apcu (scripts/provision/apcu.sh $apcu)"
    apcu_so="$(bash scripts/provision/apcu.sh "$apcu")" \
        || { echo "bench: --apcu=$apcu: APCu $apcu could not be built (above)" >&2; exit 1; }
    note="$(source_of "$apcu_so" "built by scripts/provision/apcu.sh")"
elif [ -n "$apcu" ]; then
    chosen="--apcu=$apcu"
    apcu_so="$apcu"
    note="given with --apcu=$apcu"
    src="$(source_of "$apcu" "")"
    [ -z "$src" ] || note="$note, $src"
elif apcu_so="$(bash scripts/provision/apcu.sh --newest)"; then
    chosen="the newest the machine can build (scripts/provision/apcu.sh --newest)"
    note="$(source_of "$apcu_so" 'source not recorded')"
else
    chosen="FALLBACK"
    apcu_so=apcu.so
    deb="$(dpkg-query -W -f='${Version}' php8.2-apcu 2>/dev/null || true)"
    note="**FALLBACK: Debian's php8.2-apcu package${deb:+ $deb}, NOT the newest APCu: scripts/provision/apcu.sh --newest failed (see its messages)**"
    echo "bench: WARNING: no newest APCu could be built; falling back to Debian's php8.2-apcu${deb:+ $deb}" >&2
fi
echo "bench: APCu: $apcu_so, chosen by $chosen: $note ($(( $(date +%s) - start ))s)"

cmd=(php -n benchmarks/compare.php "--shardcache=$so" "--apcu=$apcu_so" "--apcu-note=$note"
     "--procs=$procs" "--pairs=$pairs" "--seconds=$seconds" "--out=$out" ${extra[@]+"${extra[@]}"})
echo "bench: ${cmd[*]}"
rc=0
"${cmd[@]}" </dev/null || rc=$?
echo "bench: table written to $out ($(( $(date +%s) - start ))s, exit $rc)"
exit "$rc"
