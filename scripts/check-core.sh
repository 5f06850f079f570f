#!/usr/bin/env bash
# Checks the structure of the core (src/*.c, include/*.h); no compiler, no
# PHP needed. Fails (exit 1) with a message per problem when:
#   - a core file includes a PHP header (php.h, php_*.h, zend*.h, SAPI.h,
#     TSRM*.h, or anything under Zend/, main/, ext/, TSRM/), or includes a
#     quoted header that is not in include/ (e.g. the glue's
#     php/value.h or php_shardcache.h): the core has no PHP in it;
#   - src/X.c has its own header include/X.h but does not include it first
#     among the project headers;
#   - a core file's first comment lacks one of the three headings "Owns:",
#     "Locks:", "Death:" (what it owns, which locks protect it, what happens
#     if a process dies inside it: include/README.md);
#   - the core's modules include each other in a circle. A module is a
#     header include/X.h together with src/X.c; a src file without a header
#     of its own belongs to the module of the first header it includes
#     (sc_update.c, sc_reserve.c, sc_snapshot.c: the cache operations of
#     sc_cache.h). Module A depends on B when a file of A includes B's
#     header; any cycle in that graph fails, printed as A -> B -> ... -> A;
#   - a module includes the header of a module in a higher layer of the
#     layer table of include/README.md (section "2. Layers"), or a core
#     header is missing from that table;
#   - a function defined or declared at file level in a core file does not
#     carry its module's prefix: sc_M_ for module sc_M, or, for a src file
#     without a header of its own, its file's name (sc_snapshot_ in
#     sc_snapshot.c). The exceptions (PREFIX_EXCEPTIONS below, listed in
#     include/README.md): sc_common.h (the base: any sc_ name), sc_lock
#     (also sc_mutex_, sc_seq_: the two lock kinds it defines);
#   - the glue (shardcache.c, php_shardcache.h, php/) defines a name that
#     starts with sc_ or SC_ (function, variable, type or macro): those
#     prefixes belong to the core; the glue's own are php_sc_ and PHP_SC_;
#   - a function of the core or the glue is over 100 lines, counted from the
#     line with its { (in column 0) to the line with its } (column 0);
#   - a #define of the core or the glue hides a return: its body (with the
#     lines it continues on) holds `return` or one of PHP's RETURN_* macros.
#   - a core file (src/*.c, include/*.h) is over 1000 lines: split it by
#     job (the glue's files are held to the same by scripts/check-glue.sh).
# The glue's own structure (layers, headers, file sizes) is checked by
# scripts/check-glue.sh.
#
#   scripts/check-core.sh [ROOT]     (default: this checkout)
#   source scripts/check-core.sh --functions   (the include graph's functions
#                                    only, for scripts/check-glue.sh)
# Run by scripts/build.sh before compiling, and on its own in CI.
set -euo pipefail

# ---- the include graph, shared with scripts/check-glue.sh (it sources this
# file with --functions: these functions, and no check run). The caller
# declares deps (deps[M]="D1 D2 ...": a file of module M includes a header
# of module D), layer_of (layer_of[M]: M's row in its layer table) and
# problem().

add_dep() { # M D
    [ "$1" = "$2" ] && return 0
    case " ${deps[$1]:-} " in *" $2 "*) ;; *) deps["$1"]="${deps[$1]:-} $2" ;; esac
}

# LABEL MODULE...: a problem "LABEL: A -> B -> ... -> A" per include circle
# found by a depth-first walk from each MODULE.
report_circles() {
    local label="$1" m
    shift
    declare -gA circle_state=()   # unset: not seen, 1: on the current path, 2: done
    circle_path=()
    for m in "$@"; do
        [ "${circle_state[$m]:-0}" = 0 ] && circle_visit "$label" "$m"
    done
    return 0
}
circle_visit() {
    local label="$1" m="$2" d i
    circle_state["$m"]=1
    circle_path+=("$m")
    for d in ${deps[$m]:-}; do
        if [ "${circle_state[$d]:-0}" = 1 ]; then
            local out="" on=0
            for i in "${circle_path[@]}"; do
                [ "$i" = "$d" ] && on=1
                [ "$on" = 1 ] && out+="$i -> "
            done
            problem "$label: ${out}$d"
        elif [ "${circle_state[$d]:-0}" = 0 ]; then
            circle_visit "$label" "$d"
        fi
    done
    unset 'circle_path[${#circle_path[@]}-1]'
    circle_state["$m"]=2
}

