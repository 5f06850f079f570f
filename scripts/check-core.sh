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
#     header; any cycle in that graph fails, printed as A -> B -> ... -> A.
#
#   scripts/check-core.sh [ROOT]     (default: this checkout)
# Run by scripts/build.sh before compiling, and on its own in CI.
set -euo pipefail

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
            problem "$f includes the PHP header $inc (the core must not see PHP; that code belongs in the glue, shardcache_*.c)"
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
        case " ${deps[$m]:-} " in *" $dep "*) ;; *) deps["$m"]="${deps[$m]:-} $dep" ;; esac
    done < <(includes_of "$f" | sed -n -E 's/^"([^"]+)\.h"$/\1/p')
done

declare -A state   # unset: not seen, 1: on the current path, 2: done
path=()
cycles=0
visit() {
    local m="$1" d i
    state["$m"]=1
    path+=("$m")
    for d in ${deps[$m]:-}; do
        if [ "${state[$d]:-0}" = 1 ]; then
            local out="" on=0
            for i in "${path[@]}"; do
                [ "$i" = "$d" ] && on=1
                [ "$on" = 1 ] && out+="$i -> "
            done
            problem "include circle: ${out}$d"
            cycles=$((cycles + 1))
        elif [ "${state[$d]:-0}" = 0 ]; then
            visit "$d"
        fi
    done
    unset 'path[${#path[@]}-1]'
    state["$m"]=2
}
for m in $(printf '%s\n' "${module_of[@]}" | sort -u); do
    [ "${state[$m]:-0}" = 0 ] && visit "$m"
done

if [ "$fail" -ne 0 ]; then
    echo "check-core: FAILED" >&2
    exit 1
fi
echo "check-core: ok (${#headers[@]} headers, ${#sources[@]} sources: no PHP header, the three headings, no include circle)"
