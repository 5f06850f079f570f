#!/usr/bin/env bash
# The web benchmark, shardcache vs APCu, through a real server: a private
# php-fpm (pm = static, 8 and 16 workers, opcache on, exactly one cache
# extension) behind a private nginx on 127.0.0.1, loaded by wrk.
#
#   scripts/bench.sh web [options]     (sets up and builds first)
#   benchmarks/web/run.sh [options]    (the same with the module already built)
#
# Pages (benchmarks/web/pages/, every value read is checked; a wrong or
# missing value makes the page answer 500, and any non-2xx response or
# socket error fails the run):
#   fetch_scalar  100 apcu_fetch of integers
#   fetch_array   100 apcu_fetch of 100-element arrays (compared in full)
#   store         10 apcu_store of small arrays (rolling set of keys per
#                 worker) + 1 fetch back
#   fetch_objects 10 apcu_fetch of a list of 50 entities (typed, readonly,
#                 private and inherited properties, an enum, one shared
#                 parent) + 20 of an event holding 2 DateTimeImmutable,
#                 every property checked
# For every worker count and pair, php-fpm is started once with shardcache
# and once with APCu (the order alternates between pairs); for each page:
# init.php, a warm-up wrk run, then the measured wrk run. Reported per run:
# requests/s, p50/p99 latency (wrk), and fpm worker CPU time per request
# (utime + stime of the workers from /proc/PID/stat before and after the
# run, divided by the requests wrk counted).
# Two loads, each in its own pairs of runs:
#   max    every connection sends its next request as soon as the last one
#          was answered: requests/s and CPU per request at saturation (its
#          p99 is mostly queueing for the two vCPUs, shared with nginx and
#          wrk, and swings 5x from run to run with either cache);
#   paced  each connection waits a random time before each request, so that
#          the offered load is --pace times the lower of the two caches'
#          median saturating rates (same rate for both): p99 at equal load,
#          where it shows the cache's own stalls rather than the queue.
# The Markdown tables give the medians over the pairs and the median (and
# range) of the per-pair ratios shardcache / APCu.
#
# Options:
#   --seconds=N       measured run per page (default 10)
#   --warmup=N        warm-up run per page (default 2)
#   --pairs=N         shardcache/APCu pairs (default 3)
#   --workers=8,16    fpm worker counts
#   --pages=a,b       pages (default fetch_scalar,fetch_array,store,
#                     fetch_objects; also noop)
#   --connections=N   wrk connections (default 32); --threads=N (default 2)
#   --pace=F          paced load as a fraction of the saturating rate
#                     (default 0.6; 0 = saturating runs only)
#   --pin             keep the load generator off the workers' CPUs: nginx
#                     and wrk on CPU 0, php-fpm on the others (taskset;
#                     needs 2+ CPUs). Without it everything shares all CPUs
#                     and p99 is mostly the workers' wait behind wrk and
#                     nginx for a CPU.
#   --shm=SIZE        apc.shm_size for both caches (default 128M)
#   --shardcache=PATH shardcache build (default modules/shardcache.so)
#   --zero-copy=on|off|auto
#                     shardcache.zero_copy for the shardcache runs (default:
#                     the extension's default, auto = on under php-fpm)
#   --shardcache-ini=k=v,k=v
#                     more -d settings for the shardcache runs only
#   --apcu=PATH|VERSION|newest
#                     APCu: a path to its apcu.so, a version such as 5.1.24,
#                     or newest (the newest php-apcu source of the Debian
#                     mirror), built (once, under
#                     ${SHARDCACHE_CACHE_DIR:-/opt/shardcache}) by
#                     scripts/provision/apcu.sh (default apcu.so from PHP's
#                     extension_dir: Debian's php8.2-apcu, 5.1.22 on bookworm)
#   --out=FILE        also write the table (and the raw runs) to FILE
#   --no-install      do not apt-get anything
#   --keep            keep the temp directory (configs, logs, wrk outputs)
# Needs php8.2-fpm, nginx, wrk, php8.2-apcu (apt-get, after `apt-get update`,
# when missing). Exit status 0 only when every run had 0 errors.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WEB_NAME=web-bench
# shellcheck source=../../scripts/web/lib.sh
. "$ROOT/scripts/web/lib.sh"
# The benchmark's pages (and table.php) live beside this script.
BENCH_DIR="$ROOT/benchmarks/web"
WEB_PAGES="$BENCH_DIR/pages"

