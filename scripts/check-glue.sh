#!/usr/bin/env bash
# Checks the structure of the glue (shardcache.c, php_shardcache.h, php/*.c,
# php/*.h); no compiler, no PHP needed. The rules are php/README.md's; it
# fails (exit 1) with a message per problem when:
#   - a glue file includes a core header (one in include/) that is not in
#     the list of php/README.md, section "1.";
#   - a glue .c file has no header of its own (php/X.h for php/X.c,
#     php_shardcache.h for shardcache.c), or includes another glue header
#     before it;
#   - a glue module has two headers: a glue header declares a function or
#     variable that a .c file of another module defines;
#   - the glue's modules include each other in a circle (module A depends
#     on B when a file of A includes B's header), printed as A -> B -> A;
#   - a module includes the header of a module in a higher layer of the
#     layer table of php/README.md (section "2."), or a glue header is
#     missing from that table;
#   - a glue file is over 1,000 lines, or shardcache.c has 800 or more;
#   - a glue file asserts (ZEND_ASSERT) without including php/debug.h or
#     php_shardcache.h itself: its assertions would not be checked in the
#     debug build.
# Modules: php/X.c and php/X.h are module X; shardcache.c is the module
# "shardcache" (the top layer), php_shardcache.h the module
# "php_shardcache" (the bottom one). The generated php/*_arginfo.h files
# belong to the file that includes them and are left out.
#
#   scripts/check-glue.sh [ROOT]     (default: this checkout)
# Run by scripts/build.sh before compiling (after scripts/check-core.sh).
set -euo pipefail

# add_dep, report_circles, report_layer_breaks: the include graph's checks,
# as the core's.
# shellcheck source=check-core.sh
source "$(dirname "${BASH_SOURCE[0]}")/check-core.sh" --functions

ROOT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$ROOT"

MAX_LINES=1000
MAX_MODULE_LINES=800   # shardcache.c stays under this

fail=0
problem() { echo "check-glue: $*" >&2; fail=1; }

shopt -s nullglob
sources=(shardcache.c php/*.c)
headers=(php_shardcache.h)
for h in php/*.h; do
    case "$h" in *_arginfo.h) ;; *) headers+=("$h") ;; esac
done
[ -f shardcache.c ] && [ -f php_shardcache.h ] && [ -f php/README.md ] \
    || { echo "check-glue: no glue (shardcache.c, php_shardcache.h, php/README.md) under $ROOT" >&2; exit 2; }

# Every quoted #include of a file, in order, without the quotes.
quoted_includes() {
    sed -n -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/p' "$1"
}

# The glue file a quoted include of file $1 names ("" when none): a name
# next to the including file first, then from the root (the build's -I).
glue_file() {
    local dir name="$2" f
    dir="$(dirname "$1")"
    for f in "$dir/$name" "$name"; do
        f="${f#./}"
        case "$f" in *_arginfo.h) continue ;; esac
        if [ -f "$f" ] && { [ "$f" = php_shardcache.h ] || [[ "$f" == php/*.h ]]; }; then
            echo "$f"
            return
        fi
    done
}

module_of() {
    case "$1" in
        shardcache.c) echo shardcache ;;
        php_shardcache.h) echo php_shardcache ;;
        *) basename "${1%.*}" ;;
    esac
}

own_header_of() {
    case "$1" in
        shardcache.c) echo php_shardcache.h ;;
        *) echo "${1%.c}.h" ;;
    esac
}

section_of_readme() { # "N." -> the lines of section "## N." of php/README.md
    awk -v want="## $1" 'index($0, want) == 1 { on = 1; next } /^## / { on = 0 } on' php/README.md
}

# 1. the core headers the glue may include
allowed=" $(section_of_readme 1. | sed -n -E 's/^\| `(sc_[a-z0-9_]+\.h)` \|.*/\1/p' | tr '\n' ' ')"
[ "$allowed" != " " ] || problem "php/README.md has no list of core headers under \"## 1.\" (rows | \`sc_x.h\` | why |)"
for f in "${sources[@]}" "${headers[@]}"; do
    while IFS= read -r name; do
        [ -f "include/$name" ] || continue
        case "$allowed" in
            *" $name "*) ;;
            *) problem "$f includes the core header $name, which the glue may not include (php/README.md, section 1:$(sed 's/ \([^ ]*\)/ \1,/g; s/,$//' <<<"${allowed% }"))" ;;
        esac
    done < <(quoted_includes "$f")
done

# 2. own header, included first
for c in "${sources[@]}"; do
    own="$(own_header_of "$c")"
    if [ ! -f "$own" ]; then
        problem "$c has no header of its own ($own): one header per glue module (php/README.md, section 2)"
        continue
    fi
    first=""
    while IFS= read -r name; do
        first="$(glue_file "$c" "$name")"
        [ -n "$first" ] && break
    done < <(quoted_includes "$c")
    if [ "$first" != "$own" ]; then
        problem "$c must include its own header $own before any other glue header (it includes ${first:-none} first)"
    fi
done

