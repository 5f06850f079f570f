#!/usr/bin/env bash
# Build (once) a thread-safe PHP with the embed SAPI, for the ZTS phpt run
# and the thread driver (tests/zts/). Two versions:
#   8.2  from Debian bookworm's php8.2 source package (the default)
#   8.6  from Debian experimental's php8.6 source package (8.6.0~rc3-1),
#        fetched with apt lists of its own (nothing is added to the system's
#        sources; experimental's Release may be past Valid-Until, which is
#        not checked for this download)
# Each from its upstream tarball (Debian's packaging patches are not applied:
# they tune Debian's own build, not the engine). The build is cached outside
# the clone and redone only when missing or when this script's configure line
# changes.
#
#   bash tests/zts/build-php.sh [8.2|8.6]            build if missing, print the prefix
#   bash tests/zts/build-php.sh [8.2|8.6] --prefix   print the prefix only (no build)
#
# Exit status 3: the source package could not be downloaded from the mirror
# (nothing built; the caller may report its phases as not run).
#
# Environment: SC_PHP_ZTS_PREFIX (8.2, default /opt/shardcache/php-8.2-zts),
# SC_PHP86_ZTS_PREFIX (8.6, default /opt/shardcache/php-8.6-zts),
# SC_PHP_ZTS_VERSIONS (Debian versions to try, newest first),
# SC_DEBIAN_MIRROR (8.6: default http://deb.debian.org/debian).
# Result: $PREFIX/bin/php (ZTS CLI), $PREFIX/bin/phpize, $PREFIX/bin/php-config,
# $PREFIX/lib/libphp.so (embed), $PREFIX/.stamp (what was built, build seconds).
set -euo pipefail

VER=8.2
case "${1:-}" in 8.2|8.6) VER="$1"; shift ;; esac
MIRROR="${SC_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
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
    PREFIX="${SC_PHP86_ZTS_PREFIX:-/opt/shardcache/php-8.6-zts}"
    VERSIONS="${SC_PHP_ZTS_VERSIONS:-8.6.0~rc3-1}"
    # Since 8.5 opcache is part of PHP and cannot be left out; its JIT can
    # (the slowest part to compile, and no test needs it). ext/uri (8.5+)
    # is always built, with its bundled libraries.
    CONFIGURE=(--disable-all --enable-zts --enable-embed=shared --enable-cli
               --disable-cgi --disable-phpdbg --disable-opcache-jit --enable-pcntl
               --enable-posix --with-external-pcre --without-pear)
else
    PREFIX="${SC_PHP_ZTS_PREFIX:-/opt/shardcache/php-8.2-zts}"
    VERSIONS="${SC_PHP_ZTS_VERSIONS:-8.2.36-1~deb12u1 8.2.32-1~deb12u1}"
fi
CFLAGS_ZTS="-O1 -g1"
KEY="configure=${CONFIGURE[*]} cflags=$CFLAGS_ZTS"

if [ "${1:-}" = "--prefix" ]; then echo "$PREFIX"; exit 0; fi

stamp_ok() {
    [ -x "$PREFIX/bin/php" ] && [ -x "$PREFIX/bin/phpize" ] && [ -f "$PREFIX/lib/libphp.so" ] \
        && [ -f "$PREFIX/.stamp" ] && grep -qxF "$KEY" "$PREFIX/.stamp"
}
if stamp_ok; then echo "$PREFIX"; exit 0; fi

mkdir -p "$(dirname "$PREFIX")"
exec 9>"$PREFIX.lock"
flock 9
if stamp_ok; then echo "$PREFIX"; exit 0; fi

export DEBIAN_FRONTEND=noninteractive
APT=(apt-get -o DPkg::Lock::Timeout=900 -y -qq)
# Build tools, and libpcre2-dev (the only library --disable-all needs).
need=()
for pkg in dpkg-dev gcc make pkg-config xz-utils libpcre2-dev; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q '^install ok installed$' || need+=("$pkg")
done
[ "${#need[@]}" -gt 0 ] && { "${APT[@]}" update </dev/null; "${APT[@]}" install "${need[@]}" </dev/null >/dev/null; }

work="$(mktemp -d /var/tmp/shardcache-php-zts.XXXXXX)"
trap 'rm -rf "$work"' EXIT
# apt downloads as _apt where it can; let it write here.
chmod 755 "$work"
APT_SRC=(apt-get)
if [ "$VER" = 8.6 ]; then
    # experimental's sources, with lists of its own under $work.
    mkdir -p "$work/lists/partial"
    echo "deb-src [check-valid-until=no] $MIRROR experimental main" >"$work/sources.list"
    APT_SRC=(apt-get -o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=-
             -o Dir::State::Lists="$work/lists" -o Acquire::Check-Valid-Until=false)
    "${APT_SRC[@]}" -qq update </dev/null
else
    SRCLIST=/etc/apt/sources.list.d/shardcache-deb-src.sources
    if [ ! -f "$SRCLIST" ]; then
        cat >"$SRCLIST" <<'EOF'
# Added by shardcache tests/zts/build-php.sh: Debian source packages (PHP's
# source for the ZTS build). Binary packages are not affected.
Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
        "${APT[@]}" update </dev/null
    fi
fi

mkdir -p "$work/src"
cd "$work/src"
chmod 755 "$work/src"
got=""
for v in $VERSIONS; do
    if "${APT_SRC[@]}" source -qq --download-only "php$VER=$v" </dev/null >"$work/source.log" 2>&1; then
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
upstream="${got%%-*}"
tarball="php${VER}_${upstream}.orig.tar.xz"
top="$(tar -tJf "$tarball" | head -n 1 | cut -d/ -f1)"
tar -xJf "$tarball"
cd "$top"

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
