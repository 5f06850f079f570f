#!/usr/bin/env bash
# Puts Debian's build of yac (php8.2-yac, bookworm: 2.3.1) in a private
# directory and prints the path of its yac.so, for the third column of the
# side-by-side benchmark (benchmarks/compare.php --yac=...).
#
# yac is NOT installed system-wide: a package install would drop an ini file
# into conf.d and load yac into every PHP of the test suite. The .deb is
# downloaded with `apt-get download` and unpacked with `dpkg -x` into
#   ${SHARDCACHE_YAC_DIR:-${SHARDCACHE_CACHE_DIR:-/opt/shardcache}/yac}
# Idempotent: when yac.so is already there, only its path is printed.
#
#   bash scripts/provision/yac.sh      fetch if missing, print yac.so's path
#
# Exit status: 0 = path printed; 1 = the package could not be had.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
case "${1:-}" in
    -h|--help) sc_help "$0"; exit 0 ;;
    "") ;;
    *) echo "fetch-yac: unknown option $1" >&2; exit 2 ;;
esac

dest="${SHARDCACHE_YAC_DIR:-$SC_CACHE_DIR/yac}"
pkg="php8.2-yac"

find_so() { find "$dest" -name yac.so -path '*/php/*' 2>/dev/null | head -n 1 || true; }

so="$(find_so)"
if [ -n "$so" ]; then
    echo "$so"
    exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"          # apt-get download runs as _apt where it can
if ! (cd "$tmp" && apt-get download "$pkg" >/dev/null 2>&1); then
    # a fresh machine may have no package lists yet
    apt-get -o DPkg::Lock::Timeout=900 update >/dev/null 2>&1 || true
    (cd "$tmp" && apt-get download "$pkg" >/dev/null 2>&1) || {
        echo "fetch-yac: apt-get download $pkg failed" >&2
        exit 1
    }
fi
mkdir -p "$dest"
dpkg -x "$tmp"/"$pkg"_*.deb "$dest"
so="$(find_so)"
if [ -z "$so" ]; then
    echo "fetch-yac: no yac.so in $pkg" >&2
    exit 1
fi
echo "$so"
