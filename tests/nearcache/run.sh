#!/usr/bin/env bash
# Runs the Shardcache\NearCache suite (tests/nearcache/tests) with PHPUnit:
# the PSR-16 integration suite (Debian's php-cache-integration-tests) against
# NearCache, and the coherence, race and failure tests between two simulated
# hosts (host.php: two processes, each with its own shardcache segment and its
# own sync process) and a private redis-server on a free port of 127.0.0.1.
#
#   tests/nearcache/run.sh [extension.so] [-- phpunit args]
#
#   extension.so  shardcache under test (default: $SO, else <repo>/modules/shardcache.so)
#
# Installs what it needs when missing (Debian; as root or with sudo -n):
# redis-server, php8.2-redis (phpredis), php-cache-integration-tests, composer,
# php8.2-xml, php8.2-mbstring; then tests/nearcache/composer.json's packages
# (the library itself from ../../nearcache as a path repository).
# Prints PHPUnit's output and, last, "nearcache: N passed, N failed, N skipped"
# (read by scripts/test.sh). Exits non-zero on any failure.
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
. "$ROOT/scripts/lib.sh"
sc_suite_args 0 "$0" "$@"
fail() { echo "run.sh: $*" >&2; echo "nearcache: 0 passed, 1 failed"; exit 1; }
[ -f "$EXT" ] || fail "extension not found: $EXT (build it first)"

bash "$ROOT/tests/nearcache/setup.sh" || fail "tests/nearcache/setup.sh failed"

cd "$HERE" || fail "cannot cd to $HERE"
export COMPOSER_ALLOW_SUPERUSER=1 COMPOSER_NO_INTERACTION=1
if [ ! -f vendor/autoload.php ] || [ composer.json -nt vendor/autoload.php ] \
        || [ ../../nearcache/composer.json -nt vendor/autoload.php ]; then
    composer update --no-interaction --no-progress --prefer-dist </dev/null || fail "composer update failed"
    touch vendor/autoload.php
fi
[ -x vendor/bin/phpunit ] || fail "vendor/bin/phpunit missing after composer update"
# The library's own package metadata must stay valid.
composer validate --strict --no-check-publish ../../nearcache/composer.json >/dev/null </dev/null \
    || fail "nearcache/composer.json: composer validate --strict failed"

PHP="${PHP:-php}"
# posix is a shared module on Debian; pcntl is built in. phpredis needs igbinary.
PHP_ARGS=(-n
    -d "extension=$EXT" -d apc.enable_cli=1 -d apc.shm_size=64M
    -d extension=igbinary.so -d extension=redis.so -d extension=posix.so
    -d extension=xml.so -d extension=dom.so -d extension=xmlwriter.so -d extension=mbstring.so
    -d extension=tokenizer.so
    -d memory_limit=512M -d error_reporting=-1 -d display_errors=1)
"$PHP" "${PHP_ARGS[@]}" -r 'exit(function_exists("shardcache_fetch") && class_exists("Redis") && function_exists("posix_kill") ? 0 : 1);' 2>/dev/null \
    || fail "cannot load $EXT, redis and posix with $PHP -n"
NEARCACHE_PHP_ARGS="$("$PHP" -n -r 'echo json_encode(array_slice($argv, 1));' -- "${PHP_ARGS[@]}")"
export NEARCACHE_PHP_ARGS

junit="$(mktemp "${TMPDIR:-/tmp}/nearcache-junit.XXXXXX")"
trap 'rm -f "$junit"' EXIT
echo "run.sh: $(command -v "$PHP") -n, extension=$EXT, $(redis-server --version | cut -d' ' -f1-3), phpredis $("$PHP" "${PHP_ARGS[@]}" -r 'echo phpversion("redis");')"
"$PHP" "${PHP_ARGS[@]}" vendor/bin/phpunit -c phpunit.xml --log-junit "$junit" \
    ${PHPUNIT_ARGS[@]+"${PHPUNIT_ARGS[@]}"} </dev/null
rc=$?

sc_junit_counts "nearcache" "$junit" "$rc"
