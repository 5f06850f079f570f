#!/usr/bin/env bash
# benchmarks/device-bundle.sh - packs what benchmarks/device-scaling.sh needs
# on a machine that has no PHP (a many-core machine lent for a few minutes):
# this machine's php binary with the shared libraries it loads (not the C
# library's own), APCu and shardcache builds, as one tar.xz.
#   bash benchmarks/device-bundle.sh --apcu=PATH/apcu.so [--shardcache=modules/shardcache.so] [--out=.devcarry]
# The machine that unpacks it must be x86-64 Linux with a C library at least
# as new as this one's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
apcu= sc=modules/shardcache.so out=.devcarry
for a in "$@"; do
    case "$a" in
        --apcu=*) apcu=${a#*=} ;;
        --shardcache=*) sc=${a#*=} ;;
        --out=*) out=${a#*=} ;;
        *) echo "device-bundle.sh: unknown option $a" >&2; exit 2 ;;
    esac
done
[ -f "$apcu" ] || { echo "device-bundle.sh: --apcu=PATH/apcu.so is needed" >&2; exit 2; }
[ -f "$sc" ] || { echo "device-bundle.sh: $sc not found (build it first)" >&2; exit 2; }
php=$(readlink -f "$(command -v php)")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/b/bin" "$tmp/b/lib"
cp "$php" "$tmp/b/bin/php"
ldd "$php" | awk '/=> \//{print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
        libc.so*|libm.so*|ld-linux*|libpthread.so*|libdl.so*|librt.so*) ;;
        *) cp -L "$lib" "$tmp/b/lib/" ;;
    esac
done
cp "$apcu" "$tmp/b/apcu.so"
cp "$sc" "$tmp/b/shardcache.so"
"$php" -n -v | head -1 > "$tmp/b/VERSION"
mkdir -p "$out"
tar -C "$tmp" -cJf "$out/bundle.tar.xz" b
ls -la "$out/bundle.tar.xz"
