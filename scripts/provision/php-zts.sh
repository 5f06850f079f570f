#!/usr/bin/env bash
# Build (once) a thread-safe PHP with the embed SAPI, for the ZTS phpt run
# and the thread driver (tests/zts/). Two versions:
#   8.2  the newest php8.2 source package that Debian bookworm, its updates
#        or its security suite serves (the default)
#   8.6  the newest php8.6 source package that Debian sid or experimental
#        serves
# The versions are asked of the mirror at each build, through apt lists of
# this script's own (nothing is added to the system's sources; sid's and
# experimental's Release may be past Valid-Until, which is not checked for
# this download): newest first, the next one when a download fails. Each is
# built from its upstream tarball (Debian's packaging patches are not
# applied: they tune Debian's own build, not the engine). The build is cached
# outside the clone and redone only when missing or when this script's
# configure line changes.
#
#   bash scripts/provision/php-zts.sh [8.2|8.6]             build if missing,
#                                                  print the prefix
#   bash scripts/provision/php-zts.sh [8.2|8.6] --prefix    print the prefix
#                                                  only (no build)
#   bash scripts/provision/php-zts.sh [8.2|8.6] --versions  print the versions
#                                                  the mirror serves
#
# Exit status 3: the mirror serves no such source package, or none of its
# versions downloaded (nothing built; the caller reports why).
#
# Environment: SHARDCACHE_CACHE_DIR (default /opt/shardcache: the cache of
# slow builds), SC_PHP_ZTS_PREFIX (8.2, default $SHARDCACHE_CACHE_DIR/php-8.2-zts),
# SC_PHP86_ZTS_PREFIX (8.6, default $SHARDCACHE_CACHE_DIR/php-8.6-zts),
# SC_PHP_ZTS_VERSIONS (Debian versions to try instead of asking the mirror),
# SC_DEBIAN_MIRROR (default http://deb.debian.org/debian),
# SC_DEBIAN_SECURITY_MIRROR (default http://deb.debian.org/debian-security).
# Result: $PREFIX/bin/php (ZTS CLI), $PREFIX/bin/phpize, $PREFIX/bin/php-config,
# $PREFIX/lib/libphp.so (embed), $PREFIX/.stamp (what was built, build seconds).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VER=8.2
case "${1:-}" in 8.2|8.6) VER="$1"; shift ;; esac
case "${1:-}" in -h|--help) sc_help "$0"; exit 0 ;; esac
# Minimal on purpose (build time on 2 shared cores): what the phpt suite and
# the driver use. json, pcre (the system's libpcre2), random, reflection,
# spl, standard are always built; no opcache (no test needs it, and its JIT
# is the slowest file to compile). -O1 -g1: the engine compiles about twice
# as fast as at -O2 and keeps function names and lines for valgrind; the
# extension itself is still built at -O2 by scripts/build.sh.
CONFIGURE=(--disable-all --enable-zts --enable-embed=shared --enable-cli
           --disable-cgi --disable-phpdbg --disable-opcache --enable-pcntl
           --enable-posix --with-external-pcre --without-pear)
if [ "$VER" = 8.6 ]; then
    PREFIX="${SC_PHP86_ZTS_PREFIX:-$SC_CACHE_DIR/php-8.6-zts}"
    SOURCES=("deb-src [check-valid-until=no] $SC_MIRROR sid main"
             "deb-src [check-valid-until=no] $SC_MIRROR experimental main")
    # Since 8.5 opcache is part of PHP and cannot be left out; its JIT can
    # (the slowest part to compile, and no test needs it). ext/uri (8.5+)
    # is always built, with its bundled libraries.
    CONFIGURE=(--disable-all --enable-zts --enable-embed=shared --enable-cli
               --disable-cgi --disable-phpdbg --disable-opcache-jit --enable-pcntl
               --enable-posix --with-external-pcre --without-pear)
else
    PREFIX="${SC_PHP_ZTS_PREFIX:-$SC_CACHE_DIR/php-8.2-zts}"
    SOURCES=("deb-src $SC_MIRROR bookworm main"
             "deb-src $SC_MIRROR bookworm-updates main"
             "deb-src $SC_SECURITY_MIRROR bookworm-security main")
fi
CFLAGS_ZTS="-O1 -g1"
KEY="configure=${CONFIGURE[*]} cflags=$CFLAGS_ZTS"

if [ "${1:-}" = "--prefix" ]; then echo "$PREFIX"; exit 0; fi
LIST_ONLY=0
[ "${1:-}" = "--versions" ] && LIST_ONLY=1

stamp_ok() {
    [ -x "$PREFIX/bin/php" ] && [ -x "$PREFIX/bin/phpize" ] && [ -f "$PREFIX/lib/libphp.so" ] \
        && [ -f "$PREFIX/.stamp" ] && grep -qxF "$KEY" "$PREFIX/.stamp"
}
if [ "$LIST_ONLY" -eq 0 ] && stamp_ok; then echo "$PREFIX"; exit 0; fi

