#!/usr/bin/env bash
# PHP 8.4 (Debian trixie's packages) for building and testing shardcache on
# 8.4, in a minimal trixie chroot made with debootstrap from the same Debian
# mirror. The chroot is cached outside the clone and made only when missing
# (or when the package list below changes). A chroot rather than .debs unpacked
# beside the system: trixie's php8.4 needs trixie's libc, loader and a dozen
# libraries; inside a chroot all of them, gcc and phpize match without patching
# a single binary.
#
#   bash tests/php84/chroot.sh            make the chroot if missing, print its path
#   bash tests/php84/chroot.sh --root     print the path only
#   bash tests/php84/chroot.sh --run CMD  run CMD (bash -c) inside the chroot, in a
#                                    private mount namespace with /proc, /dev
#                                    and /dev/shm mounted (gone when CMD ends)
#
# Environment: SC_PHP84_ROOT (default /opt/shardcache/trixie-php84),
# SC_DEBIAN_MIRROR (default http://deb.debian.org/debian).
set -euo pipefail

ROOTFS="${SC_PHP84_ROOT:-/opt/shardcache/trixie-php84}"
MIRROR="${SC_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
PKGS="php8.4-cli,php8.4-dev,php8.4-apcu,php8.4-igbinary,php8.4-opcache,gcc,make,libc6-dev,autoconf,pkg-config,procps"
KEY="pkgs=$PKGS"
# Added to an existing chroot with its own apt when missing (no rebuild).
EXTRA_PKGS="valgrind"

stamp_ok() { [ -x "$ROOTFS/usr/bin/php8.4" ] && [ -f "$ROOTFS/.shardcache-stamp" ] && grep -qxF "$KEY" "$ROOTFS/.shardcache-stamp"; }

run_in() {
    # unshare -m: the mounts exist only in this private namespace, so nothing
    # is left mounted if the command is killed. -f: the chroot'ed shell is a
    # child that sees the new namespace.
    unshare -m -f --propagation private bash -c '
        set -e
        r="$1"; shift
        mount -t proc proc "$r/proc"
        mount --rbind /dev "$r/dev"
        mkdir -p "$r/dev/shm" && mount -t tmpfs -o mode=1777 tmpfs "$r/dev/shm"
        exec chroot "$r" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            HOME=/root LANG=C.UTF-8 TERM=dumb NO_INTERACTION=1 CI="${CI:-}" \
            /bin/bash -c "$1"
    ' run "$ROOTFS" "$@"
}

case "${1:-}" in
    --root) echo "$ROOTFS"; exit 0 ;;
    --run)
        shift
        stamp_ok || bash "$0" >/dev/null
        run_in "$*"
        exit $? ;;
    "") ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "php84: unknown option $1" >&2; exit 2 ;;
esac

extras_ok() {
    local p
    for p in $EXTRA_PKGS; do
        chroot "$ROOTFS" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || return 1
    done
}
add_extras() {
    extras_ok && return 0
    echo "php84: installing $EXTRA_PKGS in the chroot" >&2
    run_in "apt-get -o DPkg::Lock::Timeout=900 -qq update && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 -y -qq install $EXTRA_PKGS >/dev/null"
}

if stamp_ok; then add_extras; echo "$ROOTFS"; exit 0; fi

mkdir -p "$(dirname "$ROOTFS")"
exec 9>"$(dirname "$ROOTFS")/.php84.lock"
flock 9
if stamp_ok; then add_extras; echo "$ROOTFS"; exit 0; fi

export DEBIAN_FRONTEND=noninteractive
if ! command -v debootstrap >/dev/null 2>&1; then
    apt-get -o DPkg::Lock::Timeout=900 -y -qq update </dev/null
    apt-get -o DPkg::Lock::Timeout=900 -y -qq install debootstrap </dev/null >/dev/null
fi

start=$(date +%s)
tmp="$ROOTFS.new"
rm -rf "$tmp"
echo "php84: debootstrap trixie into $ROOTFS (a few minutes)" >&2
if ! debootstrap --variant=minbase --include="$PKGS" trixie "$tmp" "$MIRROR" >"$tmp.log" 2>&1; then
    tail -n 30 "$tmp.log" >&2
    [ -f "$tmp/debootstrap/debootstrap.log" ] && tail -n 30 "$tmp/debootstrap/debootstrap.log" >&2
    exit 1
fi
rm -f "$tmp.log"
# The distribution's ini files load apcu/igbinary; tests run php -n anyway.
echo "$KEY" >"$tmp/.shardcache-stamp"
echo "setup_seconds=$(( $(date +%s) - start ))" >>"$tmp/.shardcache-stamp"
rm -rf "$ROOTFS"
mv "$tmp" "$ROOTFS"
add_extras
echo "php84: ready in $(( $(date +%s) - start ))s: $(chroot "$ROOTFS" php8.4 -n -v | head -n 1)" >&2
echo "$ROOTFS"