SECS=10
WARMUP=2
PAIRS=3
WORKER_LIST=8,16
PAGE_LIST=fetch_scalar,fetch_array,store,fetch_objects
CONNS=32
PACE=0.6
THREADS=2
PIN=0
PIN_NOTE=""
SHM=128M
SC_SO="$ROOT/modules/shardcache.so"
APCU_SO=apcu.so
SC_INI=()
ZC_NOTE=""
OUT=""
INSTALL=1
for arg in "$@"; do
    case "$arg" in
        --seconds=*) SECS="${arg#*=}" ;;
        --warmup=*) WARMUP="${arg#*=}" ;;
        --pairs=*) PAIRS="${arg#*=}" ;;
        --workers=*) WORKER_LIST="${arg#*=}" ;;
        --pages=*) PAGE_LIST="${arg#*=}" ;;
        --connections=*) CONNS="${arg#*=}" ;;
        --threads=*) THREADS="${arg#*=}" ;;
        --pace=*) PACE="${arg#*=}" ;;
        --pin) PIN=1 ;;
        --shm=*) SHM="${arg#*=}" ;;
        --shardcache=*) SC_SO="${arg#*=}" ;;
        --apcu=*) APCU_SO="${arg#*=}" ;;
        --zero-copy=*)
            case "${arg#*=}" in
                on|off|auto) SC_INI+=("shardcache.zero_copy=${arg#*=}"); ZC_NOTE=", shardcache.zero_copy=${arg#*=}" ;;
                *) echo "web-bench: --zero-copy takes on, off or auto" >&2; exit 2 ;;
            esac ;;
        --shardcache-ini=*)
            IFS=, read -r -a _kv <<<"${arg#*=}"
            SC_INI+=("${_kv[@]}"); ZC_NOTE="$ZC_NOTE, shardcache: ${arg#*=}" ;;
        --out=*) OUT="${arg#*=}" ;;
        --no-install) INSTALL=0 ;;
        --keep) WEB_KEEP=1 ;;
        -h|--help) sc_help "$0"; exit 0 ;;
        *) echo "web-bench: unknown option $arg" >&2; exit 2 ;;
    esac
done

if [ "$INSTALL" -eq 1 ]; then
    web_install php8.2-fpm nginx wrk php8.2-apcu || exit 1
fi
if ! PACED="$(awk -v p="$PACE" 'BEGIN { if (p !~ /^[0-9]*[.]?[0-9]+$/ || p + 0 > 1) exit 1; print (p + 0 > 0) ? 1 : 0 }')"; then
    web_err "--pace must be a number from 0 to 1"; exit 2
fi
for tool in "$FPM_BIN" nginx wrk php; do
    command -v "$tool" >/dev/null 2>&1 || { web_err "$tool not found (run without --no-install)"; exit 1; }
done
if [ "$PIN" -eq 1 ]; then
    ncpu="$(nproc)"
    if [ "$ncpu" -lt 2 ] || ! command -v taskset >/dev/null 2>&1; then
        web_err "--pin needs taskset and at least 2 CPUs"; exit 2
    fi
    WEB_LOAD_PREFIX=(taskset -c 0)
    WEB_FPM_PREFIX=(taskset -c "1-$((ncpu - 1))")
    PIN_NOTE=", pinned: nginx and wrk on CPU 0, php-fpm on CPU 1-$((ncpu - 1))"
