#!/usr/bin/env bash
# Apache 2 prefork with mod_php (Debian's apache2 + libapache2-mod-php8.2):
# a private Apache on 127.0.0.1 (own config, free port, own PHP ini with
# shardcache and no conf.d, so Debian's APCu ini is not read) whose children
# share one cache, loaded by wrk on benchmarks/web/pages/abuse.php (30 random
# operations on shared keys per request, every value read checked) while
# `apache2 -k graceful` restarts it every --every seconds.
#
#   tests/apache/run.sh [--seconds=30] [--every=3] [--children=6]
#                          [--so=PATH] [--keep]
#
# A graceful restart makes the parent run PHP's module shutdown and startup
# again: the old cache is unmapped in the parent, a new empty one is mapped,
# new children use it while old children finish their requests on the old
# one (kept mapped by them until they exit). Checked, one pass/fail each:
#   load       requests were served and graceful restarts happened
#   wrong      0 wrong values (X-Sc-Wrong headers in the access log, wrong.log)
#   status     every request answered 200 (no 500, no connection error)
#   crashes    no child died of a signal (error log), the parent is alive
#   final      after the load, abuse_check.php finds every cached value
#              correct and the cache working, in every child
#   restart    an entry stored before one more graceful restart is gone
#              after it (the cache starts empty: see the README), and the
#              cache works at once
# Last line: "N passed, N failed".
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WEB_NAME=apache-test
# shellcheck source=../../scripts/web/lib.sh
. "$ROOT/scripts/web/lib.sh"

SECS=30
EVERY=3
CHILDREN=6
SO="$ROOT/modules/shardcache.so"
for arg in "$@"; do
    case "$arg" in
        --seconds=*) SECS="${arg#*=}" ;;
        --every=*) EVERY="${arg#*=}" ;;
        --children=*) CHILDREN="${arg#*=}" ;;
        --so=*) SO="${arg#*=}" ;;
        --keep) WEB_KEEP=1 ;;
        -h|--help) sc_help "$0"; exit 0 ;;
        *) echo "apache-test: unknown option $arg" >&2; exit 2 ;;
    esac
done

web_install apache2 libapache2-mod-php8.2 wrk || exit 1
SO="$(web_resolve_so "$SO")"
[ -f "$SO" ] || { web_err "extension not found: $SO"; exit 1; }
MODDIR=/usr/lib/apache2/modules
APACHE_PID=""

