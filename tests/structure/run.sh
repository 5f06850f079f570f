#!/usr/bin/env bash
# The structure rules run, and can fail: scripts/check-core.sh must pass on
# this checkout and fail, with the expected message, on copies of it that
# break one rule each:
#   php-header  a core file includes php.h
#   heading     a core file's first comment loses its "Death:" heading
#   circle      two core modules include each other
#   layer       a module includes a header of a higher layer
#   unlisted    a core header missing from include/README.md's layer table
#   prefix      a core function outside its module's prefix
#   glue-sc     the glue defines an sc_ function
#   glue-macro  the glue defines an SC_ macro
#
#   tests/structure/run.sh [-h|--help]
# Prints a line per case and "structure: N passed, N failed". Exits non-zero
# on any failure. Needs nothing but bash, sed and grep.
set -uo pipefail

case "${1:-}" in -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CHECK="$ROOT/scripts/check-core.sh"
work="$(mktemp -d "${TMPDIR:-/tmp}/shardcache-structure.XXXXXX")"
trap 'rm -rf "$work"' EXIT
pass=0 failed=0

copy_tree() { # dir
    mkdir -p "$1"
    cp -r "$ROOT/src" "$ROOT/include" "$ROOT/php" "$1/"
    cp "$ROOT/shardcache.c" "$ROOT/php_shardcache.h" "$1/"
    rm -f "$1"/src/*.o "$1"/src/*.lo "$1"/src/*.dep "$1"/php/*.o "$1"/php/*.lo "$1"/php/*.dep
    rm -rf "$1/src/.libs" "$1/php/.libs"
}

# case NAME EXPECTED-MESSAGE-REGEX EDIT-COMMAND... (run inside the copy)
case_() {
    local name="$1" want="$2"; shift 2
    local dir="$work/$name" out
    copy_tree "$dir"
    (cd "$dir" && "$@") || { echo "FAIL: $name: the edit did not apply"; failed=$((failed + 1)); return; }
    if out="$(bash "$CHECK" "$dir" 2>&1)"; then
        echo "FAIL: $name: check-core passed a tree that breaks the rule"
        failed=$((failed + 1))
    elif grep -qE "$want" <<<"$out"; then
        echo "ok:   $name: $(grep -m1 -E "$want" <<<"$out")"
        pass=$((pass + 1))
    else
        echo "FAIL: $name: check-core failed, but not with /$want/:"
        sed 's/^/      /' <<<"$out"
        failed=$((failed + 1))
    fi
}

append() { printf '%s\n' "$2" >>"$1"; }
first_include_after() { # file header-to-add: adds an include after the own header
    sed -i "0,/^#include \"/s//#include \"$2\"\n#include \"/" "$1"
}

if out="$(bash "$CHECK" "$ROOT" 2>&1)"; then
    echo "ok:   this checkout: $out"; pass=$((pass + 1))
else
    echo "FAIL: this checkout:"; sed 's/^/      /' <<<"$out"; failed=$((failed + 1))
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

# scripts/check-titles.sh (phpt titles at most 80 characters, no two equal)
# passes on this checkout and fails on copies of its tests/ where one phpt
# title is 120 characters long, or repeats another's.
titles_case() { # NAME EXPECTED-MESSAGE-REGEX EDIT-COMMAND... (run inside the copy)
    local name="titles-$1" want="$2"; shift 2
    local dir="$work/titles-$1" out
    mkdir -p "$dir"
    (cd "$ROOT" && find tests -name '*.phpt' -type f -exec cp --parents -t "$dir" {} +)
    (cd "$dir" && "$@") || { echo "FAIL: $name: the edit did not apply"; failed=$((failed + 1)); return; }
    if out="$(bash "$ROOT/scripts/check-titles.sh" "$dir" 2>&1)"; then
        echo "FAIL: $name: check-titles passed a tree that breaks the rule"
        failed=$((failed + 1))
    elif grep -qE "$want" <<<"$out"; then
        echo "ok:   $name: $(grep -m1 -E "$want" <<<"$out")"
        pass=$((pass + 1))
    else
        echo "FAIL: $name: check-titles failed, but not with /$want/:"
        sed 's/^/      /' <<<"$out"
        failed=$((failed + 1))
    fi
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
docs_case() {
    local name="$1" only="$2" want="$3" files="$4" f out; shift 4
    local dir="$work/$name"
    mkdir -p "$dir"
    for f in $files; do
        mkdir -p "$dir/$(dirname "$f")" && cp -r "$ROOT/$f" "$dir/$f"
    done
    (cd "$dir" && "$@") || { echo "FAIL: $name: the edit did not apply"; failed=$((failed + 1)); return; }
    if out="$(bash "$DOCS_CHECK" --only="$only" "$dir" 2>&1)"; then
        echo "FAIL: $name: check-docs passed a tree that breaks the rule"
        failed=$((failed + 1))
    elif grep -qE "$want" <<<"$out"; then
        echo "ok:   $name: $(grep -m1 -E "$want" <<<"$out")"
        pass=$((pass + 1))
    else
        echo "FAIL: $name: check-docs failed, but not with /$want/:"
        sed 's/^/      /' <<<"$out"
        failed=$((failed + 1))
    fi
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

echo "structure: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