# HEADER-FORMAT TABLE-FILE: a problem per include of a module in a higher
# layer; HEADER-FORMAT names the included module's header (printf, "%s.h").
report_layer_breaks() {
    local fmt="$1" table="$2" m d lm ld
    for m in "${!deps[@]}"; do
        lm="${layer_of[$m]:-}"
        [ -n "$lm" ] || continue
        for d in ${deps[$m]}; do
            ld="${layer_of[$d]:-}"
            if [ -n "$ld" ] && [ "$ld" -gt "$lm" ]; then
                # shellcheck disable=SC2059
                problem "layer: $m (layer $lm) includes $(printf "$fmt" "$d"), which is in the higher layer $ld ($table, section 2)"
            fi
        done
    done
    return 0
}

if [ "${1:-}" = --functions ]; then
    return 0
fi

ROOT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$ROOT"

fail=0
problem() { echo "check-core: $*" >&2; fail=1; }

shopt -s nullglob
headers=(include/*.h)
sources=(src/*.c)
[ "${#headers[@]}" -gt 0 ] && [ "${#sources[@]}" -gt 0 ] || { echo "check-core: no core files under $ROOT" >&2; exit 2; }

# Every #include of a file: prints "<name>" or "\"name\"" in order.
includes_of() {
    sed -n -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*([<"][^>"]+[>"]).*/\1/p' "$1"
}

