#!/usr/bin/env bash
# Build shardcache against Debian's PHP of one version (8.4, 8.5 or 8.6: NTS)
# and run the phpt suite there. The root with that PHP comes from
# scripts/provision/chroot.sh (made once, cached). The working tree is copied into
# the root (/build/shardcache), so the build here does not touch modules/ of
# the checkout.
#
#   bash tests/phpver/run.sh VERSION [--build-only] [-- run-phpt.sh args...]
#
# Prints the build result (scripts/build.sh: -Wall -Wextra, PHP's headers
# included as system headers, fails on any compiler warning) and the
# run-tests summary; exit 0 only if both are clean. The suite runs with
# run-tests.php -j2 (JOBS, as everywhere; PHP 8.6's run-tests.php would
# otherwise pick its own number of workers).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
VER="${1:-}"
case "$VER" in
    8.4|8.5|8.6) shift ;;
    -h|--help|"") sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "test-phpver: unknown PHP version $VER (8.4, 8.5 or 8.6)" >&2; exit 2 ;;
esac
build_only=0
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build-only) build_only=1 ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "test-phpver: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

start=$(date +%s)
CHROOT="$(bash scripts/provision/chroot.sh "$VER")"
echo "test-phpver: root $CHROOT (PHP $VER) ready after $(( $(date +%s) - start ))s"

dest="$CHROOT/build/shardcache"
rm -rf "$dest"
mkdir -p "$dest"
# The source files (tracked and new, not ignored); no build products.
if git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -z -co --exclude-standard | tar -c --null -T - -f - | tar -x -C "$dest" -f -
else
    tar -c --exclude=./modules --exclude=./.libs -f - . | tar -x -C "$dest" -f -
fi

cmd="cd /build/shardcache && bash scripts/build.sh"
if [ "$build_only" -eq 0 ]; then
    args=""
    [ "${#extra[@]}" -gt 0 ] && args="-- $(printf '%q ' "${extra[@]}")"
    cmd="$cmd && php -v | head -n 1 && JOBS=${JOBS:-2} bash tests/run-phpt.sh /build/shardcache/modules/shardcache.so $args"
fi
bash scripts/provision/chroot.sh "$VER" --run "$cmd"