# mirror_versions: the versions of php$VER's source package that the
# mirror's fresh Sources indexes list, newest first (dpkg's order), one a line
# (none, and success, when apt-cache knows no such package).
mirror_versions() {
    apt-cache "${SC_APT_OPTS[@]}" showsrc "php$VER" 2>/dev/null | sed -n 's/^Version: //p' | sort -u | sc_debian_sort \
        || true
}

# setup_lists DIR: apt options (SC_APT_OPTS) with the sources above and lists
# of their own under DIR, freshly updated: what the mirror serves now.
setup_lists() {
    sc_apt_lists "$1" "$1/update.log" "${SOURCES[@]}" \
        || { echo "php-zts: apt-get update of the source lists failed:" >&2; tail -n 5 "$1/update.log" >&2; return 1; }
}

if [ "$LIST_ONLY" -eq 1 ]; then
    work="$(mktemp -d /var/tmp/shardcache-php-zts.XXXXXX)"
    trap 'rm -rf "$work"' EXIT
    chmod 755 "$work"
    setup_lists "$work" || exit 3
    mirror_versions
    exit 0
fi

sc_lock "$PREFIX"
if stamp_ok; then echo "$PREFIX"; exit 0; fi

export DEBIAN_FRONTEND=noninteractive
# Build tools, and libpcre2-dev (the only library --disable-all needs).
mapfile -t need < <(sc_missing_pkgs dpkg-dev gcc make pkg-config xz-utils libpcre2-dev)
if [ "${#need[@]}" -gt 0 ]; then
    sc_apt_install php-zts "${need[@]}" >&2 || exit 1
fi

work="$(mktemp -d /var/tmp/shardcache-php-zts.XXXXXX)"
trap 'rm -rf "$work"' EXIT
# apt downloads as _apt where it can; let it write here.
chmod 755 "$work"
setup_lists "$work" || exit 3
if [ -n "${SC_PHP_ZTS_VERSIONS:-}" ]; then
    VERSIONS="$SC_PHP_ZTS_VERSIONS"
    echo "php-zts: trying php$VER" $VERSIONS "(SC_PHP_ZTS_VERSIONS)" >&2
else
    VERSIONS="$(mirror_versions)"
    if [ -n "$VERSIONS" ]; then echo "php-zts: the mirror serves php$VER source" $VERSIONS >&2; fi
fi
if [ -z "$VERSIONS" ]; then
    echo "php-zts: the mirror serves no php$VER source package ($(IFS=';'; echo "${SOURCES[*]}"))" >&2
    exit 3
fi

mkdir -p "$work/src"
cd "$work/src"
chmod 755 "$work/src"
got=""
for v in $VERSIONS; do
    if apt-get "${SC_APT_OPTS[@]}" source -qq --download-only "php$VER=$v" </dev/null >"$work/source.log" 2>&1; then
        got="$v"; break
    fi
    echo "php-zts: php$VER $v did not download, trying the next:" >&2
    grep -E '^(E|Err):' "$work/source.log" | head -n 4 >&2 || true
    rm -f ./*.dsc ./*.tar.* 2>/dev/null || true
done
if [ -z "$got" ]; then
    echo "php-zts: no php$VER source package downloaded (tried $VERSIONS)" >&2
    exit 3
fi
upstream="${got#*:}"
upstream="${upstream%-*}"
tarball="php${VER}_${upstream}.orig.tar.xz"
# The tarball holds one top folder (php-VERSION/): unpacked into a folder
# of its own, it is that folder's only entry.
mkdir unpacked
tar -xJf "$tarball" -C unpacked
tops=(unpacked/*/)
[ "${#tops[@]}" -eq 1 ] && [ -d "${tops[0]}" ] || { echo "php-zts: $tarball does not hold one top folder" >&2; exit 1; }
cd "${tops[0]}"

start=$(date +%s)
echo "php-zts: building PHP $upstream (Debian $got) ZTS+embed into $PREFIX (slow: 7-15 min on 2 cores)" >&2
rm -rf "$PREFIX"
CFLAGS="$CFLAGS_ZTS" ./configure --prefix="$PREFIX" --with-config-file-path="$PREFIX/etc" \
    "${CONFIGURE[@]}" >"$work/configure.log" 2>&1 \
    || { tail -n 40 "$work/configure.log" >&2; exit 1; }
jobs="${SC_PHP_ZTS_JOBS:-2}"
nice -n 10 make -j"$jobs" >"$work/make.log" 2>&1 || { tail -n 60 "$work/make.log" >&2; exit 1; }
make install >"$work/install.log" 2>&1 || { tail -n 40 "$work/install.log" >&2; exit 1; }
mkdir -p "$PREFIX/etc"
secs=$(( $(date +%s) - start ))
{ echo "$KEY"; echo "debian=$got"; echo "build_seconds=$secs"; } >"$PREFIX/.stamp"
echo "php-zts: built in ${secs}s" >&2
"$PREFIX/bin/php" -v >&2
echo "$PREFIX"
