#!/usr/bin/env bash
# Installs what Shardcache\NearCache's tests and benchmark need (Debian bookworm),
# beside scripts/setup.sh. Idempotent: does nothing when everything is there.
#
#   redis-server                 a real Redis 7.0 (the tests start private ones)
#   php8.2-redis                 phpredis, the Redis client NearCache uses
#   php-cache-integration-tests  the PSR-16 integration suite run against NearCache
#   php8.2-xml, php8.2-mbstring  PHPUnit's needs
#   composer                     psr/simple-cache, symfony/cache, PHPUnit from Packagist
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

want=(redis-server php8.2-redis php-cache-integration-tests php8.2-xml php8.2-mbstring composer)
missing=()
for pkg in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q '^install ok installed$'; then
        missing+=("$pkg")
    fi
done
if [ "${#missing[@]}" -eq 0 ]; then
    echo "setup-nearcache: all packages present (${want[*]})"
    exit 0
fi
echo "setup-nearcache: installing ${missing[*]}"
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup-nearcache: not root and no sudo; install as root: apt-get install -y ${missing[*]}" >&2; exit 1; }
    SUDO=(sudo -n env DEBIAN_FRONTEND=noninteractive)
fi
"${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=900 update -qq </dev/null
"${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=900 install -y -qq -o Dpkg::Use-Pty=0 "${missing[@]}" </dev/null >/dev/null
# The package starts a system redis-server on port 6379; the tests never use it.
echo "setup-nearcache: done"
