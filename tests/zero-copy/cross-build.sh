#!/usr/bin/env bash
# Real PHP builds sharing one named segment with zero-copy on: PHP 8.2 NTS
# (/usr/bin/php8.2), PHP 8.2 ZTS (scripts/provision/php-zts.sh) and PHP 8.4 NTS
# (Debian trixie's, in the root of scripts/provision/chroot.sh 8.4), each with
# shardcache built for it, all mapping the same segment file.
#
#   tests/zero-copy/cross-build.sh [--so=PATH] [--zts-so=PATH] [--no-8.4]
#
# --so: the module for PHP 8.2 NTS (default modules/shardcache.so);
# --zts-so: the one for the ZTS PHP (default: built by tests/zts/run.sh
# build, in .build-zts/); the 8.4 module is the one tests/phpver/run.sh 8.4
# built in the root when its sources are the checkout's, else it is built
# from the checkout inside the 8.4 root, in /build/shardcache-xbuild (kept:
# later runs rebuild only what changed); --no-8.4: the NTS/ZTS pair only.
#
# The segment file is in a fresh directory (0700, made by mktemp) under the
# 8.4 root's /tmp (sticky, root's): the processes outside the root and the
# ones chrooted into it (a private mount namespace, the same pid namespace
# and kernel) open the same inode, through a directory chain that passes
# src/sc_file.c's trust rules. Every pair of builds, in both directions:
# A stores (tests/zero-copy/cross-build.php store: an int, a short and a
# long string, an array of 100 mixed elements, a nested array, an object,
# each under three keys), B checks what every function says of each key
# (cross-build.php check: apcu_fetch, apcu_exists, apcu_key_info,
# APCUIterator, apcu_add, apcu_entry, apcu_inc), then B stores and A
# checks. Every check's output, warnings included, must be exactly
# tests/zero-copy/cross-build.expect: these builds lay arrays out with the
# same shape, so every value is read (copied out of the other build's
# layout) by every function, and no value is foreign.
# Output ends with "N passed, N failed"; exit status 0 only when all passed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
. "$ROOT/scripts/lib.sh"
SO="$ROOT/modules/shardcache.so"
ZTS_SO=""
with84=1
for arg in "$@"; do
    case "$arg" in
        --so=*) SO="${arg#*=}" ;;
        --zts-so=*) ZTS_SO="${arg#*=}" ;;
        --no-8.4) with84=0 ;;
        -h|--help) sc_help "$0"; exit 0 ;;
        *) echo "zc-cross-build: unknown option $arg" >&2; exit 2 ;;
    esac
done

if [ "$with84" -eq 1 ] && [ "$(id -u)" -ne 0 ]; then
    echo "zc-cross-build: PHP 8.4 runs in a chroot, which needs root: the NTS/ZTS pair only"
    with84=0
fi
passed=0
failed=0
dir=""
trap '[ -n "$dir" ] && rm -rf "$dir"' EXIT
t0=$(date +%s)
give_up() { echo "zc-cross-build: $*"; echo "$passed passed, $((failed + 1)) failed"; exit 1; }

[ -f "$SO" ] || give_up "$SO not found (scripts/build.sh)"
ZTS_PREFIX="$(bash scripts/provision/php-zts.sh 8.2)" || give_up "no ZTS PHP (scripts/provision/php-zts.sh 8.2)"
if [ -z "$ZTS_SO" ]; then
    bash tests/zts/run.sh build >/tmp/zc-cross-build-zts.$$.log 2>&1 \
        || { tail -n 20 /tmp/zc-cross-build-zts.$$.log; rm -f /tmp/zc-cross-build-zts.$$.log; give_up "the ZTS build failed"; }
    rm -f /tmp/zc-cross-build-zts.$$.log
    ZTS_SO="$ROOT/.build-zts/src/modules/shardcache.so"
