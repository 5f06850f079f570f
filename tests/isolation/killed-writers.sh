#!/usr/bin/env bash
# A user that kills its own writers at chosen instructions inside the
# shard lock and the page pool's lock loses no entry of another user
# (issue 43 item 2), deterministically: gdb stops the writer where each
# point says and kills it there.
#
#   tests/isolation/killed-writers.sh [--so=PATH]
#
# tests/isolation/killed-writers.php (root, one shard, so that every write
# lands in the victim's shard) stores user A's 5,000 keys, then for each
# point forks a writer as user B that stores and deletes small and large
# values in a loop and prints its pid. A point is FUNCTION:STEPS: gdb
# breaks at FUNCTION, runs STEPS more instructions (stepping into what it
# calls), and kills the writer there. FUNCTION@finish:STEPS first lets
# FUNCTION return (into its caller, e.g. sc_resize_grow after the new
# table is built: the publication). A "+R" suffix kills a second writer
# of B R instructions into the repair that the first death causes
# (sc_shard_repair_keep), so the repair itself is cut and made again.
# After each point, B stores once (the shard is repaired by then) and A
# reads back every key: all 5,000 must be there, exact, with the repair
# counted once and no full reset of the cache. On main the first point
# already empties the shard.
# Every step waits on a state, never on time: the driver's output comes
# through a pipe, read up to the line a step needs.
# Output ends with "N passed, N failed"; exit status 0 only when all passed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$ROOT/scripts/lib.sh"
sc_so_option isolation-killed-writers "$0" "$@"
sc_need_gdb isolation-killed-writers
[ -f "$SO" ] || { echo "isolation-killed-writers: $SO not found"; echo "0 passed, 1 failed"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "isolation-killed-writers: needs root (seteuid to two users)"; echo "0 passed, 1 failed"; exit 1; }

points=(
    sc_entry_create:0
    sc_table_set:0 sc_table_set:2 sc_table_set:4 sc_table_set:6 sc_table_set:8 sc_table_set:12
    sc_table_clear_slot:0 sc_table_clear_slot:3 sc_table_clear_slot:6 sc_table_clear_slot:10 sc_table_clear_slot:16
    sc_alloc_pool_take:0 sc_alloc_pool_take:8 sc_alloc_pool_take:16 sc_alloc_pool_take:24 sc_alloc_pool_take:36
    sc_alloc_pool_take:50
    sc_alloc_pool_give:0 sc_alloc_pool_give:8 sc_alloc_pool_give:16 sc_alloc_pool_give:24 sc_alloc_pool_give:36
    sc_alloc_pool_give:50
    sc_alloc_free:6 sc_entry_free:12 sc_inplace_store:0 sc_inplace_store:12 sc_inplace_store:30
    sc_table_rebuild:200 sc_table_rebuild@finish:4 sc_table_rebuild@finish:12 sc_table_rebuild@finish:24
    sc_table_set:4+0 sc_table_set:4+400 sc_table_set:4+5000 sc_alloc_pool_give:20+2000 sc_table_set:4+20000
)

dir="$(mktemp -d /tmp/shardcache-killedwriters.XXXXXX)" || exit 1
chmod 755 "$dir"
main=""
trap '[ -n "$main" ] && kill -9 "$main" 2>/dev/null; rm -rf "$dir"' EXIT
mkfifo "$dir/pipe"
: >"$dir/out"
php -n -d extension=posix -d "extension=$SO" -d apc.enable_cli=1 -d apc.shm_size=64M -d shardcache.shards=1 \
    "$ROOT/tests/isolation/killed-writers.php" "$dir" "${points[@]}" >"$dir/pipe" 2>&1 &
main=$!
exec 4<"$dir/pipe"

next_writer() {   # the pid of the driver's next writer ("W <pid>"), or "" at the end
    local line
    while IFS= read -r line <&4; do
        printf '%s\n' "$line" >>"$dir/out"
        case "$line" in
            "W "*) echo "${line#W }"; return 0 ;;
        esac
    done
    echo ""
}

stop_at() {   # stop_at PID FUNCTION[@finish] STEPS: gdb kills PID there
    local pid="$1" fn="${2%@finish}" steps="$3" fin=()
    [ "$fn" != "$2" ] && fin=(-ex finish)
    sc_gdb_stop "$pid" "$dir/gdb" "Breakpoint 1, .*$fn" -ex "break $fn" -ex "shell touch $dir/go.$pid" -ex continue "${fin[@]}" \
        -ex "stepi $steps" -ex kill >>"$dir/gdb.notes" 2>&1 && return 0
    echo "gdb at $2:$steps: $(tail -n 3 "$dir/gdb" | tr '\n' ' ')" >>"$dir/gdb.fail"
    kill -9 "$pid" 2>/dev/null
    return 1
}

passed=0
failed=0
gdb_failed=0
for p in "${points[@]}"; do
    first="${p%%+*}"
    w="$(next_writer)"
    [ -n "$w" ] || break
    stop_at "$w" "${first%%:*}" "${first##*:}" || gdb_failed=$((gdb_failed + 1))
    if [ "$first" != "$p" ]; then
        w="$(next_writer)"
        [ -n "$w" ] || break
        stop_at "$w" sc_shard_repair_keep "${p##*+}" || gdb_failed=$((gdb_failed + 1))
    fi
done
cat <&4 >>"$dir/out"
exec 4<&-
wait "$main"
rc=$?
main=""
if grep -qxF "victim stored 5000/5000" "$dir/out"; then
    passed=$((passed + 1))
else
    echo "FAIL  the victim's stores: $(head -n 3 "$dir/out")"
    failed=$((failed + 1))
fi
for p in "${points[@]}"; do
    want="point $p: killed; victim kept 5000/5000, wrong 0, repairs +1, resets +0"
    if grep -qxF "$want" "$dir/out"; then
        echo "ok    $want"
        passed=$((passed + 1))
    else
        echo "FAIL  point $p: $(grep -F "point $p:" "$dir/out" || echo 'no result')"
        failed=$((failed + 1))
    fi
done
if [ "$gdb_failed" -ne 0 ] || [ "$rc" -ne 0 ] || ! grep -qxF "driver done" "$dir/out" \
   || grep -qi 'fatal\|warning\|segmentation' "$dir/out"; then
    echo "FAIL  driver exit $rc, gdb failures $gdb_failed:"
    tail -n 5 "$dir/out" | sed 's/^/  /'
    [ "$gdb_failed" -ne 0 ] && sed 's/^/  /' "$dir/gdb.fail"
    failed=$((failed + 1))
else
    passed=$((passed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
