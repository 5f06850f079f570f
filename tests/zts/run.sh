#!/usr/bin/env bash
# shardcache on a thread-safe (ZTS) PHP, 8.2 or 8.6: the phpt suite, and the
# thread driver (tests/zts/driver.c: N threads of one process plus a forked
# process, every value checked).
#
#   bash tests/zts/run.sh [8.6] phpt   [-- run-phpt.sh args]   the phpt suite
#   bash tests/zts/run.sh [8.6] driver [--threads=8] [--child-threads=2]
#                                   [--seconds=60] [--valgrind]
#   bash tests/zts/run.sh [8.6] build                           build only
#
# Without a version: PHP 8.2. The ZTS PHP comes from scripts/provision/php-zts.sh
# (built once, cached under /opt). The extension is built for it in
# .build-zts/ (8.2) or .build-zts-8.6/ of the checkout (a copy of the
# sources; modules/ of the checkout is not touched), with the same
# no-warning rule as scripts/build.sh; the driver is built there too, with
# PHP's headers as system headers as in config.m4.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
VER=8.2
case "${1:-}" in 8.2|8.6) VER="$1"; shift ;; esac
mode="${1:-}"
[ $# -gt 0 ] && shift
case "$mode" in
    phpt|driver|build) ;;
    -h|--help|"") sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "test-zts: unknown mode $mode" >&2; exit 2 ;;
esac

t0=$(date +%s)
PREFIX="$(bash scripts/provision/php-zts.sh "$VER")"
echo "test-zts: ZTS PHP at $PREFIX ($("$PREFIX/bin/php" -n -r 'echo PHP_VERSION, PHP_ZTS ? " ZTS" : " NTS";'))," \
     "ready after $(( $(date +%s) - t0 ))s"

BUILD="$ROOT/.build-zts"
[ "$VER" = 8.2 ] || BUILD="$ROOT/.build-zts-$VER"
build() {
    local src="$BUILD/src"
    mkdir -p "$src"
    # Sources only (tracked and new files, not ignored); keep the configured
    # tree between runs so that only changed files recompile.
    if git rev-parse --git-dir >/dev/null 2>&1; then
        git ls-files -z -co --exclude-standard -- config.m4 '*.c' '*.h' 'src/*' 'include/*' 'php/*' scripts/build.sh scripts/check-core.sh \
            | tar -c --null -T - -f - | tar -x -C "$src" --keep-newer-files -f - 2>/dev/null || true
    else
        tar -c -f - config.m4 ./*.c ./*.h src include php scripts/build.sh scripts/check-core.sh | tar -x -C "$src" -m -f -
    fi
    # Core files deleted or moved in the checkout (src/sc_value.c went to the
    # glue) would stay in the copy, and scripts/check-core.sh, run by the
    # build, would check the stale copies: drop them.
    local f
    for f in "$src"/src/*.c "$src"/src/*.h "$src"/include/*.h "$src"/php/*.c "$src"/php/*.h "$src"/./*.c "$src"/./*.h; do
        [ -e "$f" ] || continue
        [ -e "$ROOT/${f#"$src"/}" ] || rm -f "$f"
    done
    (cd "$src" && PATH="$PREFIX/bin:$PATH" bash scripts/build.sh --incremental)
    # The driver: an embed-SAPI program linked with the ZTS libphp.
    local inc cflags
    inc="$("$PREFIX/bin/php-config" --includes | sed "s@-I@-isystem @g")"
    cflags="-std=gnu11 -O2 -g -Wall -Wextra -Werror -pthread"
    if [ ! -x "$BUILD/driver" ] || [ tests/zts/driver.c -nt "$BUILD/driver" ]; then
        # shellcheck disable=SC2086
        cc $cflags $inc -o "$BUILD/driver" tests/zts/driver.c -L"$PREFIX/lib" -lphp -Wl,-rpath,"$PREFIX/lib"
    fi
}

# Copies newer files only; a file deleted from the checkout stays, which
# config.m4's explicit source list makes harmless.
build
SO="$BUILD/src/modules/shardcache.so"

case "$mode" in
    build) echo "test-zts: built $SO and $BUILD/driver" ;;
    phpt)
        extra=()
        [ "${1:-}" = "--" ] && { shift; extra=(-- "$@"); }
        PHP="$PREFIX/bin/php" RUN_TESTS="$PREFIX/lib/php/build/run-tests.php" \
            bash tests/run-phpt.sh "$SO" ${extra[@]+"${extra[@]}"} ;;
    driver)
        args=() vg=()
        for a in "$@"; do
            case "$a" in
                --valgrind) vg=(valgrind -q --error-exitcode=97 --suppressions="$ROOT/tests/zts/valgrind.supp" --leak-check=full --errors-for-leak-kinds=definite
                                --show-leak-kinds=definite --trace-children=no --child-silent-after-fork=yes) ;;
                *) args+=("$a") ;;
            esac
        done
        [ ${#vg[@]} -gt 0 ] && export USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1
        ${vg[@]+"${vg[@]}"} "$BUILD/driver" --ext="$SO" --worker="$ROOT/tests/zts/worker.php" ${args[@]+"${args[@]}"} ;;
esac