web_tmp_init
TMP="$WEB_TMP"
cleanup() {
    if [ -n "$APACHE_PID" ]; then
        web_stop_tree "$APACHE_PID" 10
        APACHE_PID=""
    fi
    web_cleanup
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The children run as www-data: everything they read or write lives in TMP.
mkdir -p "$TMP/htdocs" "$TMP/ini" "$TMP/run" "$TMP/out"
# The abuse pages of tests/fpm/abuse.sh (among the web benchmark's pages).
pages="$ROOT/benchmarks/web/pages"
cp "$pages"/abuse.php "$pages"/abuse.inc "$pages"/abuse_check.php "$TMP/htdocs/"
cp "$SO" "$TMP/shardcache.so"
cat >"$TMP/htdocs/marker.php" <<'EOF'
<?php
// ?op=store: stores a marker; ?op=fetch: says whether it is there.
header('Content-Type: text/plain');
if (($_GET['op'] ?? '') === 'store') {
    echo apcu_store('apache-test:marker', 'before-restart') ? "stored\n" : "not stored\n";
} else {
    $v = apcu_fetch('apache-test:marker', $ok);
    echo $ok ? "present $v\n" : "absent\n", "pid ", getmypid(), "\n";
}
EOF
chmod -R a+rX "$TMP"
chmod 1777 "$TMP/out"
cat >"$TMP/ini/php.ini" <<EOF
extension=$TMP/shardcache.so
apc.enabled=1
apc.shm_size=32M
memory_limit=256M
display_errors=0
log_errors=1
error_log=$TMP/out/php-errors.log
EOF

render_conf() { # PORT
    cat >"$TMP/httpd.conf" <<EOF
ServerRoot "$TMP"
ServerName 127.0.0.1
Listen 127.0.0.1:$1
PidFile "$TMP/run/httpd.pid"
DefaultRuntimeDir "$TMP/run"
Mutex file:$TMP/run default
ErrorLog "$TMP/error.log"
LogLevel notice
LoadModule mpm_prefork_module $MODDIR/mod_mpm_prefork.so
LoadModule authz_core_module $MODDIR/mod_authz_core.so
LoadModule env_module $MODDIR/mod_env.so
LoadModule php_module $MODDIR/libphp8.2.so
User www-data
Group www-data
StartServers $CHILDREN
MinSpareServers $CHILDREN
MaxSpareServers $CHILDREN
ServerLimit $CHILDREN
MaxRequestWorkers $CHILDREN
MaxConnectionsPerChild 0
# One connection per request: a keep-alive connection that an old child
# closes at a graceful restart is a client-side race, not a server error.
KeepAlive Off
GracefulShutdownTimeout 20
PHPIniDir "$TMP/ini"
DocumentRoot "$TMP/htdocs"
<Directory "$TMP/htdocs">
    Require all granted
</Directory>
<FilesMatch "\.php\$">
    SetHandler application/x-httpd-php
</FilesMatch>
SetEnv SC_WEB_TMP "$TMP/out"
LogFormat "%>s %{X-Sc-Wrong}o %P" sc
CustomLog "$TMP/out/access.log" sc
EOF
}

apache() { env -i PATH="$PATH" PHP_INI_SCAN_DIR= LANG=C apache2 -f "$TMP/httpd.conf" "$@"; }
apache_launch() { # PORT (web_serve's START)
    render_conf "$1"
    apache -DFOREGROUND </dev/null >"$TMP/apache.out" 2>&1 &
    WEB_SERVER_PID=$!
}

web_serve apache apache_launch marker.php 200 "$TMP/error.log" "$TMP/apache.out" || exit 1
APACHE_PID="$WEB_SERVER_PID"
WEB_SERVER_PID=""
PORT="$WEB_PORT"
web_log "apache prefork on 127.0.0.1:$PORT, $CHILDREN children, parent $APACHE_PID, $SO"

# ---- load with graceful restarts ----
wrk -t2 -c"$((CHILDREN * 2))" -d"${SECS}s" --timeout 10s "http://127.0.0.1:$PORT/abuse.php" \
    >"$TMP/wrk.out" 2>&1 </dev/null &
WRK_PID=$!
graceful=0
end=$(( $(date +%s) + SECS - 1 ))
while [ "$(date +%s)" -lt "$end" ] && kill -0 "$WRK_PID" 2>/dev/null; do
    sleep "$EVERY"
    if apache -k graceful >>"$TMP/graceful.out" 2>&1; then
        graceful=$((graceful + 1))
    else
        web_err "apache2 -k graceful failed: $(tail -n 3 "$TMP/graceful.out")"
    fi
done
wait "$WRK_PID"
wrk_rc=$?
sleep 1

# ---- final checks ----
final_ok=0
final_fail=()
for ((i = 0; i < CHILDREN * 3; i++)); do
    out="$(web_http "http://127.0.0.1:$PORT/abuse_check.php" 10)"
    if [ "$(head -n 1 <<<"$out")" = 200 ]; then
        final_ok=$((final_ok + 1))
    else
        final_fail+=("$(tr '\n' ' ' <<<"$out" | cut -c1-300)")
    fi
done

# One more graceful restart with a marker stored before it.
marker_before="$(web_http "http://127.0.0.1:$PORT/marker.php?op=store" 5 | sed -n 2p)"
seen_before="$(web_http "http://127.0.0.1:$PORT/marker.php" 5 | sed -n 2p)"
gen_before="$(grep -c 'resuming normal operations' "$TMP/error.log")"
apache -k graceful >>"$TMP/graceful.out" 2>&1
for ((i = 0; i < 200; i++)); do
    [ "$(grep -c 'resuming normal operations' "$TMP/error.log")" -gt "$gen_before" ] && break
    sleep 0.05
done
after=()
for ((i = 0; i < CHILDREN * 2; i++)); do
    after+=("$(web_http "http://127.0.0.1:$PORT/marker.php" 5 | sed -n 2p)")
done
store_after="$(web_http "http://127.0.0.1:$PORT/marker.php?op=store" 5 | sed -n 2p)"
seen_after="$(web_http "http://127.0.0.1:$PORT/marker.php" 5 | sed -n 2p)"

parent_alive=0
kill -0 "$APACHE_PID" 2>/dev/null && parent_alive=1

# ---- report ----
log="$TMP/out/access.log"
requests=$(wc -l <"$log")
non200=$(awk '$1 != 200' "$log" | wc -l)
wrong_hdr=$(awk '$2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' "$log")
wrong_log=0
[ -f "$TMP/out/wrong.log" ] && wrong_log=$(wc -l <"$TMP/out/wrong.log")
signals=$(grep -cE 'exit signal|Segmentation|AH00052|child pid [0-9]+ exit' "$TMP/error.log")
wrk_errors=$(grep -E 'Socket errors|Non-2xx' "$TMP/wrk.out" | tr '\n' ' ')
children_seen=$(awk '{ print $3 }' "$log" | sort -u | wc -l)

echo "apache-test: $requests requests in ${SECS}s by $children_seen child processes, $graceful graceful restarts during the load"
echo "apache-test: wrk: $(grep -E 'Requests/sec' "$TMP/wrk.out" | tr -s ' ') ${wrk_errors:-no socket errors}"
passed=0 failed=0
check() { # OK NAME DETAIL
    if [ "$1" = 1 ]; then passed=$((passed + 1)); echo "apache-test: ok   $2: $3"
    else failed=$((failed + 1)); echo "apache-test: FAIL $2: $3"; fi
}
check "$([ "$requests" -gt 100 ] && [ "$graceful" -ge 2 ] && echo 1)" load "$requests requests, $graceful graceful restarts"
check "$([ "$wrong_hdr" -eq 0 ] && [ "$wrong_log" -eq 0 ] && echo 1)" wrong "$wrong_hdr wrong values in responses, $wrong_log in wrong.log"
check "$([ "$non200" -eq 0 ] && [ -z "$wrk_errors" ] && [ "$wrk_rc" -eq 0 ] && echo 1)" status \
    "$non200 responses not 200${wrk_errors:+, wrk: $wrk_errors}"
check "$([ "$signals" -eq 0 ] && [ "$parent_alive" -eq 1 ] && echo 1)" crashes \
    "$signals children died of a signal, parent $([ "$parent_alive" -eq 1 ] && echo alive || echo GONE)"
check "$([ "$final_ok" -eq $((CHILDREN * 3)) ] && echo 1)" final \
    "$final_ok of $((CHILDREN * 3)) abuse_check.php requests ok${final_fail[0]:+; first failure: ${final_fail[0]}}"
restart_ok=1
[ "$marker_before" = "stored" ] && [[ "$seen_before" == present* ]] || restart_ok=0
for a in "${after[@]}"; do [ "$a" = absent ] || restart_ok=0; done
[ "$store_after" = "stored" ] && [[ "$seen_after" == present* ]] || restart_ok=0
check "$restart_ok" restart \
    "before: $marker_before/$seen_before; after the restart: $(printf '%s\n' "${after[@]}" | sort | uniq -c | tr -s ' ' | tr '\n' ';') then $store_after/$seen_after"
if [ "$failed" -gt 0 ]; then
    echo "---- error.log (last 30 lines)"; tail -n 30 "$TMP/error.log"
    [ -f "$TMP/out/wrong.log" ] && { echo "---- wrong.log"; head -n 10 "$TMP/out/wrong.log"; }
    [ -f "$TMP/out/php-errors.log" ] && { echo "---- php errors"; tail -n 10 "$TMP/out/php-errors.log"; }
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
