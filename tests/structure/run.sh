#!/usr/bin/env bash
# The structure rules run, and can fail: scripts/check-core.sh and
# scripts/check-glue.sh must pass on this checkout and fail, with the
# expected message, on copies of it that break one rule each (a message the
# unchanged checkout prints already proves nothing: that case fails too):
#   php-header      a core file includes php.h
#   heading         a core file's first comment loses its "Death:" heading
#   circle          two core modules include each other
#   layer           a module includes a header of a higher layer
#   unlisted        a core header missing from include/README.md's layer table
#   prefix          a core function outside its module's prefix
#   glue-sc         the glue defines an sc_ function
#   glue-macro      the glue defines an SC_ macro
#   fn-long-core    a core function of more than 100 lines
#   fn-long-glue    a glue function of more than 100 lines
#   core-file-size  a core file of more than 1,000 lines
#   define-return   a core #define whose continued body returns
#   define-RETURN   a glue #define that uses PHP's RETURN_FALSE
#   glue-core-hdr   a glue file includes a core header not in php/README.md's list
#   glue-no-header  a glue .c file without a header of its own
#   glue-own-first  a glue .c file includes another glue header before its own
#   glue-two-hdrs   a glue header declares a function of another module
#   glue-circle     two glue modules include each other
#   glue-layer      a glue module includes a header of a higher layer
#   glue-unlisted   a glue header missing from php/README.md's layer table
#   glue-file-size  a glue file of more than 1,000 lines
#   module-size     shardcache.c of 800 lines or more
#   glue-assert     a glue file asserts without php/debug.h (unchecked in the debug build)
# and scripts/check-titles.sh (titles-long, titles-same: a phpt title over
# 80 characters, two equal titles) and scripts/check-docs.sh (docs-phases,
# docs-w32, docs-notes, docs-link: below) the same way.
#
#   tests/structure/run.sh [-h|--help]
# Prints a line per case and "structure: N passed, N failed". Exits non-zero
# on any failure. Needs nothing but bash, sed and grep.
set -uo pipefail

case "${1:-}" in -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CHECKS=("$ROOT/scripts/check-core.sh" "$ROOT/scripts/check-glue.sh")
work="$(mktemp -d "${TMPDIR:-/tmp}/shardcache-structure.XXXXXX")"
trap 'rm -rf "$work"' EXIT
pass=0 failed=0

# The cases run side by side, as many at once as there are cores: each
# writes its lines to a file of its own, printed in the cases' order at the
# end, where the "ok:" and "FAIL:" lines are counted.
JOBS="$(nproc 2>/dev/null || echo 2)"
ORDER=()
spawn() { # NAME FUNCTION ARGS...: runs FUNCTION ARGS... in the background
    local name="$1"; shift
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    ORDER+=("$name")
    ("$@") >"$work/out.$name" 2>&1 &
}

