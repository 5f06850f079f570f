#!/usr/bin/env bash
# Regenerate php/*_arginfo.h from php/*.stub.php with PHP's own
# build/gen_stub.php. The generated header is committed, so a normal build
# never needs this script.
#
# gen_stub.php wants nikic/PHP-Parser 4.15.1 in __DIR__/PHP-Parser-4.15.1 and
# would download it from GitHub; here it is installed from Packagist with
# composer into a temporary directory next to a copy of gen_stub.php.
#
# Usage: bash scripts/gen-arginfo.sh [path/to/name.stub.php ...]
#        (default: every php/*.stub.php; each header is
#         written next to its stub as name_arginfo.h)
# Environment: GEN_STUB=/path/to/gen_stub.php to override the lookup.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PARSER_VERSION=4.15.1

stubs=()
if [ "$#" -eq 0 ]; then
    shopt -s nullglob
    stubs=("$ROOT"/php/*.stub.php)
    shopt -u nullglob
    if [ "${#stubs[@]}" -eq 0 ]; then
        echo "gen-arginfo: no php/*.stub.php in $ROOT" >&2
        exit 1
    fi
else
    for stub in "$@"; do
        if [ ! -f "$stub" ]; then
            echo "gen-arginfo: stub not found: $stub" >&2
            exit 1
        fi
        stubs+=("$(cd "$(dirname "$stub")" && pwd)/$(basename "$stub")")
    done
fi

find_gen_stub() {
    local c candidates=()
    [ -n "${GEN_STUB:-}" ] && candidates+=("$GEN_STUB")
    if command -v php-config >/dev/null 2>&1; then
        candidates+=("$(php-config --extension-dir)/build/gen_stub.php")
        candidates+=("$(php-config --prefix)/lib/php/build/gen_stub.php")
    fi
    candidates+=(/usr/lib/php/20220829/build/gen_stub.php)
    for c in "${candidates[@]}"; do
        if [ -f "$c" ]; then printf '%s\n' "$c"; return 0; fi
    done
    return 1
}

if ! gen_stub="$(find_gen_stub)"; then
    echo "gen-arginfo: gen_stub.php not found (install php8.2-dev: bash scripts/setup.sh)" >&2
    exit 1
fi
command -v composer >/dev/null 2>&1 || { echo "gen-arginfo: composer not found" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/shardcache-genstub.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "gen-arginfo: installing nikic/php-parser:$PARSER_VERSION with composer"
(
    cd "$work"
    export COMPOSER_ALLOW_SUPERUSER=1 COMPOSER_NO_INTERACTION=1
    composer require --quiet --no-interaction --no-progress --no-plugins --no-scripts \
        "nikic/php-parser:$PARSER_VERSION" </dev/null
)
if [ ! -f "$work/vendor/nikic/php-parser/lib/PhpParser/Parser.php" ]; then
    echo "gen-arginfo: composer did not install nikic/php-parser" >&2
    exit 1
fi

# gen_stub.php loads PhpParser\X from __DIR__/PHP-Parser-<version>/lib/PhpParser/X.php
cp "$gen_stub" "$work/gen_stub.php"
ln -s "$work/vendor/nikic/php-parser" "$work/PHP-Parser-$PARSER_VERSION"

# gen_stub needs the tokenizer extension; load it explicitly if the default
# ini does not.
php_cmd=(php)
if ! php -r 'exit(extension_loaded("tokenizer") ? 0 : 1);' 2>/dev/null; then
    php_cmd=(php -d extension=tokenizer)
fi

for stub in "${stubs[@]}"; do
    header="${stub%.stub.php}_arginfo.h"
    echo "gen-arginfo: $(basename "$gen_stub") -f $stub"
    "${php_cmd[@]}" "$work/gen_stub.php" -f "$stub" </dev/null
    if [ ! -f "$header" ]; then
        echo "gen-arginfo: $header was not generated" >&2
        exit 1
    fi
    echo "gen-arginfo: wrote $header"
done
