#!/usr/bin/env bash
# Runs a real cache client against shardcache: Symfony Cache's ApcuAdapter,
# TagAwareAdapter and PSR-16 Psr16Cache (tests/symfony/tests/*Test.php), with
# PHPUnit, in PHP started with -n plus only the extensions PHPUnit needs.
#
#   tests/symfony/run.sh [--apcu] [extension.so] [-- phpunit args]
#
#   extension.so  the cache extension under test (default: $SO, else
#                 <repo>/modules/shardcache.so; build it first)
#   --apcu        run the same suite against the real APCu (apcu.so from
#                 PHP's extension_dir), to check the tests themselves
#
# Installs what it needs when missing (Debian; as root or with sudo -n):
# composer, php8.2-xml and php8.2-mbstring (PHPUnit needs dom, xml, xmlwriter
# and mbstring), then the Composer packages of tests/symfony/composer.json
# (composer.lock when present) into tests/symfony/vendor.
# Prints PHPUnit's output and, as the last line, "symfony: N passed, N failed,
# N skipped" (read by scripts/test.sh). Exits non-zero on any failure.
set -uo pipefail
# The work is done by tests/lib/client-suite.sh (shared with the other client suite).
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$HERE/../../tests/lib/client-suite.sh" symfony symfony/cache "$HERE" "${BASH_SOURCE[0]}" "$@"
