#!/usr/bin/env bash
# Runs APCu's own phpt suites (APCu 5.1.22 from Debian bookworm's php-apcu
# source package, APCu 5.1.24 from Debian sid's orig tarball) with PHP's
# run-tests.php against shardcache registered as APCu.
#
#   tests/apcu-suite/run.sh [--version=5.1.22|5.1.24|all] [--tree=DIR] [--apcu]
#                         [extension.so] [-- extra run-tests.php args]
#
#   extension.so  default: $SO, else <repo>/modules/shardcache.so
#   --apcu        run the suites against the real APCu (apcu.so from PHP's
#                 extension_dir) instead, to see what APCu itself skips
#   --version     one suite only (default: all)
#   --tree=DIR    instead, the suite of an APCu source tree already on disk
#                 (DIR/tests; nothing is fetched), for a release that
#                 Debian does not ship yet (5.1.28: see tests/README.md)
#
# The sources are fetched once and cached outside the clone, in
# ${SC_APCU_SUITE_CACHE:-${SHARDCACHE_CACHE_DIR:-/opt/shardcache}/apcu-suites},
# by scripts/provision/apcu-suite.sh (from the Debian mirror of the apt
# configuration; checked against SHA-256 sums).
#
# Each suite runs in a copy of APCu's tree whose modules/apcu.so is a symlink
# to the extension (APCu's server tests start `php -S` with
# extension_dir=<tree>/modules). Prints run-tests.php's output per suite
# and, as the last line, "apcu: N passed, N failed, N skipped" summed
# over the suites (read by scripts/test.sh). Exits non-zero on any failure
# (failed, borked or leaked test) or when a suite cannot be fetched.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$ROOT/scripts/lib.sh"
CACHE="${SC_APCU_SUITE_CACHE:-${SHARDCACHE_CACHE_DIR:-/opt/shardcache}/apcu-suites}"
VERSIONS=(5.1.22 5.1.24)
EXT=""
TREE=""
EXTRA=()
while [ $# -gt 0 ]; do
    case "$1" in
        --version=all) VERSIONS=(5.1.22 5.1.24) ;;
        --version=5.1.22|--version=5.1.24) VERSIONS=("${1#--version=}") ;;
        --tree=*) TREE="${1#--tree=}"; VERSIONS=(tree) ;;
        --apcu) EXT=apcu.so ;;
        -h|--help) sc_help "$0"; exit 0 ;;
        --) shift; EXTRA=("$@"); break ;;
        -*) echo "apcu-suite: unknown option $1" >&2; exit 2 ;;
        *) EXT="$1" ;;
    esac
    shift
done

fail() { echo "apcu-suite: $*" >&2; echo "apcu: 0 passed, 1 failed, 0 skipped"; exit 1; }

PHP="${PHP:-$(command -v php || true)}"
[ -n "$PHP" ] && [ -x "$PHP" ] || fail "no php binary (set PHP=...)"
PHP="$(readlink -f "$PHP")"
extdir="$("$PHP" -n -r 'echo PHP_EXTENSION_DIR;')" || fail "php does not run"
if [ "$EXT" = apcu.so ]; then
    EXT="$extdir/apcu.so"
    [ -f "$EXT" ] || fail "no $EXT (apt-get install php8.2-apcu)"
else
    EXT="${EXT:-${SO:-$ROOT/modules/shardcache.so}}"
    [ -f "$EXT" ] || fail "extension not found: $EXT (build it first)"
    EXT="$(readlink -f "$EXT")"
fi
RUN_TESTS="${RUN_TESTS:-$extdir/build/run-tests.php}"
[ -f "$RUN_TESTS" ] || fail "no run-tests.php at $RUN_TESTS (php8.2-dev)"
"$PHP" -n -d "extension=$EXT" -r 'exit(function_exists("apcu_store") ? 0 : 1);' 2>/dev/null \
    || fail "cannot load $EXT with $PHP -n"

TOTAL_P=0 TOTAL_F=0 TOTAL_S=0
status=0
for v in "${VERSIONS[@]}"; do
    if [ "$v" = tree ]; then
        [ -d "$TREE/tests" ] || fail "no tests/ in $TREE"
        # The version the tree's php_apc.h declares, for the headings.
        v="$(sed -nE 's/^#define PHP_APCU_VERSION "([^"]*)".*/\1/p' "$TREE/php_apc.h" 2>/dev/null | head -n 1)"
        v="${v:-tree}"
        tree="$(mktemp -d "${TMPDIR:-/tmp}/apcu-suite.XXXXXX")" || fail "cannot create a directory"
        src="$tree/apcu-$v"
        mkdir -p "$src" && cp -R "$TREE/tests" "$src/" \
            || { TOTAL_F=$((TOTAL_F + 1)); status=1; rm -rf "$tree"; continue; }
    else
        tarball="$(bash "$ROOT/scripts/provision/apcu-suite.sh" "$v")" || { TOTAL_F=$((TOTAL_F + 1)); status=1; continue; }
        tree="$CACHE/run-$v-$$"
        rm -rf "$tree"
        mkdir -p "$tree" || fail "cannot create $tree"
        tar -xf "$tarball" -C "$tree" || { TOTAL_F=$((TOTAL_F + 1)); status=1; rm -rf "$tree"; continue; }
        src="$tree/apcu-$v"
        [ -d "$src/tests" ] || { echo "apcu-suite: no apcu-$v/tests in $tarball" >&2; TOTAL_F=$((TOTAL_F + 1)); status=1; rm -rf "$tree"; continue; }
    fi
    mkdir -p "$src/modules"
    ln -s "$EXT" "$src/modules/apcu.so"
    log="$tree/run.log"
    echo "==== APCu $v's tests against $EXT"
    # Like a PECL build's `make test`: php -n with the module from modules/.
    (cd "$src" && NO_INTERACTION=1 REPORT_EXIT_STATUS=1 TEST_PHP_EXECUTABLE="$PHP" \
        "$PHP" -n "$RUN_TESTS" -n -p "$PHP" -d "extension_dir=$src/modules" -d extension=apcu.so \
        -q --show-diff ${EXTRA[@]+"${EXTRA[@]}"} tests </dev/null) >"$log" 2>&1
    # Shown indented, so that scripts/test.sh counts the totals line below
    # rather than the last suite's run-tests summary.
    sed 's/^/  /' "$log"
    num() { grep -E "^$1 *: *[0-9]+" "$log" | tail -n 1 | sed -E "s/^$1 *: *([0-9]+).*/\1/"; }
    p="$(num 'Tests passed')"; f="$(num 'Tests failed')"; b="$(num 'Tests borked')"
    l="$(num 'Tests leaked')"; s="$(num 'Tests skipped')"
    if [ -z "$p" ]; then
        echo "apcu-suite: $v: no run-tests summary" >&2
        f=1; p=0
    fi
    f=$(( ${f:-0} + ${b:-0} + ${l:-0} ))
    echo "apcu-suite $v: ${p:-0} passed, $f failed, ${s:-0} skipped"
    TOTAL_P=$((TOTAL_P + ${p:-0})); TOTAL_F=$((TOTAL_F + f)); TOTAL_S=$((TOTAL_S + ${s:-0}))
    [ "$f" -eq 0 ] || status=1
    rm -rf "$tree"
done
echo "apcu: $TOTAL_P passed, $TOTAL_F failed, $TOTAL_S skipped"
exit "$status"
