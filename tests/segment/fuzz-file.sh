#!/usr/bin/env bash
# tests/segment/fuzz-file.sh - the segment-file fuzzer: damages a real
# segment file (made by a real PHP process) and checks that a process that
# then maps it and uses it (store, fetch, info, iterate, clear) neither
# crashes, nor hangs, nor returns a wrong value; then that the next process
# does not hang either.
#
#   bash tests/segment/fuzz-file.sh [--seconds=60] [--so=modules/shardcache.so] [--seed=N]
#
# Each round: a maker stores known values (key k<i> -> a value derived from
# i) and either ends (a clean close) or is killed (an unclean stop); the
# file is then damaged in one of these ways, chosen at random:
#   random   1-64 random bytes at random offsets anywhere in the file
#   data     1-8 random bytes in the first 64 pages of the data area, where
#            the maker's entries and tables are (each shard's pages are
#            checked at its first lock: the damaged shard reads empty)
#   zero     a random range zeroed (power loss: pages never written back)
#   header   random bytes in the first 512 bytes (identity and geometry)
#   shard    a shard's constants or lock bytes (sc_shard: its first 64 bytes)
#   locks    the global, pool or a liveness slot's lock bytes
#   trunc    the file cut or extended
# After an unclean stop only the header, shard and locks kinds are used:
# what the first user after such a stop checks (the rest of a body its
# users left without closing is trusted as a running pool trusts it).
# A user (timeout 20 s) then checks every key (false or exactly its value),
# stores, iterates, reads the info and clears; a second user must finish
# too. Last line: "N passed, N failed".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SECONDS_RUN=60
SO="$ROOT/modules/shardcache.so"
SEED=$RANDOM
for a in "$@"; do
    case "$a" in
        --seconds=*) SECONDS_RUN="${a#*=}" ;;
        --so=*) SO="${a#*=}" ;;
        --seed=*) SEED="${a#*=}" ;;
        -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
        *) echo "fuzz-file.sh: unknown option $a" >&2; exit 2 ;;
    esac
done
[ -f "$SO" ] || { echo "fuzz-file.sh: $SO not found (build it first)"; echo "0 passed, 1 failed"; exit 1; }
PHP="${PHP:-php}"
DIR="$(mktemp -d /dev/shm/sc-fuzz-file.XXXXXX 2>/dev/null || mktemp -d)"
trap 'rm -rf "$DIR"' EXIT
SEG="$DIR/seg"
php_seg() { "$PHP" -n -d "extension=$SO" -d apc.enable_cli=1 -d apc.shm_size=2M -d shardcache.shards=4 \
    -d "shardcache.segment=$SEG" -d display_errors=stderr -d error_reporting=-1 "$@"; }

MAKE='$n = 300; for ($i = 0; $i < $n; $i++) apcu_store("k$i", $i % 3 ? str_repeat(chr(65 + $i % 26), $i) : ["i" => $i, "s" => "v$i"]);
      apcu_inc("ctr", 5); apcu_entry("e", fn() => "computed");
      if (getenv("FUZZ_KILL")) { echo "ready\n"; fflush(STDOUT); fgets(STDIN); }'
USE='$bad = [];
     $want = fn($i) => $i % 3 ? str_repeat(chr(65 + $i % 26), $i) : ["i" => $i, "s" => "v$i"];
     for ($i = 0; $i < 300; $i++) { $v = apcu_fetch("k$i"); if ($v !== false && $v !== $want($i)) $bad[] = "k$i"; }
     $c = apcu_fetch("ctr"); if ($c !== false && $c !== 5) $bad[] = "ctr";
     $e = apcu_fetch("e"); if ($e !== false && $e !== "computed") $bad[] = "e";
     for ($i = 0; $i < 300; $i++) { apcu_store("n$i", "new$i"); }
     for ($i = 0; $i < 300; $i++) { $v = apcu_fetch("n$i"); if ($v !== false && $v !== "new$i") $bad[] = "n$i"; }
     foreach (new APCUIterator("/^k/") as $k => $v) { $i = (int) substr($k, 1); if ($v["value"] !== $want($i)) $bad[] = "iter $k"; }
     $info = apcu_cache_info(); apcu_sma_info(); apcu_inc("ctr2");
     apcu_clear_cache(); if (apcu_fetch("n1") !== false) $bad[] = "after clear";
     apcu_store("z", 1); if (apcu_fetch("z") !== 1) $bad[] = "z";
     echo $bad ? "WRONG " . implode(",", array_slice($bad, 0, 5)) : "OK", "\n";'

