#!/usr/bin/env bash
# Install what building and testing shardcache needs (Debian bookworm).
# Idempotent: does nothing (not even apt-get update) when everything is there.
#
#   php8.2-cli   PHP itself (normally preinstalled)
#   php8.2-dev   phpize, php-config, headers, run-tests.php
#   php8.2-apcu  real APCu, for the side-by-side benchmark and reference runs
#   php8.2-igbinary  a third-party apc.serializer (tests 081-083)
#   valgrind     memory checking phase of scripts/test.sh
#   make, gcc    compiler toolchain (normally preinstalled)
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive

want=(php8.2-cli php8.2-dev php8.2-apcu php8.2-igbinary)
command -v valgrind >/dev/null 2>&1 || want+=(valgrind)
command -v make >/dev/null 2>&1 || want+=(make)
command -v cc >/dev/null 2>&1 || want+=(gcc)

missing=()
for pkg in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q '^install ok installed$'; then
        missing+=("$pkg")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    echo "setup: all packages present (${want[*]})"
    exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo -n env DEBIAN_FRONTEND=noninteractive)
    else
        echo "setup: not root and no sudo; install as root: apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi

"${SUDO[@]}" apt-get update -qq </dev/null
"${SUDO[@]}" apt-get install -y -qq -o Dpkg::Use-Pty=0 "${missing[@]}" </dev/null >/dev/null

for tool in phpize php-config; do
    command -v "$tool" >/dev/null 2>&1 || { echo "setup: $tool still missing after install" >&2; exit 1; }
done
echo "setup: done"
