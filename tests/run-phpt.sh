#!/usr/bin/env bash
# Runs the phpt suite (every *.phpt below tests/, see tests/README.md) with
# PHP's run-tests.php against one extension.
#
#   tests/run-phpt.sh [--valgrind] [--named] [extension.so] [-- extra run-tests.php args]
#   tests/run-phpt.sh modules/shardcache.so -- tests/api/           (one area)
#   tests/run-phpt.sh modules/shardcache.so -- tests/api/001-store-fetch-scalars.phpt
#                                                                   (one test)
#   (scripts/test.sh phpt -- tests/api/ does the same after setup and build.)
#
#   extension.so  path of the extension to load (default: <repo>/modules/shardcache.so).
#                 A bare name such as "apcu.so" is looked up in PHP's extension_dir,
#                 which is how the expectations are checked against the real APCu:
#                     tests/run-phpt.sh apcu.so
#   --valgrind    run every test under valgrind memcheck (run-tests -m) with
#                 USE_ZEND_ALLOC=0 and pcre.jit=0 (PCRE's JIT code confuses
#                 memcheck); leaks and memory errors count as failures.
#                 The fork tests run under valgrind too (every child is
#                 traced); SHARDCACHE_VALGRIND_FORK=0 skips them for a
#                 quicker run.
#   --named       the whole suite on named segments: shardcache.segment=
#                 <private dir in /dev/shm>/seg-%p, so that every PHP process
#                 of the suite makes and maps its own segment file (a fresh,
#                 empty cache per test process, as with the anonymous
#                 segment) through the file-backed path: creation, flock,
#                 posix_fallocate, MAP_SHARED of a file. Segment files are
#                 unlinked by a background sweep every second while the suite
#                 runs (a process keeps its mapping after the name is gone,
#                 and with %p no other process ever opens the same name);
#                 files still being made (*.new) are left alone.
#
# Environment: PHP (php binary, default: php in PATH), RUN_TESTS (path of
# run-tests.php, default: <extension_dir>/build/run-tests.php), JOBS (parallel
# workers, default 2; JOBS=1: one test at a time, on PHP 8.6 too).
#
# PHP always runs with -n (no php.ini: the distribution's APCu ini must not load),
# the extension given with -d extension=..., and apc.enable_cli=1 comes from each
# test's --INI-- section.
#
# Exit status: 0 only if no test failed, leaked or was malformed (borked) and at
# least one test passed; the run-tests.php summary is printed in every case.
set -u

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VALGRIND=0
NAMED=0
EXT=""
EXTRA=()

while [ $# -gt 0 ]; do
    case "$1" in
        --valgrind) VALGRIND=1 ;;
        --named) NAMED=1 ;;
        -h|--help) sed -n '2,/^set -u$/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --) shift; EXTRA=("$@"); break ;;
        -*) echo "run-phpt.sh: unknown option $1" >&2; exit 2 ;;
        *)
            if [ -n "$EXT" ]; then echo "run-phpt.sh: more than one extension given" >&2; exit 2; fi
            EXT="$1" ;;
    esac
    shift
done

PHP="${PHP:-$(command -v php || true)}"
if [ -z "$PHP" ] || [ ! -x "$PHP" ]; then
    echo "run-phpt.sh: no php binary found (set PHP=...)" >&2
    exit 2
fi
PHP="$(readlink -f "$PHP")"