# 1. no PHP in the core
php_re='^[<"]((Zend|main|ext|TSRM|sapi)/|php[._]|zend[._]|SAPI\.h|TSRM)'
for f in "${headers[@]}" "${sources[@]}"; do
    while IFS= read -r inc; do
        name="${inc:1:${#inc}-2}"
        if [[ "$inc" =~ $php_re ]]; then
            problem "$f includes the PHP header $inc (the core must not see PHP; that code belongs in the glue: shardcache.c, php/)"
        elif [[ "$inc" == \"* ]] && [ ! -f "include/$name" ]; then
            problem "$f includes \"$name\", which is not a core header in include/"
        fi
    done < <(includes_of "$f")
done

# 2. the three headings in each file's first comment
for f in "${headers[@]}" "${sources[@]}"; do
    first_comment="$(awk 'NR == 1 && !/^\/\*/ { exit } { print } /\*\// { exit }' "$f")"
    for heading in Owns Locks Death; do
        if ! grep -qE "^ \* ${heading}:" <<<"$first_comment"; then
            problem "$f: its first comment has no \" * ${heading}:\" heading (see include/README.md)"
        fi
    done
done

# 3. module of each file, and own header first
declare -A module_of
for h in "${headers[@]}"; do
    b="$(basename "$h" .h)"
    module_of["$h"]="$b"
done
for c in "${sources[@]}"; do
    b="$(basename "$c" .c)"
    first="$(includes_of "$c" | sed -n -E 's/^"([^"]+)\.h"$/\1/p' | head -n1)"
    if [ -f "include/$b.h" ]; then
        module_of["$c"]="$b"
        if [ "$first" != "$b" ]; then
            problem "$c must include its own header \"$b.h\" before any other project header (it includes \"${first:-nothing}.h\" first)"
        fi
    elif [ -n "$first" ]; then
        module_of["$c"]="$first"
    else
        module_of["$c"]="$b"
    fi
done

# 4. module graph and its cycles
declare -A deps
for f in "${headers[@]}" "${sources[@]}"; do
    m="${module_of[$f]}"
    while IFS= read -r dep; do
        [ "$dep" = "$m" ] && continue
        [ -f "include/$dep.h" ] || continue
        add_dep "$m" "$dep"
    done < <(includes_of "$f" | sed -n -E 's/^"([^"]+)\.h"$/\1/p')
done

report_circles "include circle" $(printf '%s\n' "${module_of[@]}" | sort -u)

# 5. layers: the table of include/README.md, bottom-up. A row is
#   | layer | `sc_a.h`, `sc_b.h` | job |
# A module may include modules of its own layer or below.
declare -A layer_of
row=0
while IFS= read -r line; do
    case "$line" in
        "## 2."*) in_layers=1; continue ;;
        "## "*) [ "${in_layers:-0}" = 1 ] && break; continue ;;
    esac
    [ "${in_layers:-0}" = 1 ] || continue
    [[ "$line" == "|"*"sc_"*".h"* ]] || continue
    row=$((row + 1))
    cell="$(cut -d'|' -f3 <<<"$line")"
    for h in $(grep -oE 'sc_[a-z0-9_]+\.h' <<<"$cell"); do
        layer_of["${h%.h}"]=$row
    done
done < include/README.md
if [ "$row" -eq 0 ]; then
    problem "include/README.md has no layer table under \"## 2.\" (rows | layer | \`sc_x.h\`, ... | job |)"
else
    for h in "${headers[@]}"; do
        b="$(basename "$h" .h)"
        [ -n "${layer_of[$b]:-}" ] || problem "$h is not in the layer table of include/README.md"
    done
    report_layer_breaks "%s.h" include/README.md
fi

# Names defined or declared at file level: a line that starts in column 0
# with a declaration whose declarator is NAME( , or that starts with NAME(
# (the return type on the line before).
file_functions() {
    grep -nE '^([A-Za-z_][A-Za-z0-9_ *(),"-]*[ *])?[A-Za-z_][A-Za-z0-9_]*\(' "$1" \
        | grep -vE '^[0-9]+:(#|typedef|return|else|if|while|for|switch|do)\b' \
        | sed -nE 's/^([0-9]+):(.*[ *])?([A-Za-z_][A-Za-z0-9_]*)\(.*/\1 \3/p'
}

# 6. module prefixes
PREFIX_EXCEPTIONS=(
    "sc_common:sc_"            # the base layer's helpers
    "sc_lock:sc_mutex_ sc_seq_" # the two lock kinds sc_lock defines
)
for f in "${headers[@]}" "${sources[@]}"; do
    m="${module_of[$f]}"
    # the module's own prefix, and the names of the files of the module
    allowed=("${m}_")
    for g in "${headers[@]}" "${sources[@]}"; do
        if [ "${module_of[$g]}" = "$m" ]; then
            b="$(basename "$g")"; b="${b%.*}"
            [ "$b" = "$m" ] || allowed+=("${b}_")
        fi
    done
    for e in "${PREFIX_EXCEPTIONS[@]}"; do
        [ "${e%%:*}" = "$m" ] && read -r -a extra <<<"${e#*:}" && allowed+=("${extra[@]}")
    done
    while read -r lineno name; do
        case "$name" in __attribute__|_Static_assert|offsetof|sizeof|_Alignof|__typeof__) continue ;; esac
        [ "$name" = "$m" ] && continue   # the module's one main function (sc_alloc)
        [[ "$name" == sc_* ]] || { problem "$f:$lineno: $name has no sc_ prefix (core functions start with their module's prefix ${m}_)"; continue; }
        ok=0
        for a in "${allowed[@]}"; do
            [[ "$name" == "$a"* ]] && ok=1 && break
        done
        [ "$ok" = 1 ] || problem "$f:$lineno: $name is not in its module's prefix (${allowed[*]}): move it to its module or rename it"
    done < <(file_functions "$f")
done

# 7. the glue defines no sc_/SC_ name
glue=(shardcache.c php_shardcache.h php/*.c php/*.h)
for f in "${glue[@]}"; do
    [ -f "$f" ] || continue
    while read -r lineno name; do
        where="$f:$lineno"; [ "$lineno" = 0 ] && where="$f"
        [[ "$name" == sc_* || "$name" == SC_* ]] && problem "$where: the glue defines $name (sc_/SC_ belong to the core; the glue's prefix is php_sc_/PHP_SC_)"
    done < <(file_functions "$f"; \
             sed -nE 's/^[[:space:]]*#[[:space:]]*define[[:space:]]+([A-Za-z_][A-Za-z0-9_]*).*/\1/p; s/^[[:space:]]*}[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*;.*/\1/p; s/^typedef[^(]*[ *]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*;.*/\1/p; s/^(struct|union|enum)[[:space:]]+([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\{.*/\2/p; s/^(static[[:space:]]+)?(const[[:space:]]+)?[A-Za-z_][A-Za-z0-9_]*[[:space:]*]+([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*(=|;|\[).*/\3/p' "$f" | sed 's/^/0 /')
done

# 8. no function over 100 lines, core and glue alike. A function: a line
# in column 0 with NAME( that does not end in ";", then a line "{", up to
# the next line "}".
MAX_FUNCTION_LINES=100
code=("${headers[@]}" "${sources[@]}" "${glue[@]}")
for f in "${code[@]}"; do
    [ -f "$f" ] || continue
    while read -r lineno len name; do
        problem "$f:$lineno: $name is $len lines from { to }: a function has at most $MAX_FUNCTION_LINES (split it)"
    done < <(awk -v max="$MAX_FUNCTION_LINES" '
        /^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ { cand = $0; cl = FNR }
        /^\{/ { if (cand != "") { start = FNR; at = cl; name = cand; infn = 1 } }
        /^\}/ {
            if (infn && FNR - start + 1 > max) {
                s = name; sub(/\(.*/, "", s); n = split(s, w, /[ *]+/); nm = w[n]
                if (nm ~ /^[A-Z0-9_]+$/) { a = name; sub(/^[^(]*\(/, "", a); sub(/\).*/, "", a); nm = nm "(" a ")" }
                print at, FNR - start + 1, nm
            }
            infn = 0; cand = ""
        }' "$f")
done

# 9. no #define that hides a return (`return`, or PHP's RETURN_* macros).
for f in "${code[@]}"; do
    [ -f "$f" ] || continue
    while read -r lineno name; do
        problem "$f:$lineno: #define $name hides a return in its body: make it a function that answers, and return in the caller"
    done < <(awk '
        /^[[:space:]]*#[[:space:]]*define[[:space:]]/ {
            inm = 1; start = FNR; body = $0
            sub(/^[[:space:]]*#[[:space:]]*define[[:space:]]+/, "", body)
            name = body; sub(/[^A-Za-z0-9_].*/, "", name)
            body = substr(body, length(name) + 1)
        }
        !/^[[:space:]]*#[[:space:]]*define[[:space:]]/ && inm { body = $0 }
        inm {
            gsub(/\/\*([^*]|\*[^\/])*\*\//, " ", body); sub(/\/\/.*/, "", body)
            if (body ~ /(^|[^A-Za-z0-9_])(return|RETURN_[A-Z_]+)([^A-Za-z0-9_]|$)/) { print start, name; inm = 0 }
            else if ($0 !~ /\\[[:space:]]*$/) inm = 0
        }' "$f")
done

# 10. no core file over 1000 lines.
MAX_FILE_LINES=1000
for f in "${headers[@]}" "${sources[@]}"; do
    n="$(wc -l <"$f")"
    if [ "$n" -gt "$MAX_FILE_LINES" ]; then
        problem "$f has $n lines: a core file has at most $MAX_FILE_LINES (split it by job)"
    fi
done

if [ "$fail" -ne 0 ]; then
    echo "check-core: FAILED" >&2
    exit 1
fi
echo "check-core: ok (${#headers[@]} headers, ${#sources[@]} sources: no PHP header, the three headings, no include circle, layers, module prefixes; glue: no sc_ names; core and glue: no function over $MAX_FUNCTION_LINES lines, no #define that returns; no core file over $MAX_FILE_LINES lines)"
