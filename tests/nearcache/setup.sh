#!/usr/bin/env bash
# Installs what Shardcache\NearCache's tests and benchmark need (Debian bookworm),
# beside scripts/setup.sh (run by tests/nearcache/run.sh and benchmarks/nearcache.sh). Idempotent: does nothing when everything is there.
#
#   redis-server                 a real Redis 7.0 (the tests start private ones)
#   php8.2-redis                 phpredis, the Redis client NearCache uses
#   php-cache-integration-tests  the PSR-16 integration suite run against NearCache
#   php8.2-xml, php8.2-mbstring  PHPUnit's needs
#   composer                     psr/simple-cache, symfony/cache, PHPUnit from Packagist
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

want=(redis-server php8.2-redis php-cache-integration-tests php8.2-xml php8.2-mbstring composer)
mapfile -t missing < <(sc_missing_pkgs "${want[@]}")
if [ "${#missing[@]}" -eq 0 ]; then
    echo "setup-nearcache: all packages present (${want[*]})"
    exit 0
fi
sc_apt_install setup-nearcache "${missing[@]}"
echo "setup-nearcache: done"
