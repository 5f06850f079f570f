#!/usr/bin/env bash
# Build (once) a thread-safe PHP 8.2 with the embed SAPI, for the ZTS phpt run
# and the thread driver (tests/zts/). Source: Debian bookworm's php8.2 source
# package (its upstream tarball; Debian's packaging patches are not applied:
# they tune Debian's own build, not the engine). The build is cached outside
# the clone and redone only when missing or when this script's configure line
# changes.
#
#   bash tests/zts/build-php.sh            build if missing, print the prefix
#   bash tests/zts/build-php.sh --prefix   print the prefix only (no build)
#
# Environment: SC_PHP_ZTS_PREFIX (default /opt/shardcache/php-8.2-zts),
# SC_PHP_ZTS_VERSIONS (Debian versions to try, newest first).
# Result: $PREFIX/bin/php (ZTS CLI), $PREFIX/bin/phpize, $PREFIX/bin/php-config,
# $PREFIX/lib/libphp.so (embed), $PREFIX/.stamp (what was built, build seconds).
set -euo pipefail

PREFIX="${SC_PHP_ZTS_PREFIX:-/opt/shardcache/php-8.2-zts}"
VERSIONS="${SC_PHP_ZTS_VERSIONS:-8.2.36-1~deb12u1 8.2.32-1~deb12u1}"
# Minimal on purpose (build time on 2 shared cores): what the phpt suite and
# the driver use. json, pcre (the system's libpcre2), random, reflection,
# spl, standard are always built; no opcache (no test needs it, and its JIT
# is the slowest file to compile). -O1 -g1: the engine compiles about twice
# as fast as at -O2 and keeps function names and lines for valgrind; the
# extension itself is still built at -O2 by scripts/build.sh.
CONFIGURE=(--disable-all --enable-zts --enable-embed=shared --enable-cli
           --disable-cgi --disable-phpdbg --disable-opcache --enable-pcntl
           --enable-posix --with-external-pcre --without-pear)
CFLAGS_ZTS="-O1 -g1"
KEY="configure=${CONFIGURE[*]} cflags=$CFLAGS_ZTS"

if [ "${1:-}" = "--prefix" ]; then echo "$PREFIX"; exit 0; fi

stamp_ok() {
    [ -x "$PREFIX/bin/php" ] && [ -x "$PREFIX/bin/phpize" ] && [ -f "$PREFIX/lib/libphp.so" ] \
        && [ -f "$PREFIX/.stamp" ] && grep -qxF "$KEY" "$PREFIX/.stamp"
}
if stamp_ok; then echo "$PREFIX"; exit 0; fi

mkdir -p "$(dirname "$PREFIX")"
exec 9>"$(dirname "$PREFIX")/.php-zts.lock"
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

work="$(mktemp -d /var/tmp/shardcache-php-zts.XXXXXX)"
trap 'rm -rf "$work"' EXIT
cd "$work"
# apt downloads as _apt where it can; let it write here.
chmod 755 "$work"
got=""
for v in $VERSIONS; do
    if apt-get source -qq --download-only "php8.2=$v" </dev/null >/dev/null 2>&1; then
        got="$v"; break
    fi
    echo "php-zts: php8.2 $v did not download, trying the next" >&2
    rm -f ./*.dsc ./*.tar.* 2>/dev/null || true
done
[ -n "$got" ] || { echo "php-zts: no php8.2 source package downloaded (tried $VERSIONS)" >&2; exit 1; }
upstream="${got%%-*}"
tar -xJf "php8.2_${upstream}.orig.tar.xz"
cd "php-${upstream}"

start=$(date +%s)
echo "php-zts: building PHP $upstream (Debian $got) ZTS+embed into $PREFIX (slow: ~15-25 min on 2 cores)" >&2
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