fi
tmp_base=/tmp
if [ "$with84" -eq 1 ]; then
    CHROOT="$(bash scripts/provision/chroot.sh 8.4)" || give_up "no PHP 8.4 root (scripts/provision/chroot.sh 8.4)"
    # The sources (tracked and new, not ignored) into the root's own build
    # tree; files that did not change keep their time, so make rebuilds
    # only what changed. The module that tests/phpver/run.sh 8.4 built
    # (the phpt-8.4 phase, before this one in CI) is used instead when it
    # was built from exactly these sources.
    src84="$CHROOT/build/shardcache-xbuild"
    mkdir -p "$src84"
    if git rev-parse --git-dir >/dev/null 2>&1; then
        mapfile -d '' srcs < <(git ls-files -z -co --exclude-standard -- config.m4 '*.c' '*.h' 'src/*' 'include/*' \
            'php/*' scripts/build.sh scripts/check-core.sh scripts/lib.sh)
    else
        mapfile -d '' srcs < <(find config.m4 ./*.c ./*.h src include php scripts/build.sh scripts/check-core.sh \
            scripts/lib.sh -type f -print0)
    fi
    printf '%s\0' "${srcs[@]}" tests/zero-copy/cross-build.php \
        | tar -c --null -T - -f - | tar -x -C "$src84" --keep-newer-files -f - 2>/dev/null
    SO84=/build/shardcache-xbuild/modules/shardcache.so
    same=0
    if [ -f "$CHROOT/build/shardcache/modules/shardcache.so" ]; then
        same=1
        for f in "${srcs[@]}"; do
            cmp -s "$f" "$CHROOT/build/shardcache/$f" || { same=0; break; }
        done
    fi
    if [ "$same" -eq 1 ]; then
        SO84=/build/shardcache/modules/shardcache.so
    else
        for f in "$src84"/src/*.[ch] "$src84"/include/*.h "$src84"/php/*.[ch] "$src84"/*.[ch]; do
            [ -e "$f" ] && [ ! -e "$ROOT/${f#"$src84"/}" ] && rm -f "$f"
        done
        bash scripts/provision/chroot.sh 8.4 --run "cd /build/shardcache-xbuild && bash scripts/build.sh --incremental" \
            >"$CHROOT/tmp/zc-cross-build-84.$$.log" 2>&1 \
            || { tail -n 20 "$CHROOT/tmp/zc-cross-build-84.$$.log"; rm -f "$CHROOT/tmp/zc-cross-build-84.$$.log"; give_up "the 8.4 build failed"; }
        rm -f "$CHROOT/tmp/zc-cross-build-84.$$.log"
    fi
    echo "zc-cross-build: the 8.4 module: $SO84 (in the root)"
    tmp_base="$CHROOT/tmp"
fi
echo "zc-cross-build: builds ready after $(( $(date +%s) - t0 )) s"

dir="$(mktemp -d "$tmp_base/sc-xbuild.XXXXXX")" || give_up "mktemp failed"
chmod 0700 "$dir"
seg="$dir/segment"
INI=(-n -d apc.enable_cli=1 -d apc.shm_size=16M -d shardcache.zero_copy=1 -d display_errors=1 -d error_reporting=-1)

# php_of BUILD ARGS...: runs the worker on that build, stdout and stderr.
php_of() {
    local b="$1"; shift
    case "$b" in
        8.2-NTS) /usr/bin/php8.2 "${INI[@]}" -d "extension=$SO" -d "shardcache.segment=$seg" \
                     tests/zero-copy/cross-build.php "$@" 2>&1 ;;
        8.2-ZTS) "$ZTS_PREFIX/bin/php" "${INI[@]}" -d "extension=$ZTS_SO" -d "shardcache.segment=$seg" \
                     tests/zero-copy/cross-build.php "$@" 2>&1 ;;
        8.4-NTS) bash scripts/provision/chroot.sh 8.4 --run "php8.4 ${INI[*]} -d extension=$SO84 \
                     -d shardcache.segment=/tmp/${dir##*/}/segment /build/shardcache-xbuild/tests/zero-copy/cross-build.php $* 2>&1" ;;
    esac
}

# What each build is (its own words), so that a pair is really two builds.
declare -A WHAT=()
for b in 8.2-NTS 8.2-ZTS 8.4-NTS; do
    [ "$b" = 8.4-NTS ] && [ "$with84" -eq 0 ] && continue
    what="$(case "$b" in
        8.2-NTS) /usr/bin/php8.2 -n -r 'echo PHP_VERSION, PHP_ZTS ? " ZTS" : " NTS";' ;;
        8.2-ZTS) "$ZTS_PREFIX/bin/php" -n -r 'echo PHP_VERSION, PHP_ZTS ? " ZTS" : " NTS";' ;;
        8.4-NTS) bash scripts/provision/chroot.sh 8.4 --run "php8.4 -n -r 'echo PHP_VERSION, PHP_ZTS ? \" ZTS\" : \" NTS\";'" ;;
    esac)"
    echo "zc-cross-build: $b is PHP $what"
    WHAT[$b]="$what"
done

# step A B TAG: A stores TAG's values, B checks them.
step() {
    local a="$1" b="$2" out
    if [ -z "${WHAT[$a]}" ] || [ "${WHAT[$a]}" = "${WHAT[$b]}" ]; then
        echo "FAIL  $a and $b are not two builds: PHP '${WHAT[$a]}' and '${WHAT[$b]}'"
        failed=$((failed + 1))
        return
    fi
    out="$(php_of "$a" store "$a")"
    if [ "$out" != "stored 18 of 18 keys, laid out in place: true" ]; then
        echo "FAIL  $a stores: $out"
        failed=$((failed + 1))
        return
    fi
    if [ ! -f "$seg" ]; then
        echo "FAIL  $a stores: no segment file at $seg"
        failed=$((failed + 1))
        return
    fi
    out="$(php_of "$b" check "$a")"
    if [ "$out" = "$(cat tests/zero-copy/cross-build.expect)" ]; then
        echo "ok    $a stores, $b reads every value through every function"
        passed=$((passed + 1))
    else
        echo "FAIL  $a stores, $b checks: the output differs from tests/zero-copy/cross-build.expect:"
        diff <(echo "$out") tests/zero-copy/cross-build.expect | sed 's/^/      /'
        failed=$((failed + 1))
    fi
}

pairs=("8.2-NTS 8.2-ZTS")
[ "$with84" -eq 1 ] && pairs+=("8.2-NTS 8.4-NTS" "8.2-ZTS 8.4-NTS")
for p in "${pairs[@]}"; do
    read -r a b <<<"$p"
    step "$a" "$b"
    step "$b" "$a"
done
echo "zc-cross-build: $(( $(date +%s) - t0 )) s in all"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
