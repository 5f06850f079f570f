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
# For the other platforms of scripts/test.sh (phase 6):
#   debootstrap  the PHP 8.4 / 8.5 / 8.6 chroots (scripts/provision/chroot.sh)
#   dpkg-dev, libpcre2-dev  PHP 8.2 ZTS from Debian's source package
#                (scripts/provision/php-zts.sh, with apt lists of its own)
#   apache2, libapache2-mod-php8.2, wrk  the Apache prefork test; installed
#                with a temporary policy-rc.d so that no system Apache starts
# Nothing here starts a service.
#
#   bash scripts/setup.sh           everything above (scripts/test.sh)
#   bash scripts/setup.sh --bench   only what building and the speed
#                                   benchmark need (scripts/bench.sh): PHP,
#                                   its headers, APCu, the compiler, and
#                                   dpkg-dev and xz-utils for building
#                                   APCu from Debian's source
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

export DEBIAN_FRONTEND=noninteractive

bench=0
case "${1:-}" in
    --bench) bench=1 ;;
    "") ;;
    *) echo "setup: unknown option $1 (--bench, or nothing)" >&2; exit 2 ;;
esac
if [ "$bench" -eq 1 ]; then
    want=(php8.2-cli php8.2-dev php8.2-apcu dpkg-dev xz-utils)
else
    want=(php8.2-cli php8.2-dev php8.2-apcu php8.2-igbinary
          debootstrap dpkg-dev libpcre2-dev xz-utils apache2 libapache2-mod-php8.2 wrk)
    command -v valgrind >/dev/null 2>&1 || want+=(valgrind)
fi
command -v make >/dev/null 2>&1 || want+=(make)
command -v cc >/dev/null 2>&1 || want+=(gcc)

mapfile -t missing < <(sc_missing_pkgs "${want[@]}")

if [ "${#missing[@]}" -eq 0 ]; then
    echo "setup: all packages present (${want[*]})"
    exit 0
fi

# apt-get update, then the missing packages with no service started
# (apache2 would take port 80).
sc_apt_install setup ${missing[@]+"${missing[@]}"} || exit 1

for tool in phpize php-config; do
    command -v "$tool" >/dev/null 2>&1 || { echo "setup: $tool still missing after install" >&2; exit 1; }
done
echo "setup: done"