# 3. one header per module: names a header declares, and the .c that defines them.
# Declared: prototypes and extern variables at file level (not static,
# typedef or macros); ZEND_FUNCTION(x) stands for zif_x.
declared_names() {
    sed -n -E '/^(static|typedef|#)/d
        s/^ZEND_FUNCTION\(([A-Za-z0-9_]+)\);.*/zif_\1/p
        s/^extern[^(;]*[ *]([A-Za-z_][A-Za-z0-9_]*)(\[[^]]*\])?;.*/\1/p
        /^extern/d
        s/^[A-Za-z_][A-Za-z0-9_ *]*[ *]([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/p' "$1" | grep -v '^ZEND_' || true
}
# Defined: functions whose body follows (a line with { alone), and variables at
# file level, neither static; ZEND_FUNCTION(x) as zif_x.
defined_names() {
    awk '
        /^(static|typedef|extern|#|struct|union|enum)/ { cand = ""; next }
        /^ZEND_FUNCTION\([A-Za-z0-9_]+\)[[:space:]]*$/ { s = $0; sub(/^ZEND_FUNCTION\(/, "", s); sub(/\).*/, "", s); cand = "zif_" s; next }
        /^[A-Za-z_][A-Za-z0-9_ *]*[ *][A-Za-z_][A-Za-z0-9_]*\(/ {
            s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ *]+/); cand = w[n]; next
        }
        /^[A-Za-z_][A-Za-z0-9_ *]*[ *][A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?[[:space:]]*(=.*)?;/ {
            s = $0; sub(/[[:space:]]*(\[[^]]*\])?[[:space:]]*(=.*)?;.*/, "", s); n = split(s, w, /[ *]+/); print w[n]; next
        }
        /^\{/ { if (cand != "") print cand; cand = ""; next }
        /;[[:space:]]*$/ { cand = "" }
    ' "$1" | grep -v '^ZEND_\|^PHP_' || true
}
declare -A definer
for c in "${sources[@]}"; do
    while IFS= read -r name; do
        [ -n "$name" ] && definer["$name"]="$c"
    done < <(defined_names "$c")
done
declare -A reported
for h in "${headers[@]}"; do
    while IFS= read -r name; do
        c="${definer[$name]:-}"
        [ -n "$c" ] || continue
        own="$(own_header_of "$c")"
        [ "$own" = "$h" ] && continue
        [ -n "${reported[$c $h]:-}" ] && continue
        reported["$c $h"]=1
        if [ -f "$own" ]; then
            problem "$c has two headers, $own and $h (which declares $name): one header per glue module"
        else
            problem "$h declares $name of $c, whose header would be $own: one header per glue module"
        fi
    done < <(declared_names "$h")
done

# 4. module graph and its cycles
declare -A deps layer_of
for f in "${sources[@]}" "${headers[@]}"; do
    m="$(module_of "$f")"
    while IFS= read -r name; do
        g="$(glue_file "$f" "$name")"
        [ -n "$g" ] || continue
        add_dep "$m" "$(module_of "$g")"
    done < <(quoted_includes "$f")
done

modules=()
for f in "${sources[@]}" "${headers[@]}"; do
    modules+=("$(module_of "$f")")
done
report_circles "include circle in the glue" "${modules[@]}"

# 5. layers: the table of php/README.md, bottom-up. A row is
#   | layer | `php/a.h`, `php/b.h` | job |     (or `php_shardcache.h`, `shardcache.c`)
row=0
while IFS= read -r line; do
    [[ "$line" == "|"* ]] || continue
    cell="$(cut -d'|' -f3 <<<"$line")"
    names="$(grep -oE '`(php/[a-z0-9_]+\.h|php_shardcache\.h|shardcache\.c)`' <<<"$cell" | tr -d '`' || true)"
    [ -n "$names" ] || continue
    row=$((row + 1))
    for n in $names; do
        layer_of["$(module_of "$n")"]=$row
    done
done < <(section_of_readme 2.)
if [ "$row" -eq 0 ]; then
    problem "php/README.md has no layer table under \"## 2.\" (rows | layer | \`php/x.h\`, ... | job |)"
else
    for h in "${headers[@]}"; do
        [ -n "${layer_of[$(module_of "$h")]:-}" ] || problem "$h is not in the layer table of php/README.md (section 2)"
    done
    [ -n "${layer_of[shardcache]:-}" ] || problem "shardcache.c is not in the layer table of php/README.md (section 2)"
    report_layer_breaks "the header of %s" php/README.md
fi

# 6. file sizes
for f in "${sources[@]}" "${headers[@]}" php/*_arginfo.h; do
    n=$(wc -l <"$f")
    if [ "$f" = shardcache.c ] && [ "$n" -ge "$MAX_MODULE_LINES" ]; then
        problem "$f has $n lines: the module stays under $MAX_MODULE_LINES (move code into php/)"
    elif [ "$n" -gt "$MAX_LINES" ]; then
        problem "$f has $n lines: a glue file has at most $MAX_LINES (split it by job)"
    fi
done

# 7. assertions that the debug build checks
for f in "${sources[@]}" "${headers[@]}"; do
    case "$f" in php/debug.h) continue ;; esac
    grep -q 'ZEND_ASSERT(' "$f" || continue
    grep -qxE '(php/)?debug\.h|php_shardcache\.h' <<<"$(quoted_includes "$f")" \
        || problem "$f asserts (ZEND_ASSERT) but includes neither php/debug.h nor php_shardcache.h: the debug build would not check it"
done

if [ "$fail" -ne 0 ]; then
    echo "check-glue: FAILED" >&2
    exit 1
fi
echo "check-glue: ok (${#sources[@]} sources, ${#headers[@]} headers: core headers, own headers, one header per module, no include circle, layers, file sizes, checked assertions)"
