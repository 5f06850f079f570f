#!/usr/bin/env bash
# Browser test of tools/dashboard.php (and tools/metrics.php over HTTP):
#   1. installs Debian's chromium with apt-get when /usr/bin/chromium is
#      missing (apt-get update first), and playwright-core from npm into
#      tests/browser/node_modules (version pinned in tests/browser/package.json;
#      only the client library: it drives the Debian browser, downloads none);
#   2. starts two PHP built-in servers on free ports, serving tools/ with the
#      router tests/browser/router.php and shardcache loaded:
#        - one with SHARDCACHE_DASHBOARD_PASSWORD set (the one under test),
#        - one without, to see the dashboard refuse the default password;
#   3. runs tests/browser/dashboard.test.mjs (headless chromium): rendering,
#      figures against shardcache_info(), charts, search, sort, details,
#      delete, clear, CSRF and auth refusals, metrics endpoint;
#   4. stops the servers it started.
# Ends with "N passed, N failed"; exit 0 only when nothing failed.
#
#   tests/browser/run.sh [--out=DIR] [--keep]
#     --out=DIR   where screenshots go (default: a temporary directory,
#                 printed; kept with --keep or --out)
#     --keep      keep the temporary directory (screenshots, server logs)
# Environment: SO (extension, default modules/shardcache.so), CHROMIUM
# (browser binary, default /usr/bin/chromium), SC_SERVER_WRAPPER (command
# words put before the servers' php, e.g. "gdb -batch -ex run -ex bt --args"
# or "valgrind"; their output goes to the server logs, kept with --keep).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
WEB_NAME=browser-test
# web_free_port; sc_help, sc_apt_install (scripts/lib.sh)
# shellcheck source=../../scripts/web/lib.sh
. "$ROOT/scripts/web/lib.sh"
SO="${SO:-$ROOT/modules/shardcache.so}"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"

out=""
keep=0
for arg in "$@"; do
    case "$arg" in
        --out=*) out="${arg#--out=}"; keep=1 ;;
        --keep) keep=1 ;;
        -h|--help) sc_help "$0"; exit 0 ;;
        *) echo "browser-test: unknown option $arg" >&2; exit 2 ;;
    esac
done

fail_setup() {
    echo "browser-test: $*" >&2
    echo "0 passed, 1 failed"
    exit 1
}

work="$(mktemp -d "${TMPDIR:-/tmp}/shardcache-browser.XXXXXX")"
[ -n "$out" ] || out="$work"
mkdir -p "$out" || fail_setup "cannot create $out"

PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    if [ "$keep" -eq 0 ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ -f "$SO" ] || fail_setup "$SO not found (build first: bash scripts/build.sh)"

# ---- chromium ----
if [ ! -x "$CHROMIUM" ]; then
    sc_apt_install browser-test chromium || fail_setup "apt-get install chromium failed"
fi
[ -x "$CHROMIUM" ] || fail_setup "$CHROMIUM still missing"
echo "browser-test: $("$CHROMIUM" --version 2>/dev/null | head -n 1)"

# ---- node + playwright-core ----
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    sc_apt_install browser-test nodejs npm || fail_setup "apt-get install nodejs npm failed"
fi
want_pw="$(php -n -r 'echo json_decode(file_get_contents($argv[1]), true)["dependencies"]["playwright-core"];' tests/browser/package.json)"
have_pw="$(php -n -r '$f = $argv[1]; echo is_file($f) ? json_decode(file_get_contents($f), true)["version"] : "";' \
    tests/browser/node_modules/playwright-core/package.json)"
if [ "$have_pw" != "$want_pw" ]; then
    echo "browser-test: npm install playwright-core@$want_pw"
    (cd tests/browser && npm install --no-audit --no-fund --no-package-lock --loglevel=error </dev/null) >"$work/npm.log" 2>&1 \
        || { cat "$work/npm.log" >&2; fail_setup "npm install failed"; }
fi
echo "browser-test: node $(node --version), playwright-core $want_pw"

# ---- servers ----
PASSWORD="bt-$(php -n -r 'echo bin2hex(random_bytes(8));')"
PHP_SERVER=(php -n -d "extension=$SO" -d apc.enable_cli=1 -d apc.shm_size=32M -d shardcache.shards=16
            -d error_reporting=-1 -d display_errors=1 -d log_errors=0)

start_server() { # LOGNAME PORT [env...]
    local name="$1" port="$2"; shift 2
    # shellcheck disable=SC2086
    env "$@" ${SC_SERVER_WRAPPER:-} "${PHP_SERVER[@]}" -S "127.0.0.1:$port" -t "$ROOT/tools" "$ROOT/tests/browser/router.php" \
        </dev/null >"$work/$name.log" 2>&1 &
    PIDS+=($!)
    local i
    for i in $(seq 1 100); do
        if php -n -r 'exit(@fsockopen("127.0.0.1", (int)$argv[1]) ? 0 : 1);' "$port"; then return 0; fi
        sleep 0.1
    done
    cat "$work/$name.log" >&2
    fail_setup "server $name did not start on port $port"
}

port1="$(web_free_port)" || fail_setup "no free port"
start_server server "$port1" SHARDCACHE_DASHBOARD_PASSWORD="$PASSWORD"
port2="$(web_free_port)" || fail_setup "no free port"
start_server server-nopass "$port2" -u SHARDCACHE_DASHBOARD_PASSWORD
echo "browser-test: dashboard at http://127.0.0.1:$port1/dashboard.php (and :$port2 without a password)"

# ---- the test ----
SC_BASE="http://127.0.0.1:$port1" SC_BASE_NOPASS="http://127.0.0.1:$port2" SC_USER=admin SC_PASSWORD="$PASSWORD" \
SC_OUT="$out" CHROMIUM="$CHROMIUM" \
    timeout -k 10 240 node tests/browser/dashboard.test.mjs </dev/null 2>&1 | tee "$work/test.log"
rc=${PIPESTATUS[0]}

# PHP warnings in the server output count as a failure too.
if grep -qE 'PHP (Warning|Notice|Deprecated|Fatal error)|(Warning|Notice|Deprecated|Fatal error): |Uncaught (Error|Exception)|Segmentation fault|SIGSEGV' "$work/server.log" "$work/server-nopass.log"; then
    echo "browser-test: the PHP server printed warnings or errors:"
    grep -hE 'PHP (Warning|Notice|Deprecated|Fatal error)|(Warning|Notice|Deprecated|Fatal error): |Uncaught (Error|Exception)|Segmentation fault|SIGSEGV' "$work/server.log" "$work/server-nopass.log" | head -n 20
    summary="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$work/test.log" | tail -n 1)"
    p="${summary%% passed*}"; f="${summary#*passed, }"; f="${f%% failed*}"
    echo "${p:-0} passed, $(( ${f:-0} + 1 )) failed"
    rc=1
elif ! grep -qE '^[0-9]+ passed, [0-9]+ failed$' "$work/test.log"; then
    echo "browser-test: the test printed no summary (exit $rc); server log tail:"
    tail -n 20 "$work/server.log"
    echo "0 passed, 1 failed"
    rc=1
fi
if [ "$keep" -eq 1 ]; then
    echo "browser-test: screenshots and logs in $out (servers' logs in $work)"
fi
exit "$rc"
