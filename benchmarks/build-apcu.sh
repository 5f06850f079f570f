#!/usr/bin/env bash
# build-apcu.sh VERSION [SRC_DIR]: builds APCu VERSION (e.g. 5.1.28) for the
# PHP 8.2 CLI with phpize and prints the path of its apcu.so, for the
# side-by-side benchmark (compare.php --apcu=PATH, instr.sh PATH ...).
#
# The build lands in ${SHARDCACHE_APCU_DIR:-/opt/shardcache}/apcu-VERSION/
# apcu.so, outside the clone; when it is already there only its path is
# printed. APCu's source is never copied into the clone. It is taken from,
# in this order:
#   1. SRC_DIR, when given;
#   2. /opt/shardcache/src/apcu-VERSION (an unpacked release, e.g. from
#      `git --git-dir=MIRROR archive vVERSION | tar -x -C ...`);
#   3. the release tarball on GitHub (krakjoe/apcu, tag vVERSION);
#   4. Debian's source package (`apt-get source php-apcu=VERSION*`, needs a
#      deb-src line; bookworm has 5.1.22).
# The source is copied to a scratch directory and built there (phpize,
# configure, make), so the unpacked source stays clean.
# Exit status: 0 = path printed; 1 = no source or the build failed; 2 = usage.
set -euo pipefail

ver="${1:-}"
[[ "$ver" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "usage: build-apcu.sh VERSION [SRC_DIR]" >&2; exit 2; }
root="${SHARDCACHE_APCU_DIR:-/opt/shardcache}"
dest="$root/apcu-$ver"
so="$dest/apcu.so"
phpize="${PHPIZE:-phpize8.2}"
phpconfig="${PHP_CONFIG:-php-config8.2}"

if [ -f "$so" ]; then
    echo "$so"
    exit 0
fi
mkdir -p "$root"
exec 9>"$root/apcu-$ver.lock"
flock 9
if [ -f "$so" ]; then   # built by a concurrent run
    echo "$so"
    exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
src="${2:-}"
if [ -z "$src" ] && [ -f "$root/src/apcu-$ver/php_apc.c" ]; then
    src="$root/src/apcu-$ver"
fi
if [ -z "$src" ]; then
    url="https://github.com/krakjoe/apcu/archive/refs/tags/v$ver.tar.gz"
    if curl -fsSL --max-time 120 -o "$tmp/apcu.tar.gz" "$url" 2>/dev/null; then
        mkdir -p "$tmp/unpack"
        tar -xzf "$tmp/apcu.tar.gz" -C "$tmp/unpack"
        src="$(dirname "$(find "$tmp/unpack" -maxdepth 2 -name php_apc.c | head -n 1)")"
    fi
fi
if [ -z "$src" ] || [ "$src" = "." ]; then
    chmod 755 "$tmp"
    if (cd "$tmp" && apt-get source --download-only "php-apcu=$ver*" >/dev/null 2>&1) &&
       (cd "$tmp" && dpkg-source -x ./php-apcu_*.dsc deb >/dev/null 2>&1); then
        src="$(dirname "$(find "$tmp/deb" -maxdepth 2 -name php_apc.c | head -n 1)")"
    fi
fi
if [ -z "$src" ] || [ ! -f "$src/php_apc.c" ]; then
    echo "build-apcu: no source for APCu $ver (give SRC_DIR, or unpack it in $root/src/apcu-$ver)" >&2
    exit 1
fi
grep -q "PHP_APCU_VERSION \"$ver\"" "$src/php_apc.h" ||
    { echo "build-apcu: $src is not APCu $ver" >&2; exit 1; }

cp -a "$src" "$tmp/build"
(
    cd "$tmp/build"
    "$phpize" >/dev/null
    ./configure --with-php-config="$phpconfig" --enable-apcu >/dev/null
    make -j2 >/dev/null
) > "$tmp/log" 2>&1 || { tail -n 30 "$tmp/log" >&2; echo "build-apcu: build of $ver failed" >&2; exit 1; }
mkdir -p "$dest"
cp "$tmp/build/modules/apcu.so" "$so.tmp"
mv "$so.tmp" "$so"
echo "$so"
