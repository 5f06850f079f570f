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
#   debootstrap  the PHP 8.4 / 8.5 / 8.6 chroots (tests/phpver/chroot.sh)
#   dpkg-dev, libpcre2-dev  PHP 8.2 ZTS from Debian's source package
#                (tests/zts/build-php.sh; this adds a deb-src entry for php8.2)
#   apache2, libapache2-mod-php8.2, wrk  the Apache prefork test; installed
#                with a temporary policy-rc.d so that no system Apache starts
# Nothing here starts a service.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

export DEBIAN_FRONTEND=noninteractive

want=(php8.2-cli php8.2-dev php8.2-apcu php8.2-igbinary
      debootstrap dpkg-dev libpcre2-dev xz-utils apache2 libapache2-mod-php8.2 wrk)
command -v valgrind >/dev/null 2>&1 || want+=(valgrind)
command -v make >/dev/null 2>&1 || want+=(make)
command -v cc >/dev/null 2>&1 || want+=(gcc)

mapfile -t missing < <(sc_missing_pkgs "${want[@]}")

SRCLIST=/etc/apt/sources.list.d/shardcache-deb-src.sources
need_src=0
[ -f "$SRCLIST" ] || need_src=1

if [ "${#missing[@]}" -eq 0 ] && [ "$need_src" -eq 0 ]; then
    echo "setup: all packages present (${want[*]})"
    exit 0
fi

if [ "$need_src" -eq 1 ]; then
    echo "setup: adding the php8.2 deb-src entry ($SRCLIST)"
    SUDO=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "setup: not root and no sudo: cannot write $SRCLIST" >&2; exit 1; }
        SUDO=(sudo -n)
    fi
    # Source packages only (PHP's source for the ZTS build); same mirror.
    printf '%s\n' \
        '# Added by shardcache scripts/setup.sh: Debian source packages (PHP'"'"'s' \
        '# source for the ZTS build). Binary packages are not affected.' \
        'Types: deb-src' 'URIs: http://deb.debian.org/debian-security' 'Suites: bookworm-security' \
        'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' '' \
        'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' \
        'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
        | "${SUDO[@]}" tee "$SRCLIST" >/dev/null
fi
# apt-get update (for the new deb-src entry too), then the missing packages
# with no service started (apache2 would take port 80).
sc_apt_install setup ${missing[@]+"${missing[@]}"} || exit 1

for tool in phpize php-config; do
    command -v "$tool" >/dev/null 2>&1 || { echo "setup: $tool still missing after install" >&2; exit 1; }
done
echo "setup: done"
