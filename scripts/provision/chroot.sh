#!/usr/bin/env bash
# Debian's PHP of one version (8.4, 8.5, 8.6: NTS, CLI) for building and
# testing shardcache on it, in a minimal Debian chroot made with debootstrap
# from the Debian mirror. Each version has its own root (the php-common
# packages of 8.5 and 8.6 do not install side by side), cached outside the
# clone and made only when missing or when its package list below changes.
# A chroot rather than .debs unpacked beside the system: a newer PHP needs the
# newer libc, loader and libraries of its suite; inside a chroot all of them,
# gcc and phpize match without patching a single binary.
#
#   8.4  Debian trixie (stable): php8.4-cli, php8.4-dev, apcu, igbinary
#   8.5  a sid base plus experimental's php8.5 (8.5.7-1); php-common from sid
#        (experimental's Breaks php8.5-common)
#   8.6  a sid base plus experimental's php8.6 (8.6.0~rc3-1)
#   (8.5 and 8.6 have no apcu / igbinary packages: the tests that need them
#   are skipped there, each saying why.)
#
#   bash scripts/provision/chroot.sh VERSION        make the root if missing,
#                                                   print its path
#   bash scripts/provision/chroot.sh VERSION --root print the path only
#   bash scripts/provision/chroot.sh VERSION --run CMD
#                                   run CMD (bash -c) inside the root, in a
#                                   private mount namespace with /proc, /dev
#                                   and /dev/shm mounted (gone when CMD ends)
#
# sid's and experimental's Release files can be past their Valid-Until on a
# mirror snapshot: apt in the root runs with Acquire::Check-Valid-Until=false
# (an apt.conf.d file in the root; debootstrap does not check it).
#
# Environment: SHARDCACHE_CACHE_DIR (default /opt/shardcache: the cache of
# slow builds), SC_PHP84_ROOT (default $SHARDCACHE_CACHE_DIR/trixie-php84),
# SC_PHP85_ROOT (default $SHARDCACHE_CACHE_DIR/sid-php85), SC_PHP86_ROOT
# (default $SHARDCACHE_CACHE_DIR/sid-php86), SC_DEBIAN_MIRROR (default
# http://deb.debian.org/debian).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VER="${1:-}"
[ $# -gt 0 ] && shift
TOOLS="gcc,make,libc6-dev,autoconf,pkg-config,procps"
case "$VER" in
    8.4)
        ROOTFS="${SC_PHP84_ROOT:-$SC_CACHE_DIR/trixie-php84}"
        SUITE=trixie
        # Installed by debootstrap itself (trixie has them all).
        PKGS="php8.4-cli,php8.4-dev,php8.4-apcu,php8.4-igbinary,php8.4-opcache,$TOOLS"
        EXP_PKGS="" ;;
    8.5|8.6)
        v="${VER/./}"
        var="SC_PHP${v}_ROOT"
        ROOTFS="${!var:-$SC_CACHE_DIR/sid-php$v}"
        SUITE=sid
        PKGS="$TOOLS"
        # From experimental, named one by one (apt's pkg/suite): the rest of
        # their dependencies (php-common among them) come from sid. opcache
        # is built into PHP since 8.5.
        EXP_PKGS="php$VER-cli/experimental php$VER-dev/experimental php$VER-common/experimental php$VER-readline/experimental"
        # experimental's php-common (2:102~) Breaks php8.5-common, and apt's
        # solver does not fall back to sid's by itself: named.
        [ "$VER" = 8.5 ] && EXP_PKGS="$EXP_PKGS php-common/sid" ;;
    -h|--help|"") sc_help "$0"; exit 0 ;;
    *) echo "phpver: unknown PHP version $VER (8.4, 8.5 or 8.6)" >&2; exit 2 ;;
esac
# The key of a root: when it changes, the root is made again (its text is
# what the cached roots' stamps hold: reworded, it rebuilds them).
KEY="pkgs=$PKGS"
[ -n "$EXP_PKGS" ] && KEY="$KEY experimental=$EXP_PKGS"
# Added to an existing root with its own apt when missing (no rebuild).
EXTRA_PKGS="valgrind"
APT_OPTS="-o DPkg::Lock::Timeout=900 -o Acquire::Check-Valid-Until=false"

stamp_ok() { [ -x "$ROOTFS/usr/bin/php$VER" ] && [ -f "$ROOTFS/.shardcache-stamp" ] && grep -qxF "$KEY" "$ROOTFS/.shardcache-stamp"; }

case "${1:-}" in
    --root) echo "$ROOTFS"; exit 0 ;;
    --run)
        shift
        stamp_ok || bash "$0" "$VER" >/dev/null
        sc_chroot_run "$ROOTFS" "$*"
        exit $? ;;
    "") ;;
    *) echo "phpver: unknown option $1" >&2; exit 2 ;;
esac

extras_ok() {
    local p
    for p in $EXTRA_PKGS; do
        chroot "$ROOTFS" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || return 1
    done
}
add_extras() {
    extras_ok && return 0
    echo "phpver $VER: installing $EXTRA_PKGS in the root" >&2
    sc_chroot_run "$ROOTFS" "apt-get $APT_OPTS -qq update && apt-get $APT_OPTS -y -qq install $EXTRA_PKGS >/dev/null"
}

if stamp_ok; then add_extras; echo "$ROOTFS"; exit 0; fi

sc_lock "$ROOTFS"
if stamp_ok; then add_extras; echo "$ROOTFS"; exit 0; fi

export DEBIAN_FRONTEND=noninteractive
start=$(date +%s)
tmp="$ROOTFS.new"
sc_debootstrap "phpver $VER" "$ROOTFS" "$SUITE" "$SC_MIRROR" --include="$PKGS" || exit 1
if [ -n "$EXP_PKGS" ]; then
    echo 'Acquire::Check-Valid-Until "false";' >"$tmp/etc/apt/apt.conf.d/99shardcache-valid-until"
    cat >"$tmp/etc/apt/sources.list" <<EOF
deb $SC_MIRROR $SUITE main
deb $SC_MIRROR experimental main
EOF
    echo "phpver $VER: installing from experimental: $EXP_PKGS" >&2
    if ! sc_chroot_run "$tmp" "apt-get $APT_OPTS -qq update && apt-get $APT_OPTS -y -qq --no-install-recommends install $EXP_PKGS >/tmp/apt.log 2>&1 || { tail -n 40 /tmp/apt.log; exit 1; }" >&2; then
        exit 1
    fi
    sc_chroot_run "$tmp" "apt-get clean"
fi
# The distribution's ini files may load extensions; tests run php -n anyway.
sc_root_install "$tmp" "$ROOTFS" "$KEY" "$start"
add_extras
echo "phpver $VER: ready in $(( $(date +%s) - start ))s: $(chroot "$ROOTFS" "php$VER" -n -v | head -n 1)" >&2
echo "$ROOTFS"
