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
# ${SC_APCU_SUITE_CACHE:-${SHARDCACHE_CACHE_DIR:-/opt/shardcache}/apcu-suites}.
# The Debian mirror is read from the apt configuration (/etc/apt/sources.list
# and sources.list.d) at run time. 5.1.22 comes through `apt-get source`
# with a private apt configuration holding a deb-src entry for bookworm (the
# system's apt configuration is not changed); 5.1.24's orig tarball comes
# from the mirror's pool (its name is looked up in sid's Sources index when
# the pool path does not answer). Both are checked against the SHA-256 sums
# below.
#
# Each suite runs in a copy of APCu's tree whose modules/apcu.so is a symlink
# to the extension (APCu's server tests start `php -S` with
# extension_dir=<tree>/modules). Prints run-tests.php's output per suite
# and, as the last line, "apcu: N passed, N failed, N skipped" summed
# over the suites (read by scripts/test.sh). Exits non-zero on any failure
# (failed, borked or leaked test) or when a suite cannot be fetched.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
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
        -h|--help) sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --) shift; EXTRA=("$@"); break ;;
        -*) echo "apcu-suite: unknown option $1" >&2; exit 2 ;;
        *) EXT="$1" ;;
    esac
    shift
done

fail() { echo "apcu-suite: $*" >&2; echo "apcu: 0 passed, 1 failed, 0 skipped"; exit 1; }

# SHA-256 of the orig tarballs as Debian ships them (bookworm's holds APCu
# 5.1.22 and 4.0.11 side by side; only apcu-5.1.22/ is used).
declare -A ORIG_SHA256=(
    [5.1.22]=a39fc6df90d86f340891f67cc7b644f1a9a36a9dc0d276cfa4e82346589037e7
    [5.1.24]=5c28a55b27082c69657e25b7ecf553e2cf6b74ec3fa77d6b76f4fb982e001e43
)
declare -A SUITE=([5.1.22]=bookworm [5.1.24]=sid)

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

# The first http(s) Debian mirror of the apt configuration (one-line and
# deb822 formats), without the security archive.
debian_mirror() {
    local files=() f
    [ -f /etc/apt/sources.list ] && files+=(/etc/apt/sources.list)
    for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && files+=("$f")
    done
    [ "${#files[@]}" -gt 0 ] || return 1
    grep -hoE '^(deb(-src)?( \[[^]]*\])?|URIs:) +https?://[^ ]+' "${files[@]}" \
        | grep -oE 'https?://[^ ]+' | sed 's,/*$,,' | grep -v -- '-security' \
        | grep -E '/debian$' | head -n 1
}

sha_ok() { # FILE VERSION
    [ "$(sha256sum "$1" | cut -d' ' -f1)" = "${ORIG_SHA256[$2]}" ]
}

# fetch_orig VERSION -> the orig tarball in $CACHE (downloaded once).
fetch_orig() {
    local v="$1" tarball="$CACHE/php-apcu_$1.orig.tar" mirror
    if [ -f "$tarball" ] && sha_ok "$tarball" "$v"; then
        echo "$tarball"; return 0
    fi
    mirror="$(debian_mirror)" || true
    [ -n "$mirror" ] || { echo "apcu-suite: no Debian mirror in /etc/apt/sources.list*" >&2; return 1; }
    mkdir -p "$CACHE" || return 1
    local tmp
    tmp="$(mktemp -d "$CACHE/.fetch.XXXXXX")" || return 1
    if [ "${SUITE[$v]}" = bookworm ]; then
        # apt-get source through a private configuration: a deb-src entry for
        # bookworm and lists of its own, so the system's apt state is untouched.
        mkdir -p "$tmp/lists/partial" "$tmp/etc"
        printf 'deb-src %s bookworm main\n' "$mirror" >"$tmp/etc/sources.list"
        local aptopts=(-o "Dir::Etc::SourceList=$tmp/etc/sources.list" -o "Dir::Etc::SourceParts=$tmp/etc"
                       -o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
                       -o "APT::Sandbox::User=$(id -un)" -o Debug::NoLocking=1)
        apt-get "${aptopts[@]}" -qq update >&2 </dev/null \
            && (cd "$tmp" && apt-get "${aptopts[@]}" -qq --download-only source php-apcu >&2 </dev/null)
        local got
        got="$(ls "$tmp"/php-apcu_"$v"*.orig.tar.* 2>/dev/null | head -n 1)"
        [ -n "$got" ] && mv "$got" "$tmp/orig.tar"
    else
        local url="$mirror/pool/main/p/php-apcu/php-apcu_$v.orig.tar.gz"
        if ! curl -fsSL --retry 2 -o "$tmp/orig.tar" "$url"; then
            # Not at the usual pool path: look the file up in sid's Sources.
            local dir file
            if curl -fsSL --retry 2 "$mirror/dists/sid/main/source/Sources.xz" | xz -dc >"$tmp/Sources"; then
                dir="$(awk '/^Package: php-apcu$/ {p=1} p && /^Directory:/ {print $2; exit}' "$tmp/Sources")"
                file="$(awk '/^Package: php-apcu$/ {p=1} p && /^Files:/ {f=1; next} p && f && /orig\.tar/ {print $3; exit}' "$tmp/Sources")"
                [ -n "$dir" ] && [ -n "$file" ] && curl -fsSL --retry 2 -o "$tmp/orig.tar" "$mirror/$dir/$file"
            fi
        fi
    fi
    if [ -f "$tmp/orig.tar" ] && sha_ok "$tmp/orig.tar" "$v"; then
        mv "$tmp/orig.tar" "$tarball"
        rm -rf "$tmp"
        echo "$tarball"; return 0
    fi
    [ -f "$tmp/orig.tar" ] && echo "apcu-suite: php-apcu $v: checksum mismatch" >&2
    rm -rf "$tmp"
    echo "apcu-suite: could not fetch php-apcu $v from $mirror" >&2
    return 1
}

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
        tarball="$(fetch_orig "$v")" || { TOTAL_F=$((TOTAL_F + 1)); status=1; continue; }
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
