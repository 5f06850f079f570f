#!/usr/bin/env bash
# Pin test: the lock-free apcu_inc path (src/sc_pin.c) holds a pin slot of
# the shard while it updates an int in place. gdb stops an incrementing
# child right after sc_pin_claim_lane returned a slot, then:
#   held    keeps it stopped: a writer of the same shard must wait for the
#           pin and finish once gdb lets the child go;
#   zombie  kills it there and leaves it unreaped: the parent's writes to the
#           shard must go on (the pin's holder is a zombie);
#   reaped  kills it and reaps it first: likewise.
#   held-noproc  held, with the PHP processes run with /proc hidden
#           (tests/lib/without-proc.sh; skipped when that cannot work here);
#   reused  reaped, then an unrelated process (sleep) takes the dead child's
#           pid (ns_last_pid, root): writes must go on all the same;
#   hit-killed   a child that only fetches is killed holding the shard lock
#           for a sampled hit: no entry may be lost;
#   walk-killed  a child that only calls apcu_sma_info() is killed holding
#           the page-pool lock: no entry may be lost, no reset.
# One more mode stops a storing child inside the shard lock instead:
#   fetch-locked  while it is stopped there, 1000 fetches of another key in
#                 the shard must all finish with the right value (a fetch
#                 never waits for the lock: the sampled hit skips it).
# Issue 20: a child overwriting an int without the shard lock (the lockless
# store, src/sc_lockless.c) is killed inside its entry's version window:
#   store-reader  the next fetch of the key must not hang and must find the
#                 key gone (never a torn value); the rest of the shard stays;
#   store-writer  the same, with a store of another key of the shard first;
#   store-reader-noproc  store-reader with /proc hidden;
#   store-string  store-reader with same-length strings (bytes rewritten).
#   store-zc      store-string with 200-byte strings laid out zero-copy
#                 (rewritten in place while nobody is inside an epoch).
# Issue 20, deletes without the shard lock (src/sc_lockless.c): a child
# deleting the int 's' and storing it again in a loop is killed
#   delete-reader  inside the delete's version window (sc_lockless_mark_gone):
#                  's' must read absent, the shard stay, entries = listed;
#   delete-writer  the same, with a store of another key of the shard first;
#   delete-revive  inside the window of the store that brings 's' back
#                  (sc_lockless_fill over the kept entry), then as
#                  delete-writer;
#   delete-revive-zc  the same with 's' a 200-byte zero-copy string;
#   delete-counted right after sc_lockless_mark_gone returned, at the count of
#                  kept entries (the next sc_pin_lane call); after a store
#                  of another key, entries must equal the listing;
#   revive-counted right after the reviving sc_lockless_fill returned, at
#                  the same count; likewise.
# Issue 30: with shardcache.shards=4096, a child clearing the cache in a
# loop is killed where a clear holds the most locks (inside the pool's
# reset, the pool lock just taken; tests/pin/clear-death.php):
#   clear-killed   stores, fetches, a second clear and stores after it must
#                  all finish (the kernel recovers at most 2048 robust
#                  locks of a dead thread: a clear must never hold more).
# See tests/pin/pin-death.php.
#
#   tests/pin/run.sh [--so=PATH]
#
# Output ends with "N passed, N failed"; exit status 0 only when all passed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$ROOT/scripts/lib.sh"
sc_so_option pin-death-test "$0" "$@"
sc_need_gdb pin-death-test

