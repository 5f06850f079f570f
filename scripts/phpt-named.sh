#!/usr/bin/env bash
# The whole phpt suite on named segments: scripts/run-phpt.sh with
# shardcache.segment=<private dir in /dev/shm>/seg-%p, so that every PHP
# process of the suite makes and maps its own segment file (a fresh, empty
# cache per test process, as with the anonymous segment) through the
# file-backed path: creation, flock, posix_fallocate, MAP_SHARED of a file.
#
#   scripts/phpt-named.sh [extension.so] [-- extra run-tests.php args]
#
# Segment files are unlinked by a background sweep every second while the
# suite runs (a process keeps its mapping after the name is gone, and with
# %p no other process ever opens the same name), so /dev/shm holds only the
# segments of the tests running now; files still being made (*.new) are
# left alone. Output and exit status are run-phpt.sh's.
set -u

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
EXT="${1:-$ROOT/modules/shardcache.so}"
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
DIR="$(mktemp -d /dev/shm/shardcache-phpt.XXXXXX)" || { echo "phpt-named: cannot make a directory in /dev/shm" >&2; exit 2; }
chmod 700 "$DIR"
( while [ -d "$DIR" ]; do find "$DIR" -mindepth 1 -maxdepth 1 -type f ! -name '*.new' -delete 2>/dev/null; sleep 1; done ) &
SWEEP=$!
trap 'kill "$SWEEP" 2>/dev/null; wait "$SWEEP" 2>/dev/null; rm -rf "$DIR"' EXIT
echo "phpt-named: shardcache.segment=$DIR/seg-%p"
bash "$ROOT/scripts/run-phpt.sh" "$EXT" -- -d "shardcache.segment=$DIR/seg-%p" "$@"
