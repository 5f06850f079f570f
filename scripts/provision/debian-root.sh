#!/usr/bin/env bash
# A minimal Debian bookworm root for installing shardcache's Debian package
# the way an administrator would (tests/debian/run.sh): bookworm with its
# updates and security suites from the Debian mirror, php8.2-cli,
# php8.2-fpm and nginx-light installed, and php8.2-apcu downloaded into apt's
# archive cache (not installed), so that the test can install APCu beside
# shardcache with no network. No service is started in it (a policy-rc.d
# that answers 101 stays in the root).
#
# The root is made once with debootstrap and cached outside the clone; the
# test never changes it: it works on an overlay mounted over it in a private
# mount namespace. It is made again when its key (the package lists below)
# changes.
#
#   bash scripts/provision/debian-root.sh         make the root if missing,
#                                                 print its path
#   bash scripts/provision/debian-root.sh --root  print the path only
#
# Environment: SHARDCACHE_CACHE_DIR (default /opt/shardcache: the cache of
# slow builds), SC_BOOKWORM_DEB_ROOT (default
# $SHARDCACHE_CACHE_DIR/bookworm-deb),
# SC_DEBIAN_MIRROR (default http://deb.debian.org/debian),
# SC_DEBIAN_SECURITY_MIRROR (default http://deb.debian.org/debian-security).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ROOTFS="${SC_BOOKWORM_DEB_ROOT:-$SC_CACHE_DIR/bookworm-deb}"
# Installed by apt in the root (after the security suite is added, so that
# its PHP is the one the build machine's php8.2-dev comes from).
PKGS="php8.2-cli php8.2-fpm nginx-light"
# Downloaded only.
DOWNLOAD="php8.2-apcu"
KEY="bookworm+updates+security install=$PKGS download=$DOWNLOAD"
APT_OPTS="-o DPkg::Lock::Timeout=900 -o Dpkg::Use-Pty=0"

case "${1:-}" in
    --root) echo "$ROOTFS"; exit 0 ;;
    -h|--help) sc_help "$0"; exit 0 ;;
    "") ;;
    *) echo "debian-root: unknown option $1" >&2; exit 2 ;;
esac

stamp_ok() { [ -f "$ROOTFS/.shardcache-stamp" ] && grep -qxF "$KEY" "$ROOTFS/.shardcache-stamp"; }

if stamp_ok; then echo "$ROOTFS"; exit 0; fi
sc_lock "$ROOTFS"
if stamp_ok; then echo "$ROOTFS"; exit 0; fi

export DEBIAN_FRONTEND=noninteractive
start=$(date +%s)
tmp="$ROOTFS.new"
sc_debootstrap debian-root "$ROOTFS" bookworm "$SC_MIRROR" || exit 1
cat >"$tmp/etc/apt/sources.list" <<EOF
deb $SC_MIRROR bookworm main
deb $SC_MIRROR bookworm-updates main
deb $SC_SECURITY_MIRROR bookworm-security main
EOF
printf '#!/bin/sh\n# shardcache scripts/provision/debian-root.sh: no service starts in this root\nexit 101\n' \
    >"$tmp/usr/sbin/policy-rc.d"
chmod 755 "$tmp/usr/sbin/policy-rc.d"
echo "debian-root: installing $PKGS, downloading $DOWNLOAD" >&2
if ! sc_chroot_run "$tmp" "apt-get $APT_OPTS -qq update && apt-get $APT_OPTS -y -qq upgrade >/tmp/apt.log 2>&1 \
        && apt-get $APT_OPTS -y -qq --no-install-recommends install $PKGS >>/tmp/apt.log 2>&1 \
        && apt-get $APT_OPTS -y -qq --no-install-recommends install --download-only $DOWNLOAD >>/tmp/apt.log 2>&1 \
        || { tail -n 40 /tmp/apt.log; exit 1; }" >&2; then
    exit 1
fi
rm -f "$tmp/tmp/apt.log"
# apt's archive cache keeps only the downloaded packages.
find "$tmp/var/cache/apt/archives" -maxdepth 1 -name '*.deb' | while read -r deb; do
    keep=0
    for p in $DOWNLOAD; do case "${deb##*/}" in "${p}_"*) keep=1 ;; esac; done
    [ "$keep" -eq 1 ] || rm -f "$deb"
done
sc_root_install "$tmp" "$ROOTFS" "$KEY" "$start"
echo "debian-root: ready in $(( $(date +%s) - start ))s: $(chroot "$ROOTFS" php8.2 -n -v | head -n 1)" >&2
echo "$ROOTFS"