expected_for() {
    local zc_line=()
    [ "${1%-zc}" != "$1" ] && zc_line=("s was laid out zero-copy: true")
    case "$1" in
        held) printf '%s\n' "child state: t" "writer waits for the pin: true" "writer: stored" \
                             "k is a positive int: true" "ok" ;;
        zombie) printf '%s\n' "child state: Z" "bool(true)" "k is an int: true" "bool(true)" "int(101)" \
                              "bool(true)" "reaped, killed by signal 9" "ok" ;;
        reaped) printf '%s\n' "child state: Z" "reaped, killed by signal 9" "bool(true)" "k is an int: true" \
                              "bool(true)" "int(101)" "bool(true)" "ok" ;;
        fetch-locked) printf '%s\n' "child state: t" "fetches while the writer holds the lock: 1000 of 1000 right" "ok" ;;
        held-noproc) printf '%s\n' "child state: unknown (no /proc)" "writer waits for the pin: true" "writer: stored" \
                             "k is a positive int: true" "ok" ;;
        reused) printf '%s\n' "child state: Z" "reaped, killed by signal 9" "pid reused by an unrelated process: true" \
                              "bool(true)" "k is an int: true" "bool(true)" "int(101)" "bool(true)" "ok" ;;
        store-reader|store-reader-noproc|store-string|store-zc) printf '%s\n' "child state: $([ "$1" = store-reader-noproc ] && echo 'unknown (no /proc)' || echo Z)" "reaped, killed by signal 9" "s: false" \
                              "s exists: false" "s key info: NULL" "s listed by the iterator: 0" "r: true" \
                              "bool(true)" "s: 7" "bool(true)" "s: 8" \
                              ${zc_line[@]+"${zc_line[@]}"} "repairs: 0, resets: 0" "ok" ;;
        store-writer) printf '%s\n' "child state: Z" "reaped, killed by signal 9" "bool(true)" "s: false" \
                              "s exists: false" "s key info: NULL" "s listed by the iterator: 0" "r: true" \
                              "bool(true)" "s: 7" "bool(true)" "s: 8" "repairs: 0, resets: 0" "ok" ;;
        delete-reader|delete-revive|delete-counted|delete-writer|delete-revive-zc) printf '%s\n' "child state: Z" "reaped, killed by signal 9" \
                              $([ "$1" = delete-reader ] || echo "bool(true)") "s: false" \
                              "s exists: false" "s key info: NULL" "s listed by the iterator: 0" "k: 0, r: true" \
                              "entries = listed: true" "bool(true)" "s: 7" "bool(true)" "s: false" "bool(false)" \
                              "bool(true)" "s: 8" "entries = listed: true" \
                              ${zc_line[@]+"${zc_line[@]}"} "repairs: 0, resets: 0" "ok" ;;
        revive-counted) printf '%s\n' "child state: Z" "reaped, killed by signal 9" "bool(true)" "s: true" \
                              "s exists: true" "s key info: true" "s listed by the iterator: true" "k: 0, r: true" \
                              "entries = listed: true" "bool(true)" "s: 7" "bool(true)" "s: false" "bool(false)" \
                              "bool(true)" "s: 8" "entries = listed: true" "repairs: 0, resets: 0" "ok" ;;
        clear-killed) printf '%s\n' "shards: 4096, stored before: all" "reaped, killed by signal 9" \
                              "stores after the death: all" "fetches after the death: all right" "old keys left: none" \
                              "bool(true)" "entries after the second clear: 0" "fetches after the second clear: all misses" \
                              "stores after the second clear: all" "fetches after the second clear: all right" "ok" ;;
        hit-killed|walk-killed) printf '%s\n' "child state: Z" "reaped, killed by signal 9" "bool(true)" \
                              "entries after the reader died: 1000 of 1000 right" "repairs: 0, resets: 0" "ok" ;;
    esac
}

passed=0
failed=0
MODES=(held zombie reaped fetch-locked held-noproc reused hit-killed walk-killed store-reader store-writer store-reader-noproc store-string
       store-zc delete-reader delete-writer delete-revive delete-revive-zc delete-counted revive-counted clear-killed)