fi
SC_SO="$(web_resolve_so "$SC_SO")" && [ -n "$SC_SO" ] || { web_err "no directory for --shardcache"; exit 1; }
if [[ "$APCU_SO" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    APCU_SO="$(bash "$ROOT/scripts/provision/apcu.sh" "$APCU_SO")" || { web_err "no APCu $APCU_SO build"; exit 1; }
elif [ "$APCU_SO" = newest ]; then
    APCU_SO="$(bash "$ROOT/scripts/provision/apcu.sh" --newest)" || { web_err "no newest APCu build"; exit 1; }
fi
APCU_SO="$(web_resolve_so "$APCU_SO")" && [ -n "$APCU_SO" ] || { web_err "no directory for --apcu"; exit 1; }
for so in "$SC_SO" "$APCU_SO"; do
    [ -f "$so" ] || { web_err "$so not found"; exit 1; }
done
# (shardcache names itself apcu 5.1.28 too: refused here, before any run)
APCU_VER="$(php -n -d "extension=$APCU_SO" -r 'echo extension_loaded("shardcache") ? "" : phpversion("apcu");' 2>/dev/null)"
[ -n "$APCU_VER" ] || { web_err "$APCU_SO does not load as APCu in php -n"; exit 1; }
IFS=, read -r -a WORKERS_A <<<"$WORKER_LIST"
IFS=, read -r -a PAGES_A <<<"$PAGE_LIST"
for p in "${PAGES_A[@]}"; do
    [ -f "$WEB_PAGES/$p.php" ] || { web_err "no page $p"; exit 2; }
done

web_tmp_init
trap 'web_cleanup' EXIT
trap 'exit 130' INT TERM
# Every run uses a private copy of the build: a rebuild in the tree while the
# benchmark runs cannot change or remove it.
cp "$SC_SO" "$WEB_TMP/shardcache.so" || exit 1
echo "web-bench: shardcache $SC_SO ($(stat -c '%y' "$SC_SO" | cut -d. -f1), copied)"
SC_SO="$WEB_TMP/shardcache.so"

nginx_start off || exit 1
BASE="http://127.0.0.1:$WEB_PORT"
nruns=$(( ${#WORKERS_A[@]} * PAIRS * 2 * ${#PAGES_A[@]} * (PACED + 1) ))
echo "web-bench: nginx on 127.0.0.1:$WEB_PORT; $nruns runs of ${SECS}s (+${WARMUP}s warm-up)," \
     "wrk -t$THREADS -c$CONNS, apc.shm_size=$SHM, $(nproc) cores$PIN_NOTE$ZC_NOTE"
echo "web-bench: APCu       $APCU_VER, $APCU_SO"

ERRORS=0
ERROR_NOTES=()
note_error() { ERROR_NOTES+=("$*"); web_err "$*"; }
run_no=0

# sc_lock_waits: shardcache's shard lock waits so far (counters.php), empty
# with APCu.
sc_lock_waits() {
    web_http "$BASE/counters.php" 5 | sed -n '2s/.*lock_waits=\([0-9]*\).*/\1/p'
}

# measure MODE W PAGE CACHE PAIR: one measured wrk run of PAGE on the running
# php-fpm, after init.php and a warm-up; appends a line to the raw file of
# MODE (max: saturating load; paced: the offered rate PACE_RATE[W/PAGE]
# requests/s) with the workers' CPU time per request and, for shardcache,
# the shard lock waits per 1,000 requests.
measure() {
    local mode="$1" W="$2" page="$3" cache="$4" pair="$5"
    local tag="$mode-$W-$page-$cache-$pair" url="$BASE/$page.php" f init p t
    local rate=""
    run_no=$((run_no + 1))
    init="$(web_http "$BASE/init.php" 10)"
    if [ "$(echo "$init" | head -n 1)" != 200 ]; then
        note_error "init.php failed for $tag: $(echo "$init" | tr '\n' ' ')"
        ERRORS=$((ERRORS + 1)); return
    fi
    if [ "$mode" = paced ]; then
        rate="${PACE_RATE[$W/$page]}"
        # mean wait per connection between two requests, in microseconds,
        # for report.lua (exported to this run's wrk only)
        local -x WRK_PACE_US
        WRK_PACE_US="$(awk -v c="$CONNS" -v r="$rate" 'BEGIN { printf "%d", c * 1e6 / r }')"
    fi
    web_wrk "$WEB_TMP/warm-$tag.out" -t"$THREADS" -c"$CONNS" -d"${WARMUP}s" "$url"
    local waits0="" waits1="" waits
    [ "$cache" = shardcache ] && waits0="$(sc_lock_waits)"
    # CPU time of the workers before and after the measured run.
    declare -A before=()
    while read -r p t; do before[$p]=$t; done < <(web_cpu_ticks $(fpm_workers))
    f="$WEB_TMP/wrk-$tag.out"
    web_wrk "$f" -t"$THREADS" -c"$CONNS" -d"${SECS}s" --latency "$url"
    local wrk_rc=$? ticks=0 vanished=0
    declare -A seen=()
    while read -r p t; do
        ticks=$((ticks + t - ${before[$p]:-0})); seen[$p]=1
    done < <(web_cpu_ticks $(fpm_workers))
    for p in "${!before[@]}"; do [ -n "${seen[$p]:-}" ] || vanished=$((vanished + 1)); done
    [ "$cache" = shardcache ] && waits1="$(sc_lock_waits)"
    local req dur errs warm_errs rps cpu
    req="$(web_wrk_field "$f" requests)"
    if [ "$wrk_rc" -ne 0 ] || [ -z "$req" ]; then
        note_error "wrk failed for $tag (exit $wrk_rc)"; cat "$f" >&2
        ERRORS=$((ERRORS + 1)); return
    fi
    dur="$(web_wrk_field "$f" duration_us)"
    errs=$(( $(web_wrk_field "$f" status_errors) + $(web_wrk_field "$f" connect) + $(web_wrk_field "$f" read) \
             + $(web_wrk_field "$f" write) + $(web_wrk_field "$f" timeout) ))
    warm_errs="$(web_wrk_field "$WEB_TMP/warm-$tag.out" status_errors)"
    errs=$((errs + ${warm_errs:-1}))
    if [ "$vanished" -gt 0 ]; then
        note_error "$tag: $vanished fpm workers ended during the run (CPU time lost)"
        errs=$((errs + vanished))
    fi
    waits=-
    if [ -n "$waits0" ] && [ -n "$waits1" ]; then
        waits="$(awk -v a="$waits0" -v b="$waits1" -v r="$req" 'BEGIN { printf "%.1f", (r > 0 ? (b - a) * 1000 / r : 0) }')"
    fi
    read -r rps cpu <<<"$(awk -v r="$req" -v d="$dur" -v t="$ticks" -v hz="$(getconf CLK_TCK)" \
        'BEGIN { printf "%.1f %.2f", r / (d / 1e6), (r > 0 ? t * 1e6 / hz / r : 0) }')"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$W" "$page" "$cache" "$pair" "$req" \
        "$(awk -v d="$dur" 'BEGIN { printf "%.2f", d / 1e6 }')" "$rps" \
        "$(web_wrk_field "$f" p50_us)" "$(web_wrk_field "$f" p99_us)" "$cpu" "$errs" "${rate:-0}" "$waits" \
        >>"$WEB_TMP/raw-$mode.tsv"
    printf 'web-bench: [%d/%d] %-5s %2d workers %-12s %-10s pair %d: %8.0f req/s  p99 %6.2f ms  %7.1f us CPU/req  lock waits/1k req %s  errors %d\n' \
        "$run_no" "$nruns" "$mode" "$W" "$page" "$cache" "$pair" "$rps" \
        "$(awk -v x="$(web_wrk_field "$f" p99_us)" 'BEGIN { printf "%.2f", x / 1000 }')" "$cpu" "$waits" "$errs"
    if [ "$errs" -gt 0 ]; then
        ERRORS=$((ERRORS + errs))
        note_error "$tag: $errs errors (non-2xx or socket errors)"
        grep -E 'Non-2xx|Socket errors' "$f" "$WEB_TMP/warm-$tag.out" >&2
    fi
}

# run_pairs MODE W: PAIRS pairs of php-fpm runs (the order of the two caches
# alternates between pairs), every page measured in each.
run_pairs() {
    local mode="$1" W="$2" pair cache so who page order kv
    for ((pair = 1; pair <= PAIRS; pair++)); do
        if [ $((pair % 2)) -eq 1 ]; then order=(shardcache apcu); else order=(apcu shardcache); fi
        for cache in "${order[@]}"; do
            local extra=()
            so="$SC_SO"
            if [ "$cache" = apcu ]; then
                so="$APCU_SO"
            else
                for kv in ${SC_INI[@]+"${SC_INI[@]}"}; do extra+=(-d "$kv"); done
            fi
            if ! fpm_start "$so" "$W" 0 "$SHM" ${extra[@]+"${extra[@]}"}; then
                note_error "$W workers, $cache, pair $pair: php-fpm did not start"
                ERRORS=$((ERRORS + 1)); continue
            fi
            who="$(web_http "$BASE/whoami.php" 5)"
            if [ "$(echo "$who" | head -n 1)" != 200 ] || ! echo "$who" | sed -n 2p | grep -q "^$cache .*enabled=1"; then
                note_error "php-fpm does not answer with $cache enabled: $(echo "$who" | tr '\n' ' ')"
                ERRORS=$((ERRORS + 1)); fpm_stop; continue
            fi
            [ "$pair" -eq 1 ] && echo "web-bench: $W workers, $cache: $(echo "$who" | sed -n 2p)"
            for page in "${PAGES_A[@]}"; do
                measure "$mode" "$W" "$page" "$cache" "$pair"
            done
            if [ -s "$PHP_ERRLOG" ]; then
                note_error "PHP logged errors with $cache ($W workers, pair $pair)"; head -n 5 "$PHP_ERRLOG" >&2
                ERRORS=$((ERRORS + 1))
            fi
            fpm_stop
        done
    done
}

: >"$WEB_TMP/raw-max.tsv"
: >"$WEB_TMP/raw-paced.tsv"
declare -A PACE_RATE=()
for W in "${WORKERS_A[@]}"; do
    run_pairs max "$W"
    if [ "$PACED" -eq 1 ]; then
        # The paced load: PACE times the lower of the two caches' median
        # saturating rates of this page and worker count.
        for page in "${PAGES_A[@]}"; do
            PACE_RATE[$W/$page]="$(php -n "$BENCH_DIR/table.php" --rate "$WEB_TMP/raw-max.tsv" "$W" "$page" "$PACE")"
            if [ -z "${PACE_RATE[$W/$page]}" ] || [ "${PACE_RATE[$W/$page]}" = 0 ]; then
                note_error "$W workers, $page: no saturating rate to pace from"
                ERRORS=$((ERRORS + 1)); PACE_RATE[$W/$page]=1000
            fi
        done
        run_pairs paced "$W"
    fi
done

table="$(php -n "$BENCH_DIR/table.php" "$WEB_TMP/raw-max.tsv" "$WEB_TMP/raw-paced.tsv")"
{
    echo "## Web benchmark: php-fpm + nginx, shardcache vs APCu"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(php -n -r 'echo PHP_VERSION;'), nginx $(nginx -v 2>&1 | sed 's|.*/||'), wrk -t$THREADS -c$CONNS, ${SECS} s per run (+${WARMUP} s warm-up), $PAIRS pairs, apc.shm_size=$SHM, pm = static, opcache on, APCu $APCU_VER$PIN_NOTE$ZC_NOTE."
    echo "Medians over the pairs; ratio = median (range) of the per-pair ratios shardcache / APCu, a pair being two runs back to back (req/s: higher is better; p99 and CPU: lower is better)."
    echo "CPU = utime + stime of the fpm workers during the run / requests served."
    if [ "$PACED" -eq 1 ]; then
        echo "Paced load: each of the $CONNS connections waits a random time before each request, so that the offered rate is $PACE x the lower of the two caches' median saturating req/s for that page and worker count (wrk's latency clock starts when the request is written)."
    fi
    echo
    echo "$table"
} >"$WEB_TMP/table.md"
echo
cat "$WEB_TMP/table.md"
if [ -n "$OUT" ]; then
    cp "$WEB_TMP/table.md" "$OUT" && echo "web-bench: written to $OUT"
fi
if [ "$ERRORS" -gt 0 ]; then
    echo "web-bench: FAILED: $ERRORS errors (non-2xx responses, socket errors, failed runs):"
    for n in "${ERROR_NOTES[@]}"; do echo "  $n"; done
    exit 1
fi
echo "web-bench: ok, 0 errors"