pass=0; fail=0; round=0
RANDOM=$SEED
rnd() { echo $(( (RANDOM << 15 | RANDOM) % $1 )); }
patch_bytes() { # file offset count: random bytes
    local f="$1" off="$2" n="$3"
    head -c "$n" /dev/urandom | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}
u64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
end=$(( $(date +%s) + SECONDS_RUN ))
echo "fuzz-file: seed $SEED, $SECONDS_RUN s, $SEG"
while [ "$(date +%s)" -lt "$end" ]; do
    round=$((round + 1))
    rm -f "$SEG"
    unclean=$(( $(rnd 3) == 0 ))
    if [ "$unclean" = 1 ]; then
        coproc MK { FUZZ_KILL=1 php_seg -r "$MAKE" 2>&1; }
        read -r line <&"${MK[0]}"
        kill -9 "$(pgrep -P "$MK_PID" 2>/dev/null || echo "$MK_PID")" 2>/dev/null
        wait "$MK_PID" 2>/dev/null
        kinds=(header shard locks)
    else
        php_seg -r "$MAKE" >/dev/null 2>&1
        kinds=(random zero header shard locks trunc random data data)
    fi
    [ -f "$SEG" ] || { echo "round $round: the maker made no file"; fail=$((fail + 1)); continue; }
    size=$(stat -c %s "$SEG")
    kind=${kinds[$(rnd ${#kinds[@]})]}
    shards_off=$(u64 "$SEG" 104); pages_off=$(u64 "$SEG" 112); data_off=$(u64 "$SEG" 120)
    case "$kind" in
        random) for ((j = 0; j <= $(rnd 8); j++)); do patch_bytes "$SEG" "$(rnd "$size")" $(( 1 + $(rnd 8) )); done ;;
        data)   for ((j = 0; j <= $(rnd 4); j++)); do patch_bytes "$SEG" $(( data_off + $(rnd $((64 * 4096))) )) $(( 1 + $(rnd 8) )); done ;;
        zero)   off=$(rnd "$size"); n=$(( 1 + $(rnd $((size - off))) ))
                head -c "$n" /dev/zero | dd of="$SEG" bs=4096 seek="$off" oflag=seek_bytes conv=notrunc status=none ;;
        header) patch_bytes "$SEG" "$(rnd 512)" $(( 1 + $(rnd 8) )) ;;
        shard)  sz=$(( (pages_off - shards_off) / 4 )); patch_bytes "$SEG" $(( shards_off + $(rnd 4) * sz + $(rnd 64) )) $(( 1 + $(rnd 8) )) ;;
        locks)  # the global lock sits on the line after the first few fields: pick one of the header's later lines
                patch_bytes "$SEG" $(( 256 + $(rnd $((shards_off - 256))) )) $(( 1 + $(rnd 8) )) ;;
        trunc)  truncate -s $(( $(rnd $((size * 2))) )) "$SEG" ;;
    esac
    ok=1
    for who in first next; do
        out="$(timeout 20 "$PHP" -n -d "extension=$SO" -d apc.enable_cli=1 -d apc.shm_size=2M -d shardcache.shards=4 \
            -d "shardcache.segment=$SEG" -d display_errors=0 -d display_startup_errors=0 -d log_errors=0 -r "$USE" 2>"$DIR/err")"
        rc=$?
        # A startup warning (the file replaced or started afresh) may come
        # first; the checker's verdict is the last line.
        if [ $rc -ne 0 ] || [ "$(printf '%s\n' "$out" | tail -1)" != OK ]; then
            ok=0
            echo "round $round ($kind, $([ "$unclean" = 1 ] && echo unclean || echo clean) stop): $who user: exit $rc: $(cat "$DIR/err" - <<<"$out" | tail -3 | tr '\n' ' ')"
            cp "$SEG" "$DIR/../sc-fuzz-file-failed-$round" 2>/dev/null
        fi
    done
    if [ "$ok" = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "fuzz-file: $round rounds (seed $SEED)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
