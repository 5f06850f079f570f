#!/usr/bin/env bash
# Named segment with a lock whose holder vanished unseen: the state a
# segment file is left in when the machine stops (power cut, VM killed)
# while a writer holds a shard lock and the file lives on a disk -- the
# kernel never ran the holder's exit, so the lock word still names its
# thread, without the "owner died" mark that a killed process gets.
#
#   tests/segment/stale-lock.sh [--so=PATH]
#
# A PHP process stores in a loop into a one-shard named segment; gdb stops
# it inside the shard lock (at sc_entry_create) and, while it is stopped
# there, copies the segment file to a second path (the "disk image"); then
# the writer is killed. A new process maps the copy -- its first user --
# and must store, fetch and clear in that shard (the shard is repaired as
# after a death in a running pool: the repairs figure rises). Without the
# first user's check of the locks it would wait for ever in futex(2) for
# the stale lock: the check's process is watched until it exits or is seen
# blocked there (then it is killed and the check fails as hung), however
# long either takes -- no time limit decides.
# Also checked: the original file, whose holder the kernel saw die, is
# repaired the same way; and a lock word with the waiters bit and no
# owner (damage) in the shard, global and pool locks of a closed file is
# taken as stale, not slept on.
# Output ends with "N passed, N failed"; exit status 0 only when all passed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$ROOT/scripts/lib.sh"
sc_so_option segment-stale-lock "$0" "$@"
sc_need_gdb segment-stale-lock
[ -f "$SO" ] || { echo "segment-stale-lock: $SO not found"; echo "0 passed, 1 failed"; exit 1; }

dir="$(mktemp -d /dev/shm/shardcache-stalelock.XXXXXX)" || exit 1
writer=""
trap '[ -n "$writer" ] && kill -9 "$writer" 2>/dev/null; rm -rf "$dir"' EXIT
php_args=(-n -d "extension=$SO" -d apc.enable_cli=1 -d apc.shm_size=4M -d shardcache.shards=1)

php "${php_args[@]}" -d "shardcache.segment=$dir/seg" -r '
    apcu_store("before", "kept?");
    echo getmypid(), "\n";
    for ($i = 0;; $i++) apcu_store("w", "w$i"); /* strings: a scalar over a scalar is written in place, without sc_entry_create */' >"$dir/writer.out" 2>&1 &
writer=$!
# Until the writer has printed its pid (the extension is loaded: gdb can set
# its breakpoint), or has ended (gdb then fails and says so).
while [ ! -s "$dir/writer.out" ] && kill -0 "$writer" 2>/dev/null; do sleep 0.05; done

gdb_ok=0
{
    gdb_out="$(sc_gdb_stop "$writer" "$dir/gdb" 'Breakpoint 1, .*sc_entry_create' \
        -ex 'break sc_entry_create' -ex continue -ex "shell cp $dir/seg $dir/copy" -ex kill)" && gdb_ok=1
    wait "$writer"
} 2>/dev/null
writer=""
passed=0
failed=0
if [ "$gdb_ok" -eq 0 ] || [ ! -f "$dir/copy" ]; then
    echo "segment-stale-lock: the writer was not stopped inside the lock: ${gdb_out:-no copy made}"
    echo "0 passed, 1 failed"
    exit 1
fi
# A lock word that no holder at rest leaves: the waiters bit with no owner
# (damage). glibc would sleep on it for ever: the first user must mark it
# "owner died" like a stale one. Written into a copy of the stopped
# machine's file (not closed: no checksum is checked) at its shard lock,
# global lock and page-pool lock.
u64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
cp "$dir/copy" "$dir/waiters"
shards_off="$(u64 "$dir/waiters" 104)"
for off in "$shards_off" 320 384; do   # sc_shard.lock, sc_header.global_lock, sc_header.pool.lock
    printf '\x00\x00\x00\x80' | dd of="$dir/waiters" bs=1 seek="$off" conv=notrunc status=none
done
check='$t = microtime(true);
    $ok = apcu_store("x", "after") && apcu_fetch("x") === "after" && apcu_store("w", -1) && apcu_fetch("w") === -1;
    $i = shardcache_info();
    printf("store and fetch: %s; repairs: %d; clear: %s\n", $ok ? "ok" : "FAILED", $i["repairs"], var_export(apcu_clear_cache(), true));'
expect='store and fetch: ok; repairs: 1; clear: true'
# The number of futex(2) in /proc/PID/syscall.
case "$(uname -m)" in
    x86_64) futex_nr=202 ;;
    aarch64) futex_nr=98 ;;
    *) futex_nr="" ;;   # not watched: a lock-up then waits for the phase's own limit
esac
# run_check FILE: the check on the segment file FILE; sets out and rc (rc
# "hung": its process was seen blocked in futex(2). It is single-threaded
# and no other process maps the file: the only futex it can wait in is a
# lock of the segment that nobody will release).
run_check() {
    local pid st sc w
    php "${php_args[@]}" -d "shardcache.segment=$dir/$1" -r "$check" >"$dir/check.out" 2>&1 &
    pid=$!
    rc=""
    while st="$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -c1)" && [ -n "$st" ] && [ "$st" != Z ]; do
        sc="$(cut -d' ' -f1 "/proc/$pid/syscall" 2>/dev/null)"
        if [ -n "$futex_nr" ] && [ "$st" = S ] && [ "$sc" = "$futex_nr" ]; then
            kill -9 "$pid" 2>/dev/null
            rc=hung
            break
        fi
        sleep 0.01
    done
    wait "$pid"
    w=$?
    [ -n "$rc" ] || rc=$w
    out="$(cat "$dir/check.out")"
}
# check FILE WHAT: runs the check on FILE and counts its verdict.
check() {
    run_check "$1"
    if [ "$rc" = 0 ] && [ "$out" = "$expect" ]; then
        echo "ok    $2: $out"
        passed=$((passed + 1))
    else
        [ "$rc" = hung ] && out="$out (hung: blocked in futex(2), killed)"
        echo "FAIL  $2: exit $rc: $out"
        failed=$((failed + 1))
    fi
}
check copy "the stopped machine's copy (lock word names a vanished thread, no owner-died mark)"
check seg "the original file (the kernel marked the lock owner-died)"
check waiters "the stopped machine's copy with its shard, global and pool lock words saying waiters with no owner"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