EXT="${EXT:-$ROOT/modules/shardcache.so}"
case "$EXT" in
    */*)
        if [ ! -f "$EXT" ]; then
            echo "run-phpt.sh: extension not found: $EXT (build it first)" >&2
            exit 2
        fi
        EXT="$(readlink -f "$EXT")" ;;
esac

# The extension must really load: otherwise every test would be skipped and
# run-tests.php would report success.
if ! load_out="$("$PHP" -n -d "extension=$EXT" -r 'echo function_exists("apcu_store") ? "ok" : "no apcu_store";' 2>&1)" \
        || [ "$(printf '%s' "$load_out" | tail -n 1)" != "ok" ]; then
    echo "run-phpt.sh: cannot load $EXT with $PHP -n:" >&2
    printf '%s\n' "$load_out" >&2
    exit 2
fi

RUN_TESTS="${RUN_TESTS:-}"
if [ -z "$RUN_TESTS" ]; then
    extdir="$("$PHP" -n -r 'echo PHP_EXTENSION_DIR;')"
    for cand in "$extdir/build/run-tests.php" \
                "$(php-config --extension-dir 2>/dev/null)/build/run-tests.php" \
                "$(php-config --prefix 2>/dev/null)/lib/php/build/run-tests.php" \
                "$ROOT/run-tests.php"; do
        if [ -f "$cand" ]; then RUN_TESTS="$cand"; break; fi
    done
fi
if [ -z "$RUN_TESTS" ] || [ ! -f "$RUN_TESTS" ]; then
    echo "run-phpt.sh: run-tests.php not found (install php-dev, or set RUN_TESTS=...)" >&2
    exit 2
fi

JOBS="${JOBS:-2}"
ARGS=(-n -p "$PHP" -d "extension=$EXT" -q --show-diff)
if [ "$VALGRIND" = 1 ]; then
    if ! command -v valgrind >/dev/null 2>&1; then
        echo "run-phpt.sh: valgrind not installed" >&2
        exit 2
    fi
    export USE_ZEND_ALLOC=0
    export ZEND_DONT_UNLOAD_MODULES=1
    export SHARDCACHE_VALGRIND=1
    if [ "${SHARDCACHE_VALGRIND_FORK:-1}" = "0" ]; then
        unset SHARDCACHE_VALGRIND_FORK
    else
        export SHARDCACHE_VALGRIND_FORK=1
    fi
    ARGS+=(-m -d pcre.jit=0)
fi
# Always given, -j1 too: PHP 8.6's run-tests.php runs in parallel when
# it is told nothing (up to 10 workers); -j1 is sequential on every version.
if [ "$JOBS" -ge 1 ] 2>/dev/null; then
    ARGS+=("-j$JOBS")
fi
# run-tests gives a test 60 s (300 s under valgrind, whatever this says).
# A few tests run children of their own under valgrind (bad-input/230: three
# of them); on a loaded 2-core machine those took longer than 60 s and passed
# only on run-tests' retry. A hang is still caught, later.
ARGS+=(--set-timeout "${PHPT_TIMEOUT:-240}")

RESULTS="$(mktemp "${TMPDIR:-/tmp}/run-phpt.XXXXXX")"
SEGDIR="" SWEEP=""
trap 'rm -f "$RESULTS"; [ -n "$SWEEP" ] && kill "$SWEEP" 2>/dev/null && wait "$SWEEP" 2>/dev/null; [ -n "$SEGDIR" ] && rm -rf "$SEGDIR"' EXIT
if [ "$NAMED" = 1 ]; then
    SEGDIR="$(mktemp -d /dev/shm/shardcache-phpt.XXXXXX)" \
        || { echo "run-phpt.sh: cannot make a directory in /dev/shm" >&2; exit 2; }
    chmod 700 "$SEGDIR"
    ( while [ -d "$SEGDIR" ]; do
          find "$SEGDIR" -mindepth 1 -maxdepth 1 -type f ! -name '*.new' -delete 2>/dev/null; sleep 1
      done ) &
    SWEEP=$!
    echo "run-phpt.sh: shardcache.segment=$SEGDIR/seg-%p"
    ARGS+=(-d "shardcache.segment=$SEGDIR/seg-%p")
fi

echo "run-phpt.sh: $PHP, extension=$EXT$([ "$VALGRIND" = 1 ] && echo ', valgrind')"
export NO_INTERACTION=1
export REPORT_EXIT_STATUS=1
# Tests named after -- (files or directories) replace the whole tests/ dir.
TARGETS=("$ROOT/tests")
for a in ${EXTRA[@]+"${EXTRA[@]}"}; do
    case "$a" in
        *.phpt|*/) TARGETS=() ;;
        -*) ;;
        *) [ -d "$a" ] && TARGETS=() ;;
    esac
done
"$PHP" -n "$RUN_TESTS" "${ARGS[@]}" -W "$RESULTS" ${EXTRA[@]+"${EXTRA[@]}"} ${TARGETS[@]+"${TARGETS[@]}"}
rc=$?

# -W writes one "STATUS path" line per test.
passed=$(grep -c '^PASS' "$RESULTS" 2>/dev/null || true)
bad=$(grep -Ec '^(FAIL|BORK|LEAK|WARN)' "$RESULTS" 2>/dev/null || true)
if [ "$rc" -eq 0 ] && [ "${bad:-0}" -eq 0 ] && [ "${passed:-0}" -eq 0 ]; then
    echo "run-phpt.sh: no test passed (all skipped?)" >&2
    rc=1
fi
if [ "${bad:-0}" -ne 0 ]; then
    echo "run-phpt.sh: $bad test(s) not clean (a WARNED test passed only on run-tests' retry: flaky):"
    grep -E '^(FAIL|BORK|LEAK|WARN)' "$RESULTS" | sed "s|$ROOT/||"
    rc=1
fi
exit "$rc"