copy_tree() { # dir
    mkdir -p "$1"
    cp -r "$ROOT/src" "$ROOT/include" "$ROOT/php" "$1/"
    cp "$ROOT/shardcache.c" "$ROOT/php_shardcache.h" "$1/"
    rm -f "$1"/src/*.o "$1"/src/*.lo "$1"/src/*.dep "$1"/php/*.o "$1"/php/*.lo "$1"/php/*.dep
    rm -rf "$1/src/.libs" "$1/php/.libs"
}

# Runs every checker on tree $1; prints their output; fails when one fails.
check_tree() {
    local rc=0 c
    for c in "${CHECKS[@]}"; do
        bash "$c" "$1" 2>&1 || rc=1
    done
    return "$rc"
}

# expect_failure NAME EXPECTED-MESSAGE-REGEX CHECK-COMMAND...: the check,
# run on a copy that breaks one rule, must fail with a line matching the
# regex; counts the case as passed or failed.
expect_failure() {
    local name="$1" want="$2" out; shift 2
    if out="$("$@" 2>&1)"; then
        echo "FAIL: $name: the check passed a tree that breaks the rule"
        failed=$((failed + 1))
    elif grep -qE "$want" <<<"$out"; then
        echo "ok:   $name: $(grep -m1 -E "$want" <<<"$out")"
        pass=$((pass + 1))
    else
        echo "FAIL: $name: the check failed, but not with /$want/:"
        sed 's/^/      /' <<<"$out"
        failed=$((failed + 1))
    fi
}

# case NAME EXPECTED-MESSAGE-REGEX EDIT-COMMAND... (run inside the copy)
case_() { spawn "$1" case_run "$@"; }
case_run() {
    local name="$1" want="$2"; shift 2
    local dir="$work/$name" out
    if grep -qE "$want" <<<"$base_out"; then
        echo "FAIL: $name: this checkout prints /$want/ already: the case proves nothing"
        failed=$((failed + 1))
        return
    fi
    copy_tree "$dir"
    (cd "$dir" && "$@") || { echo "FAIL: $name: the edit did not apply"; failed=$((failed + 1)); return; }
    expect_failure "$name" "$want" check_tree "$dir"
}

append() { printf '%s\n' "$2" >>"$1"; }
first_include_after() { # file header-to-add: adds an include after the own header
    sed -i "0,/^#include \"/s//#include \"$2\"\n#include \"/" "$1"
}

if base_out="$(check_tree "$ROOT")"; then
    echo "ok:   this checkout:"; sed 's/^/      /' <<<"$base_out"; pass=$((pass + 1))
else
    echo "FAIL: this checkout:"; sed 's/^/      /' <<<"$base_out"; failed=$((failed + 1))
fi

case_ php-header 'includes the PHP header' \
    sed -i '0,/^#include "sc_pin.h"/s//#include "sc_pin.h"\n#include "php.h"/' src/sc_pin.c
case_ heading 'has no " \* Death:" heading' \
    sed -i '0,/^ \* Death:/s// * Dead:/' src/sc_evict.c
case_ circle 'include circle: .*sc_table' \
    sed -i '0,/^#include "sc_seg.h"/s//#include "sc_seg.h"\n#include "sc_entry.h"/' include/sc_table.h
case_ layer 'layer: sc_alloc .*includes sc_cache.h' \
    sed -i '0,/^#include "sc_lock.h"/s//#include "sc_lock.h"\n#include "sc_cache.h"/' include/sc_alloc.h
case_ unlisted 'sc_extra.h is not in the layer table' \
    bash -c 'printf "/*\n * sc_extra.h - test.\n * Owns: x\n * Locks: x\n * Death: x\n */\n" > include/sc_extra.h'
case_ prefix 'sc_pool_grab is not in its module.s prefix' \
    bash -c 'printf "\nint sc_pool_grab(void);\n" >> include/sc_alloc.h'
case_ glue-sc 'the glue defines sc_helper' \
    bash -c 'printf "\nstatic int sc_helper(void) { return 0; }\n" >> php/info.c'
case_ glue-macro 'the glue defines SC_FOO' \
    bash -c 'printf "\n#define SC_FOO 1\n" >> php/zc.h'

long_function() { # file name: appends a function of 105 lines
    { printf '\nint %s(int x);\nint %s(int x)\n{\n' "$2" "$2"
      for i in $(seq 1 103); do printf '    x += %d;\n' "$i"; done
      printf '    return x;\n}\n'; } >>"$1"
}
many_lines() { # file count: appends count comment lines
    local i
    for i in $(seq 1 "$2"); do printf '/* filler %d */\n' "$i"; done >>"$1"
}

case_ fn-long-core 'src/sc_pin.c:[0-9]+: sc_pin_long_one is 10[0-9] lines' \
    long_function src/sc_pin.c sc_pin_long_one
case_ fn-long-glue 'php/update.c:[0-9]+: php_sc_long_one is 10[0-9] lines' \
    long_function php/update.c php_sc_long_one
case_ core-file-size 'src/sc_pin.c has [0-9]+ lines: a core file has at most 1000' \
    many_lines src/sc_pin.c 1000
case_ define-return 'include/sc_pin.h:[0-9]+: #define SC_PIN_BAIL hides a return' \
    bash -c 'printf "\n#define SC_PIN_BAIL(x) \\\\\n    do { if (x) return; } while (0)\n" >> include/sc_pin.h'
case_ define-RETURN 'php/functions.c:[0-9]+: #define PHP_SC_BAIL hides a return' \
    bash -c 'printf "\n#define PHP_SC_BAIL(x) do { if (x) { RETURN_FALSE; } } while (0)\n" >> php/functions.c'
case_ glue-core-hdr 'php/functions.c includes the core header sc_evict.h' \
    sed -i '0,/^#include "sc_cache.h"/s//#include "sc_cache.h"\n#include "sc_evict.h"/' php/functions.c
case_ glue-no-header 'php/extra.c has no header of its own' \
    bash -c 'printf "#include \"php.h\"\n#include \"php_shardcache.h\"\n" > php/extra.c'
case_ glue-own-first 'php/store.c must include its own header php/store.h before any other glue header \(it includes php/key.h' \
    sed -i '0,/^#include "store.h"/s//#include "key.h"\n#include "store.h"/' php/store.c
case_ glue-two-hdrs 'php/owner.c has two headers, php/owner.h and php/key.h' \
    bash -c 'printf "\nvoid php_sc_owner_refresh(void);\n" >> php/key.h'
case_ glue-circle 'include circle in the glue: .*(fetch -> store -> fetch|store -> fetch -> store)' \
    sed -i '0,/^#include "store.h"/s//#include "store.h"\n#include "fetch.h"/' php/store.c
case_ glue-layer 'layer: update \(layer [0-9]+\) includes the header of segment' \
    sed -i '0,/^#include "update.h"/s//#include "update.h"\n#include "segment.h"/' php/update.c
case_ glue-unlisted 'php/extra.h is not in the layer table' \
    bash -c 'printf "#ifndef X\n#define X\n#endif\n" > php/extra.h'
case_ glue-file-size 'php/owner.c has [0-9]+ lines: a glue file has at most 1000' \
    many_lines php/owner.c 800
case_ module-size 'shardcache.c has [0-9]+ lines: the module stays under 800' \
    many_lines shardcache.c 300
case_ glue-assert 'php/plain_enc.c asserts \(ZEND_ASSERT\) but includes neither php/debug.h' \
    bash -c 'printf "\nstatic void php_sc_plain_enc_probe(int x) { ZEND_ASSERT(x > 0); }\n" >> php/plain_enc.c'

# scripts/check-titles.sh (phpt titles at most 80 characters, no two equal)
# passes on this checkout and fails on copies of its tests/ where one phpt
# title is 120 characters long, or repeats another's.
titles_case() { spawn "titles-$1" titles_run "$@"; }
titles_run() { # NAME EXPECTED-MESSAGE-REGEX EDIT-COMMAND... (run inside the copy)
    local name="titles-$1" want="$2"; shift 2
    local dir="$work/titles-$1" out
    mkdir -p "$dir"
    (cd "$ROOT" && find tests -name '*.phpt' -type f -exec cp --parents -t "$dir" {} +)
    (cd "$dir" && "$@") || { echo "FAIL: $name: the edit did not apply"; failed=$((failed + 1)); return; }
    expect_failure "$name" "$want" bash "$ROOT/scripts/check-titles.sh" "$dir"
}

if out="$(bash "$ROOT/scripts/check-titles.sh" "$ROOT" 2>&1)"; then
    echo "ok:   titles of this checkout: $out"; pass=$((pass + 1))
else
    echo "FAIL: titles of this checkout:"; sed 's/^/      /' <<<"$out"; failed=$((failed + 1))
fi

titles_case long '009-exists.phpt: title is 120 characters \(over 80\)' \
    sed -i "2s/.*/$(printf '%0120d' 0)/" tests/api/009-exists.phpt
titles_case same '010-delete.phpt: same title as tests/api/009-exists.phpt' \
    bash -c 'sed -i "2s/.*/$(sed -n 2p tests/api/009-exists.phpt)/" tests/api/010-delete.phpt'


# ---- docs: scripts/check-docs.sh ------------------------------------------
# check-docs.sh must pass on this checkout and fail, with the expected
# message, on copies that break one rule each:
#   docs-phases  an included copy of `scripts/test.sh --list` drifted
#   docs-w32     config.w32 does not build a file of config.m4
#   docs-notes   package.xml's notes differ from CHANGELOG.md's newest section
#   docs-link    a link names a heading that does not exist
DOCS_CHECK="$ROOT/scripts/check-docs.sh"
# docs_case NAME ONLY EXPECTED-MESSAGE-REGEX FILES EDIT-COMMAND...: FILES
# (space-separated, relative to ROOT) are copied, the edit runs inside the
# copy, then check-docs.sh --only=ONLY must fail with the message.
docs_case() { spawn "$1" docs_run "$@"; }
docs_run() {
    local name="$1" only="$2" want="$3" files="$4" f out; shift 4
    local dir="$work/$name"
    mkdir -p "$dir"
    for f in $files; do
        mkdir -p "$dir/$(dirname "$f")" && cp -r "$ROOT/$f" "$dir/$f"
    done
    (cd "$dir" && "$@") || { echo "FAIL: $name: the edit did not apply"; failed=$((failed + 1)); return; }
    expect_failure "$name" "$want" bash "$DOCS_CHECK" --only="$only" "$dir"
}

if out="$(bash "$DOCS_CHECK" "$ROOT" 2>&1)"; then
    echo "ok:   docs on this checkout: $(tail -n 1 <<<"$out")"; pass=$((pass + 1))
else
    echo "FAIL: docs on this checkout:"; sed 's/^/      /' <<<"$out"; failed=$((failed + 1))
fi
docs_case docs-phases phases 'tests/README.md \(copy 1 of 1\) differs from scripts/test.sh --list' \
    "scripts tests/README.md" \
    sed -i 's/^<!-- phases:end -->/no-such-phase        extra     true\n&/' tests/README.md
docs_case docs-w32 w32 'in config.m4, not built by config.w32: src/sc_[a-z_]+\.c' \
    "config.m4 config.w32" \
    sed -i '0,/"sc_[a-z_]*\.c",/{//d}' config.w32
docs_case docs-notes notes 'package.xml <notes> differ from CHANGELOG.md' \
    "scripts/changelog-notes.sh CHANGELOG.md package.xml" \
    sed -i '0,/^- /s/^- /- Changed: /' CHANGELOG.md
docs_case docs-link links 'no heading #no-such-heading in x.md' \
    "" \
    bash -c 'printf "# X\n\n## A heading\n\n[ok](#a-heading) [bad](#no-such-heading)\n" > x.md'

wait
for name in "${ORDER[@]}"; do
    cat "$work/out.$name"
    if [ "$(grep -cE '^(ok|FAIL):' "$work/out.$name")" -ne 1 ]; then
        echo "FAIL: $name: the case did not report one result"; failed=$((failed + 1))
    fi
    pass=$((pass + $(grep -c '^ok:' "$work/out.$name")))
    failed=$((failed + $(grep -c '^FAIL:' "$work/out.$name")))
done
[ "${#ORDER[@]}" -gt 0 ] || { echo "FAIL: no case ran"; failed=$((failed + 1)); }
echo "structure: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