[ -n "${SC_PIN_MODES:-}" ] && read -r -a MODES <<<"$SC_PIN_MODES"
for mode in "${MODES[@]}"; do
    wrap=()
    if [ "$mode" = held-noproc ] || [ "$mode" = store-reader-noproc ]; then
        if ! bash "$ROOT/tests/lib/without-proc.sh" --check; then
            if [ -n "${CI:-}" ]; then
                echo "pin-death ($mode): cannot hide /proc here (needs root and unshare)"; failed=$((failed + 1))
            else
                echo "pin-death ($mode): skipped (hiding /proc needs root and unshare)"
            fi
            continue
        fi
        wrap=(bash "$ROOT/tests/lib/without-proc.sh")
    fi
    if [ "$mode" = reused ] && [ ! -w /proc/sys/kernel/ns_last_pid ]; then
        if [ -n "${CI:-}" ]; then
            echo "pin-death ($mode): /proc/sys/kernel/ns_last_pid is not writable (needs root)"; failed=$((failed + 1))
        else
            echo "pin-death ($mode): skipped (needs a writable /proc/sys/kernel/ns_last_pid: root)"
        fi
        continue
    fi
    dir="$(mktemp -d)"
    mkfifo "$dir/in" "$dir/out"
    script=("$ROOT/tests/pin/pin-death.php" "$mode" "$dir/ack")
    settings=(-d shardcache.shards=1)
    [ "${mode%-zc}" != "$mode" ] && settings+=(-d shardcache.zero_copy=1)
    if [ "$mode" = clear-killed ]; then
        script=("$ROOT/tests/pin/clear-death.php")
        settings=(-d shardcache.shards=4096 -d apc.shm_size=256M)
    fi
    timeout 90 "${wrap[@]}" php -n -d extension=posix -d "extension=$SO" -d apc.enable_cli=1 "${settings[@]}" \
        "${script[@]}" <"$dir/in" >"$dir/out" 2>&1 &
    parent_pid=$!
    exec 3>"$dir/in" 4<"$dir/out"
    # The parent's first line, or the end of its output (it died first).
    read -r word child <&4
    if [ "${word:-}" != child ] || [ -z "${child:-}" ]; then
        echo "pin-death ($mode): no child pid from the parent"
        failed=$((failed + 1)); exec 3>&- 4<&-; kill "$parent_pid" 2>/dev/null; wait "$parent_pid" 2>/dev/null
        rm -rf "$dir"; continue
    fi
    stop=(-ex 'break sc_pin_claim_lane' -ex 'continue' -ex 'finish')
    stopped='Value returned is .*(sc_pin \*) 0x[0-9a-f]*[1-9a-f]'
    if [ "$mode" = fetch-locked ]; then
        stop=(-ex 'break sc_entry_create' -ex 'continue')
        stopped='Breakpoint 1, .*sc_entry_create'
    elif [ "$mode" = delete-reader ] || [ "$mode" = delete-writer ]; then
        # Inside the version window of a lockless delete.
        stop=(-ex 'break sc_lockless_mark_gone' -ex 'continue')
        stopped='Breakpoint 1, .*sc_lockless_mark_gone'
    elif [ "$mode" = delete-revive ] || [ "$mode" = delete-revive-zc ]; then
        # Inside the version window of a store over a kept entry (the
        # child's stores all follow its deletes).
        stop=(-ex 'break sc_lockless_fill' -ex 'continue')
        stopped='Breakpoint 1, .*sc_lockless_fill'
    elif [ "$mode" = delete-counted ] || [ "$mode" = revive-counted ]; then
        # Just after the delete's (the revival's) write, at its count of
        # kept entries: the next call of sc_pin_lane.
        fn=sc_lockless_mark_gone; [ "$mode" = revive-counted ] && fn=sc_lockless_fill
        stop=(-ex "break $fn" -ex 'continue' -ex 'finish' -ex 'break sc_pin_lane' -ex 'continue')
        stopped='Breakpoint 2[.0-9]*, .*sc_pin_lane'
    elif [ "${mode#store-}" != "$mode" ]; then
        # Inside the entry's version window of a lockless store.
        stop=(-ex 'break sc_lockless_fill' -ex 'continue')
        stopped='Breakpoint 1, .*sc_lockless_fill'
    elif [ "$mode" = hit-killed ]; then
        # The only caller of sc_shard_trylock is the sampled hit; when it
        # returns true the child holds the shard's lock.
        stop=(-ex 'break sc_shard_trylock' -ex 'continue' -ex 'finish')
        stopped='Value returned is .* = true'
    elif [ "$mode" = clear-killed ]; then
        # The pool's reset inside a clear takes the pool lock last: there
        # the clear holds the most locks it ever holds at once.
        stop=(-ex 'break sc_alloc_reset_pool_holding' -ex 'continue' -ex 'break sc_mutex_lock' -ex 'continue'
              -ex 'finish')
        stopped='Value returned is .* = false'
    elif [ "$mode" = walk-killed ]; then
        # The first lock taken inside sc_info_pool_get is the pool's.
        stop=(-ex 'break sc_info_pool_get' -ex 'continue' -ex 'break sc_mutex_lock' -ex 'continue' -ex 'finish')
        stopped='Value returned is .* = false'
    fi
    if [ "$mode" = held ] || [ "$mode" = held-noproc ] || [ "$mode" = fetch-locked ]; then
        # While the child is stopped in gdb: tell the parent, wait until it
        # has checked what it must (it writes the file $dir/ack then) or
        # has died (then nobody ever will), then let the child go.
        last=(-ex "shell echo held >$dir/in; while [ ! -s $dir/ack ] && kill -0 $parent_pid 2>/dev/null; do sleep 0.05; done"
              -ex detach)
    else
        last=(-ex kill)
    fi
    if ! gdb_out="$(sc_gdb_stop "$child" "$dir/gdb" "$stopped" "${stop[@]}" "${last[@]}")"; then
        echo "pin-death ($mode): $gdb_out"
        kill -9 "$child" 2>/dev/null
        [ "$mode" = held ] || [ "$mode" = held-noproc ] || [ "$mode" = fetch-locked ] || echo "no" >&3
        failed=$((failed + 1)); exec 3>&- 4<&-; wait "$parent_pid" 2>/dev/null; rm -rf "$dir"; continue
    fi
    [ "$mode" = held ] || [ "$mode" = held-noproc ] || [ "$mode" = fetch-locked ] || echo "killed" >&3
    exec 3>&-
    # The parent's output to its end. The child writes to the same pipe:
    # if the parent died before killing it (a failure), the child is killed
    # here once the parent has ended (a parent that exits 0 has reaped it).
    cat <&4 >"$dir/result" &
    reader=$!
    exec 4<&-
    wait "$parent_pid"; rc=$?
    [ $rc -eq 0 ] || kill -9 "$child" 2>/dev/null
    wait "$reader"
    out="$(cat "$dir/result")"
    if [ $rc -eq 0 ] && [ "$out" = "$(expected_for "$mode")" ]; then
        echo "pin-death ($mode): ok"
        passed=$((passed + 1))
    else
        echo "pin-death ($mode): FAILED (exit $rc); output:"; printf '%s\n' "$out" | sed 's/^/  /'
        failed=$((failed + 1))
    fi
    rm -rf "$dir"
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
