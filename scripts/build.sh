#!/usr/bin/env bash
# Build modules/shardcache.so in the project root:
#   phpize && ./configure --enable-shardcache && make -j2
# with CFLAGS="-O2 -g -Wall -Wextra" (config.m4 adds -std=c11 -Wall -Wextra).
#
# First runs scripts/check-core.sh (no PHP header in src/ or include/, no
# include circle among the core's modules, no long function) and
# scripts/check-glue.sh (the glue's layers and headers, php/README.md),
# and stops if one fails.
#
# Fails if the compiler or linker printed any warning. PHP's headers are
# included as system headers (config.m4 turns php-config's -I into
# -isystem): a newer PHP's headers may warn on their own under -Wall -Wextra
# (8.5's zend_operators.h: an unused parameter), which says nothing about
# our code. A warning located in our files counts, also when a PHP macro
# expanded there raised it.
#
# Options:
#   --incremental   reuse an existing configured tree and do not `make clean`
#                   (faster; only recompiled files are checked for warnings)
#   --debug         the debug build: the core's SC_ASSERT rules compiled in
#                   (include/README.md, "Rules that run"), CFLAGS
#                   "-O1 -g -DSC_DEBUG -Wall -Wextra", built OUT OF TREE in a
#                   copy of the sources at $SC_DEBUG_DIR (default
#                   ${TMPDIR:-/tmp}/shardcache-debug-<checksum of this
#                   checkout's path>; printed as "build: ok, <module>"), so
#                   modules/shardcache.so is left alone (and the in-tree
#                   `make clean`, which deletes every *.so below the root,
#                   does not reach it). Result: $SC_DEBUG_DIR/modules/
#                   shardcache.so; `scripts/build.sh --debug --print-dir`
#                   prints $SC_DEBUG_DIR and builds nothing. With
#                   --incremental the copy's configured tree is kept.
#   -h, --help      this text
# Environment: CFLAGS (default "-O2 -g -Wall -Wextra"; with --debug ignored),
# MAKE_JOBS (default 2), SC_DEBUG_DIR (see --debug).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

incremental=0
debug=0
print_dir=0
for arg in "$@"; do
    case "$arg" in
        --incremental) incremental=1 ;;
        --debug) debug=1 ;;
        --print-dir) print_dir=1 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "build: unknown option $arg" >&2; exit 2 ;;
    esac
done

if [ "$debug" -eq 1 ]; then
    # A copy of the sources (tracked and new files, not ignored) and of this
    # script, built there by this script without --debug.
    dir="${SC_DEBUG_DIR:-${TMPDIR:-/tmp}/shardcache-debug-$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)}"
    if [ "$print_dir" -eq 1 ]; then
        echo "$dir"
        exit 0
    fi
    if [ "$incremental" -eq 0 ]; then
        rm -rf "$dir"
    fi
    mkdir -p "$dir"
    if git rev-parse --git-dir >/dev/null 2>&1; then
        git ls-files -z -co --exclude-standard -- config.m4 config.w32 '*.c' '*.h' 'src/*' 'include/*' 'php/*' \
            scripts/build.sh scripts/check-core.sh scripts/check-glue.sh \
            | tar -c --null -T - -f - | tar -x -C "$dir" --keep-newer-files -f - 2>/dev/null || true
    else
        tar -c -f - config.m4 ./*.c ./*.h src include php scripts/build.sh scripts/check-core.sh scripts/check-glue.sh | tar -x -C "$dir" -m -f -
    fi
    # Core files deleted from the checkout would stay in a kept copy.
    for f in "$dir"/src/*.c "$dir"/include/*.h "$dir"/php/*.c "$dir"/php/*.h "$dir"/./*.c "$dir"/./*.h; do
        [ -e "$f" ] || continue
        case "$f" in "$dir"/./config.h) continue ;; esac
        [ -e "$ROOT/${f#"$dir"/}" ] || rm -f "$f"
    done
    args=()
    [ "$incremental" -eq 1 ] && args+=(--incremental)
    echo "build: debug build (SC_DEBUG) in $dir"
    cd "$dir"
    CFLAGS="-O1 -g -DSC_DEBUG -Wall -Wextra" exec bash scripts/build.sh ${args[@]+"${args[@]}"}
fi

# (Skipped in copies of the tree that carry build.sh alone, such as
# tests/zts/run.sh's .build-zts/: the checkout itself is checked.)
if [ -f "$ROOT/scripts/check-core.sh" ]; then
    bash "$ROOT/scripts/check-core.sh"
fi
if [ -f "$ROOT/scripts/check-glue.sh" ]; then
    bash "$ROOT/scripts/check-glue.sh"
fi

export CFLAGS="${CFLAGS:--O2 -g -Wall -Wextra}"
jobs="${MAKE_JOBS:-2}"

for tool in phpize php-config make; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "build: $tool not found; run: bash scripts/setup.sh" >&2
        exit 1
    fi
done

logdir="$(mktemp -d "${TMPDIR:-/tmp}/shardcache-build.XXXXXX")"
trap 'rm -rf "$logdir"' EXIT

run_logged() { # name, command...
    local name="$1"; shift
    if ! "$@" >"$logdir/$name.log" 2>&1; then
        echo "build: '$*' failed:" >&2
        cat "$logdir/$name.log" >&2
        exit 1
    fi
}

need_configure=1
if [ "$incremental" -eq 1 ] && [ -f Makefile ] && [ -f config.status ] \
   && [ Makefile -nt config.m4 ]; then
    need_configure=0
fi

if [ "$need_configure" -eq 1 ]; then
    echo "build: phpize"
    run_logged phpize phpize
    echo "build: ./configure --enable-shardcache (CFLAGS=$CFLAGS)"
    run_logged configure ./configure --enable-shardcache --with-php-config="$(command -v php-config)"
fi

if [ "$incremental" -eq 0 ]; then
    run_logged clean make clean
fi

echo "build: make -j$jobs"
set +e
make -j"$jobs" >"$logdir/make.log" 2>&1
make_rc=$?
set -e

# Compiler/linker diagnostics; libtool's own advice lines are not code warnings.
warnings="$(grep -E 'warning:' "$logdir/make.log" | grep -vE '^libtool: (warning|install)' || true)"

if [ "$make_rc" -ne 0 ]; then
    cat "$logdir/make.log" >&2
    echo "build: make failed (exit $make_rc)" >&2
    exit 1
fi

if [ -n "$warnings" ]; then
    # Show the full diagnostics (with context), then the summary.
    awk '/^----------------------------------------+$/ { skip = !skip; next }
         skip || /^(\/bin\/(ba)?sh .*libtool|libtool: |Build complete|Don.t forget)/ { next }
         { print }' "$logdir/make.log" >&2
    echo "build: FAILED: the compiler printed $(printf '%s\n' "$warnings" | wc -l) warning(s):" >&2
    printf '%s\n' "$warnings" >&2
    exit 1
fi

so="$ROOT/modules/shardcache.so"
if [ ! -f "$so" ]; then
    echo "build: $so was not produced" >&2
    exit 1
fi

# The module must load into a bare PHP; LD_BIND_NOW makes an undefined
# symbol fail here instead of at its first call.
if ! out="$(LD_BIND_NOW=1 php -n -d extension="$so" -r 'exit(extension_loaded("shardcache") ? 0 : 1);' 2>&1)"; then
    echo "build: $so does not load:" >&2
    printf '%s\n' "$out" >&2
    exit 1
fi
if [ -n "$out" ]; then
    echo "build: loading $so printed:" >&2
    printf '%s\n' "$out" >&2
    exit 1
fi

echo "build: ok, $so"
