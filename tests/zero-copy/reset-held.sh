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
# large values; gdb stops the writer inside the pool lock (sc_alloc_pool_take)
# and kills it there, after marking the pool's intent record RESET (3,
# SC_POOL_OP_RESET): a take or give cut short is repaired without a reset
# (sc_alloc_pool_repair), so gdb makes the death one the pool cannot
# repair, as a death inside a reset, or runs that no longer tile the area,
# would be. The parent's next stores find the dead holder, reset
# the pool and then overwrite the cache; the reader then checks every
# element of every array it held. Afterwards the held pages must be back
# in the pool (the reader's process ended, and with it its epoch).
# Run twice: "once" as above; "twice" also kills, with gdb, the process
# that makes that full reset, inside it (where it rebuilds the pool, after
# the tables, retire lists and held sets are emptied): the reset after it
# must still keep the reader's pages (it holds every page).
# Every step waits on a state, never on time: the driver's output comes
# through a pipe, read up to the line a step needs (a pid to attach gdb
# to) or to its end (the driver and its children gone), and the checks
# read that output only once it has ended.
# Output ends with "N passed, N failed"; exit status 0 only when all passed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$ROOT/scripts/lib.sh"
sc_so_option zero-copy-reset-held "$0" "$@"
sc_need_gdb zero-copy-reset-held
[ -f "$SO" ] || { echo "zero-copy-reset-held: $SO not found"; echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
dir=""
main=""
trap '[ -n "$main" ] && kill -9 "$main" 2>/dev/null; [ -n "$dir" ] && rm -rf "$dir"' EXIT

check() {   # check WHAT LINE: LINE must be in the output
    if grep -qxF "$2" "$dir/out"; then
        echo "ok    $mode: $1: $2"
        passed=$((passed + 1))
    else
        echo "FAIL  $mode: $1: expected \"$2\""
        failed=$((failed + 1))
    fi
}

wait_for() {   # wait_for TAG -> the pid the driver printed as "TAG <pid>"
    # Reads the driver's output from its pipe (fd 4) up to that line, or to
    # its end (the driver and its children gone: "" then); each line read
    # goes to $dir/out too.
    local line
    while IFS= read -r line <&4; do
        printf '%s\n' "$line" >>"$dir/out"
        case "$line" in
            "$1 "*) echo "${line#"$1 "}"; return 0 ;;
        esac
    done
    echo ""
}

gdb_check() {   # gdb_check OK WHAT
    if [ "$1" -eq 1 ]; then
        echo "ok    $mode: $2"
        passed=$((passed + 1))
    else
        echo "FAIL  $mode: $2 did not happen: $(cat "$dir/gdb.note")"
        failed=$((failed + 1))
    fi
}

for mode in once twice; do
    dir="$(mktemp -d /tmp/shardcache-resetheld.XXXXXX)" || exit 1
    mkfifo "$dir/in" "$dir/pipe"
    : >"$dir/out"
    # The driver's output comes through a pipe (fd 4): each check reads up
    # to the line it needs, or to the end of the output (the driver and its
    # children gone), never until some time has passed.
    php -n -d "extension=$SO" -d apc.enable_cli=1 -d apc.shm_size=8M -d shardcache.shards=4 \
        -d shardcache.zero_copy=1 "$ROOT/tests/zero-copy/reset-held.php" "$mode" "$dir/go" <"$dir/in" >"$dir/pipe" 2>&1 &
    main=$!
    exec 3>"$dir/in" 4<"$dir/pipe"
    w="$(wait_for W)"
    if [ -z "$w" ]; then
        echo "FAIL  $mode: the driver did not start: $(tail -n 5 "$dir/out")"
        failed=$((failed + 1))
        exec 3>&- 4<&-; kill -9 "$main" 2>/dev/null; wait "$main" 2>/dev/null; main=""; rm -rf "$dir"; dir=""
        continue
    fi
    gdb_ok=0
    sc_gdb_stop "$w" "$dir/gdb" 'Breakpoint 1, .*sc_alloc_pool_take' -ex 'break sc_alloc_pool_take' -ex continue \
        -ex 'set var ac->pool->op = 3' -ex kill \
        >"$dir/gdb.note" 2>&1 && gdb_ok=1
    # gdb did not kill it: killed here, so that the driver goes on (its
    # checks then fail) instead of waiting for it for ever.
    [ "$gdb_ok" -eq 1 ] || kill -9 "$w" 2>/dev/null
    echo killed >&3
    gdb_check "$gdb_ok" "the writer was killed inside the pool lock"
    if [ "$mode" = twice ]; then
        w2="$(wait_for W2)"
        gdb_ok=0
        if [ -n "$w2" ]; then
            # The flag is made once the breakpoint is set: W2 stores only then.
            sc_gdb_stop "$w2" "$dir/gdb" 'Breakpoint 1, .*sc_alloc_reset_pool_holding' \
                -ex 'break sc_alloc_reset_pool_holding' -ex "shell touch $dir/go" -ex continue -ex kill \
                >"$dir/gdb.note" 2>&1 && gdb_ok=1
        else
            echo "no W2 pid from the driver" >"$dir/gdb.note"
        fi
        [ "$gdb_ok" -eq 1 ] || [ -z "$w2" ] || kill -9 "$w2" 2>/dev/null
        echo killed2 >&3
        gdb_check "$gdb_ok" "the second writer was killed inside the full reset"
    fi
    exec 3>&-
    # The rest of the output, to its end: the driver and its children have
    # closed it (exited) when cat returns; only then is it checked.
    cat <&4 >>"$dir/out"
    exec 4<&-
    wait "$main"
    rc=$?
    main=""
    [ "$mode" = twice ] && check "the second writer" "W2 died inside the reset: yes"
    check "the reader borrowed its arrays" "ready inside=yes copied=0"
    check "the dead pool holder was found" "full reset: yes"
    check "the reset kept the reader's pages" "pages held for the reader: yes"
    check "the reader's arrays" "R: 40 held arrays checked, 0 wrong"
    check "the reader" "R exit: 0"
    check "after the reader left" "held pages given back after R left: yes"
    check "after the reset" "cache usable: yes"
    if [ "$rc" -ne 0 ] || grep -qi 'fatal\|warning\|segmentation' "$dir/out"; then
        echo "FAIL  $mode: the driver (exit $rc):"
        sed "s/^/  /" "$dir/out"
        failed=$((failed + 1))
    elif [ "$failed" -ne 0 ]; then
        sed "s/^/  $mode driver: /" "$dir/out"
    fi
    rm -rf "$dir"
    dir=""
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
