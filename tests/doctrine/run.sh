#!/usr/bin/env bash
# Runs a second real cache client against shardcache: Doctrine Cache 1.x's
# ApcuCache (its CacheProvider: namespaces, deleteAll, multi-key operations,
# stats) and the PSR-6 CacheAdapter over it (tests/doctrine/tests/*Test.php),
# with PHPUnit, in PHP started with -n plus only the extensions PHPUnit needs.
#
#   tests/doctrine/run.sh [--apcu] [extension.so] [-- phpunit args]
#
#   extension.so  the cache extension under test (default: $SO, else
#                 <repo>/modules/shardcache.so; build it first)
#   --apcu        run the same suite against the real APCu (apcu.so from
#                 PHP's extension_dir), to check the tests themselves
#
# Installs what it needs when missing (Debian; as root or with sudo -n):
# composer, php8.2-xml and php8.2-mbstring (PHPUnit needs dom, xml, xmlwriter
# and mbstring), then the Composer packages of tests/doctrine/composer.json
# (composer.lock when present) into tests/doctrine/vendor.
# Prints PHPUnit's output and, as the last line, "doctrine: N passed, N failed,
# N skipped" (read by scripts/test.sh). Exits non-zero on any failure.
set -uo pipefail
# The work is done by tests/lib/client-suite.sh (shared with the other client suite).
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$HERE/../../tests/lib/client-suite.sh" doctrine doctrine/cache "$HERE" "${BASH_SOURCE[0]}" "$@"
