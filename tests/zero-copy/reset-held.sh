#!/usr/bin/env bash
# A full reset of the page pool (a writer died inside the pool lock: the
# segment's needs_reset) while another process holds zero-copy arrays: the
# pages those arrays live in must stay out of the pool until the holder has
# left its epoch, whatever is stored meanwhile (issue 18, the reset hazard).
#
#   tests/zero-copy/reset-held.sh [--so=PATH]
#
# tests/zero-copy/reset-held.php stores 40 arrays with zero-copy on and
# forks a reader that borrows them all and a writer that stores and deletes
# large values; gdb stops the writer inside the pool lock (sc_pool_take)
# and kills it there. The parent's next stores find the dead holder, reset
# the pool and then overwrite the cache; the reader then checks every
# element of every array it held. Afterwards the held pages must be back
# in the pool (the reader's process ended, and with it its epoch).
# Output ends with "N passed, N failed"; exit status 0 only when all passed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$ROOT/scripts/lib.sh"
sc_so_option zero-copy-reset-held "$0" "$@"
sc_need_gdb zero-copy-reset-held
[ -f "$SO" ] || { echo "zero-copy-reset-held: $SO not found"; echo "0 passed, 1 failed"; exit 1; }

dir="$(mktemp -d /tmp/shardcache-resetheld.XXXXXX)" || exit 1
main=""
trap '[ -n "$main" ] && kill -9 "$main" 2>/dev/null; rm -rf "$dir"' EXIT
mkfifo "$dir/in"
php -n -d "extension=$SO" -d apc.enable_cli=1 -d apc.shm_size=8M -d shardcache.shards=4 \
    -d shardcache.zero_copy=1 "$ROOT/tests/zero-copy/reset-held.php" <"$dir/in" >"$dir/out" 2>&1 &
main=$!
exec 3>"$dir/in"
w=""
for ((i = 0; i < 200; i++)); do
    w="$(sed -n 's/^W \([0-9]*\)$/\1/p' "$dir/out")"
    [ -n "$w" ] && break
    sleep 0.05
done
passed=0
failed=0
check() {   # check WHAT LINE: LINE must be in the output
    if grep -qxF "$2" "$dir/out"; then
        echo "ok    $1: $2"
        passed=$((passed + 1))
    else
        echo "FAIL  $1: expected \"$2\""
        failed=$((failed + 1))
    fi
}
if [ -z "$w" ]; then
    echo "FAIL  the driver did not start: $(tail -n 5 "$dir/out")"
    echo "0 passed, 1 failed"
    exit 1
fi
gdb_ok=0
sc_gdb_stop "$w" "$dir/gdb" 'Breakpoint 1, .*sc_pool_take' -ex 'break sc_pool_take' -ex continue -ex kill \
    >"$dir/gdb.note" 2>&1 && gdb_ok=1
echo killed >&3
exec 3>&-
timeout 120 tail --pid="$main" -f /dev/null
wait "$main"
rc=$?
main=""
if [ "$gdb_ok" -eq 1 ]; then
    echo "ok    the writer was killed inside the pool lock"
    passed=$((passed + 1))
else
    echo "FAIL  the writer was not stopped inside the pool lock: $(cat "$dir/gdb.note")"
    failed=$((failed + 1))
fi
check "the reader borrowed its arrays" "ready inside=yes copied=0"
check "the dead pool holder was found" "full reset: yes"
check "the reset kept the reader's pages" "pages held for the reader: yes"
check "the reader's arrays" "R: 40 held arrays checked, 0 wrong" || true
check "the reader" "R exit: 0"
check "after the reader left" "held pages given back after R left: yes"
check "after the reset" "cache usable: yes"
if [ "$rc" -ne 0 ] || grep -qi 'fatal\|warning\|segmentation' "$dir/out"; then
    echo "FAIL  the driver (exit $rc):"
    sed "s/^/  /" "$dir/out"
    failed=$((failed + 1))
fi
[ "$failed" -eq 0 ] || sed 's/^/  driver: /' "$dir/out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
