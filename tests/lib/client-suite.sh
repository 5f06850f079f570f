#!/usr/bin/env bash
# What tests/symfony/run.sh and tests/doctrine/run.sh share: runs the PHPUnit
# suite of one real cache client (its tests/*Test.php) against shardcache,
# in PHP started with -n plus only the extensions PHPUnit needs.
#
#   bash tests/lib/client-suite.sh NAME PACKAGE DIR HELP_FILE [--apcu] [extension.so] [-- phpunit args]
#
# NAME prefixes the closing "NAME: N passed, N failed, N skipped" line;
# PACKAGE is the Composer package named in the header line; DIR holds the
# suite's composer.json, phpunit.xml and tests; HELP_FILE is the wrapper
# whose header --help prints. Each wrapper documents its own options.
set -uo pipefail

NAME="$1" PACKAGE="$2" HERE="$(cd "$3" && pwd)" HELP_FILE="$4"
shift 4
ROOT="$(cd "$HERE/../.." && pwd)"
. "$ROOT/scripts/lib.sh"
sc_suite_args 1 "$HELP_FILE" "$@"
case "$EXT" in
    */*) [ -f "$EXT" ] || { echo "run.sh: extension not found: $EXT (build it first)"; echo "$NAME: 0 passed, 1 failed"; exit 1; } ;;
esac

fail() { echo "run.sh: $*" >&2; echo "$NAME: 0 passed, 1 failed"; exit 1; }

# ---- system packages -------------------------------------------------------
PHP="${PHP:-php}"
extdir="$("$PHP" -n -r 'echo PHP_EXTENSION_DIR;')" || fail "no php"
missing=()
command -v composer >/dev/null 2>&1 || missing+=(composer)
for so in dom xml xmlwriter; do [ -f "$extdir/$so.so" ] || { missing+=(php8.2-xml); break; }; done
[ -f "$extdir/mbstring.so" ] || missing+=(php8.2-mbstring)
if [ "${#missing[@]}" -gt 0 ]; then
    sc_apt_install run.sh "${missing[@]}" || fail "could not install ${missing[*]}"
fi

# ---- composer packages -----------------------------------------------------
cd "$HERE" || fail "cannot cd to $HERE"
export COMPOSER_ALLOW_SUPERUSER=1 COMPOSER_NO_INTERACTION=1
if [ ! -f vendor/autoload.php ] || [ composer.json -nt vendor/autoload.php ] \
        || { [ -f composer.lock ] && [ composer.lock -nt vendor/autoload.php ]; }; then
    if [ -f composer.lock ]; then
        composer install --no-interaction --no-progress --prefer-dist </dev/null || fail "composer install failed"
    else
        composer update --no-interaction --no-progress --prefer-dist </dev/null || fail "composer update failed"
    fi
    touch vendor/autoload.php
fi
[ -x vendor/bin/phpunit ] || fail "vendor/bin/phpunit missing after composer install"

# ---- run -------------------------------------------------------------------
PHP_ARGS=(-n
    -d "extension=$EXT" -d apc.enable_cli=1
    -d extension=xml.so -d extension=dom.so -d extension=xmlwriter.so -d extension=mbstring.so
    -d extension=tokenizer.so
    -d memory_limit=512M -d error_reporting=-1 -d display_errors=1)
"$PHP" "${PHP_ARGS[@]}" -r 'exit(function_exists("apcu_fetch") ? 0 : 1);' 2>/dev/null \
    || fail "cannot load $EXT with $PHP -n"

junit="$(mktemp "${TMPDIR:-/tmp}/$NAME-junit.XXXXXX")"
trap 'rm -f "$junit"' EXIT
echo "run.sh: $(command -v "$PHP") -n, extension=$EXT, $(composer show "$PACKAGE" 2>/dev/null | sed -n "s|^versions *: [*]* *|$PACKAGE |p")"
SC_CACHE_EXT="$EXPECT_EXT" "$PHP" "${PHP_ARGS[@]}" vendor/bin/phpunit -c phpunit.xml --log-junit "$junit" \
    ${PHPUNIT_ARGS[@]+"${PHPUNIT_ARGS[@]}"} </dev/null
rc=$?

sc_junit_counts "$NAME" "$junit" "$rc"
