#!/usr/bin/env bash
# Pools isolated by default in a real php-fpm: one master (root), two pools
# running as two users this test creates (sc-iso-a, sc-iso-b: useradd,
# removed again at the end), no shardcache setting at all (the master
# makes the anonymous segment before it forks), apc.preload_path loaded by
# the master. Requests go straight to each pool's socket
# (tests/fpm/fcgi.php; page tests/fpm/iso.php). Pool X against pool Y, both
# directions, each check one pass/fail:
#   started     both pools answer, as their own users, isolation=user
#   hidden      X does not fetch, see (exists), or get key_info of Y's keys
#   listed      X's APCUIterator, cache_info list and num_entries,
#               shardcache_info's users and tools/metrics.php's entry
#               counts show only X's (and preloaded) keys; the metrics
#               have no per-shard lines (a pool's user reads none)
#   writes      X's add over Y's key succeeds (a key of its own), X's
#               delete of Y's key fails, inc/dec start from 0, cas on Y's
#               int fails, apcu_entry computes: Y's values stay
#   clear       X's apcu_clear_cache empties X's keys only
#   preload     both pools read the preloaded keys; X's store and inc make
#               copies of its own, Y still reads the preloaded values
#   fair-share  X stores 150 keys (2% of the segment), Y then stores three
#               times the segment: every store of Y succeeds and X keeps
#               all 150 (Y evicts its own entries, not X's)
#   big-values  X stores N = 1638 keys of 1,000 bytes (80% of its share:
#               the segment's pages over 3 owners, X, Y and the preload's;
#               53% of the segment over 2 users); Y then rewrites 8 values
#               of 5 MB, each after one of 700 B .. 3 MB, 4 rounds in each
#               of 3 requests (about 74 times the segment; a store over Y's
#               own share may fail): X keeps all N with exact values and
#               shardcache_info's resets (and clears) did not move
#   killed-writers  X stores N keys; Y's workers store small (50..900 B)
#               and large (100 KB .. 3 MB) values in a loop (op=storm) and
#               this script SIGKILLs each one at 0..19 ms after it said
#               (its pid, through a FIFO) that its loop began: 2 lanes of
#               100, 200 kills. X keeps all N with exact values and resets
#               (and clears) did not move. resets and clears are what a
#               pool reads of the segment (shardcache_info's user view has
#               no repairs; a CLI cannot attach the master's anonymous
#               segment), so a repair that drops entries without a reset
#               shows only as X's missing keys. Zero-copy is on (php-fpm's
#               default): repairs run while other workers are inside an
#               epoch.
# Not here: Y aiming all its keys at X's shard. Key hashes are keyed with a
# secret of the segment and per-shard figures are root's only, so a pool
# has no way to learn or choose a key's shard through the functions (the
# one-shard attack is tests/isolation/650-isolation-fair-share-one-shard.phpt,
# a user that learned its keys' shard as root).
# Last line: "N passed, N failed"; exit status 0 only when none failed.
# Needs root (useradd, pools as other users) and php8.2-fpm (installed
# with apt-get when missing).
#
#   tests/fpm/isolation.sh [--so=PATH] [--keep] [--no-install]
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WEB_NAME=fpm-isolation
# shellcheck source=../../scripts/web/lib.sh
. "$ROOT/scripts/web/lib.sh"

# shellcheck source=common.sh
. "$ROOT/tests/fpm/common.sh"

MADE_USERS=()
cleanup() {
    fpm_stop
    local u
    for u in ${MADE_USERS[@]+"${MADE_USERS[@]}"}; do userdel "$u" >/dev/null 2>&1; done
    web_cleanup
}
web_tmp_init
trap cleanup EXIT
trap 'exit 130' INT TERM
for u in sc-iso-a sc-iso-b; do
    if ! id -u "$u" >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin "$u" || abort "cannot create user $u"
        MADE_USERS+=("$u")
    fi
done
cp "$SO" "$WEB_TMP/shardcache.so" && chmod 644 "$WEB_TMP/shardcache.so" || abort "cannot copy $SO"
SO="$WEB_TMP/shardcache.so"
mkdir -p "$WEB_TMP/pages" "$WEB_TMP/preload" && cp "$ROOT/tests/fpm/iso.php" "$ROOT/tools/metrics.php" "$WEB_TMP/pages/" || abort "cannot copy the page"
php -n -r 'file_put_contents($argv[1] . "/pre.data", serialize("preloaded"));
           file_put_contents($argv[1] . "/pren.data", serialize(5));' "$WEB_TMP/preload"
chmod -R a+rX "$WEB_TMP/pages" "$WEB_TMP/preload"
PAGE="$WEB_TMP/pages/iso.php"
FCGI="$ROOT/tests/fpm/fcgi.php"

# X's share (sc_fair.h): the segment's pages over the owners holding bytes,
# here 3 (X, Y and the preload's public owner), 2.6 MB of 8 MB. X holds N
# entries of fill, 1,280 bytes each as counted (1,000-byte value, key,
# entry, slab class): N = segment / 4 / 1,280 = 1638, 2.1 MB, 80% of its
# share (and 53% of the segment over 2 users).
SHM_BYTES=$((8 << 20))
N=$((SHM_BYTES / 4 / 1280))

CONF="$(fpm_two_pools sc-iso-a sc-iso-b 2)"

fpm_start_pools "$CONF" "$SO" 4 -d apc.shm_size=$((SHM_BYTES >> 20))M -d "apc.preload_path=$WEB_TMP/preload" \
    || abort "php-fpm did not start"

# req POOL QUERY -> the page's answer
req() { php -n "$FCGI" "$WEB_TMP/$1.sock" "$PAGE" "$2" 2>>"$WEB_TMP/fcgi.err"; }
# twice POOL QUERY -> the answers of two requests (the pool's two workers,
# most of the time), "A B"
twice() { echo "$(req "$1" "$2") $(req "$1" "$2")"; }

wa="$(req a op=whoami)"; wb="$(req b op=whoami)"
uid_a="$(id -u sc-iso-a)"; uid_b="$(id -u sc-iso-b)"
[ "$wa" = "user=sc-iso-a uid=$uid_a owner_uid=$uid_a isolation=user" ] \
    && [ "$wb" = "user=sc-iso-b uid=$uid_b owner_uid=$uid_b isolation=user" ]
sc_check started $? "a: $wa; b: $wb"

KILLS=100   # per lane, 2 lanes: 200 SIGKILLs per direction
for lane in 1 2; do
    mkfifo -m 666 "$WEB_TMP/storm$lane.fifo" || abort "cannot make a FIFO"
done

# storm POOL LANE COUNT: COUNT times, a request of op=storm to POOL; once
# its worker has written its pid to the lane's FIFO (it is in its loop of
# stores), waits 0..19 ms and SIGKILLs that pid, then waits for the
# request's end (the connection closes when the worker dies). Prints the
# number of kills sent.
storm() {
    local pool="$1" lane="$2" count="$3" fifo="$WEB_TMP/storm$2.fifo" i pid client kills=0
    exec {fd}<>"$fifo"   # read-write: neither side's open blocks
    for ((i = 0; i < count; i++)); do
        timeout 120 php -n "$FCGI" "$WEB_TMP/$pool.sock" "$PAGE" "op=storm&p=s$lane-&fifo=$fifo" \
            >/dev/null 2>>"$WEB_TMP/storm.err" &
        client=$!
        if ! read -r -t 60 -u "$fd" pid; then
            kill "$client" 2>/dev/null; wait "$client"; break
        fi
        sleep "0.0$(printf %02d $((RANDOM % 20)))"
        kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
        wait "$client"
    done
    exec {fd}<&-
    echo "$kills"
}

for dir in "a b" "b a"; do
    read -r X Y <<<"$dir"
    uid_x="$(id -u "sc-iso-$X")"; uid_y="$(id -u "sc-iso-$Y")"
    sfx=" ($X against $Y)"
    s="$(req "$Y" 'op=store&k=k&v=y-secret')$(req "$Y" 'op=store&k=n&v=int:10')$(req "$Y" 'op=add&k=only-y&v=y')"
    s="$s$(req "$Y" 'op=store&k=e&v=y-e')"
    [ "$s" = 1111 ] || abort "pool $Y could not store: $s"

    got="$(twice "$X" 'op=fetch&k=k') $(twice "$X" 'op=exists&k=only-y') $(req "$X" 'op=key_info&k=k')"
    [ "$got" = "miss miss 0 0 null" ]
    sc_check "hidden$sfx" $? "$got"

    got="$(req "$X" 'op=list') / $(req "$X" 'op=users')"
    [ "$got" = "pre,pren | pre,pren | 2 / preload:2" ]
    sc_check "listed-empty$sfx" $? "$got"

    got="$(req "$X" 'op=add&k=k&v=x-own') $(req "$X" 'op=fetch&k=k') $(req "$X" 'op=delete&k=only-y')"
    got="$got $(req "$X" 'op=inc&k=n') $(req "$X" 'op=dec&k=n') $(req "$X" 'op=cas&k=n&o=10&n=11')"
    got="$got $(req "$X" 'op=entry&k=e&v=x-e')"
    back="$(req "$Y" 'op=fetch&k=k') $(req "$Y" 'op=fetch&k=n') $(req "$Y" 'op=exists&k=only-y') $(req "$Y" 'op=fetch&k=e')"
    [ "$got" = "1 x-own 0 1 0 0 x-e computed" ] && [ "$back" = "y-secret int:10 1 y-e" ]
    sc_check "writes$sfx" $? "$X: $got; $Y still: $back"

    got="$(req "$X" 'op=list') / $(req "$X" 'op=users') / $(req "$X" 'op=metrics')"
    [ "$got" = "e,k,n,pre,pren | e,k,n,pre,pren | 5 / $uid_x:3,preload:2 / 5 0" ]
    sc_check "listed$sfx" $? "$got"

    got="$(req "$X" 'op=clear') $(req "$X" 'op=list')"
    back="$(req "$Y" 'op=list')"
    [ "$got" = "1 pre,pren | pre,pren | 2" ] && [ "$back" = "e,k,n,only-y,pre,pren | e,k,n,only-y,pre,pren | 6" ]
    sc_check "clear$sfx" $? "$X after its clear: $got; $Y: $back"

    got="$(twice "$X" 'op=fetch&k=pre') $(req "$X" 'op=store&k=pre&v=x-pre') $(req "$X" 'op=fetch&k=pre')"
    got="$got $(req "$X" 'op=inc&k=pren') $(req "$X" 'op=inc&k=pren')"
    back="$(req "$Y" 'op=fetch&k=pre') $(req "$Y" 'op=fetch&k=pren')"
    [ "$got" = "preloaded preloaded 1 x-pre 6 7" ] && [ "$back" = "preloaded int:5" ]
    sc_check "preload$sfx" $? "$X: $got; $Y: $back"

    [ "$(req "$X" 'op=clear')$(req "$Y" 'op=clear')" = 11 ] || abort "clear failed"

    stored="$(req "$X" 'op=fill&p=q&n=150')"
    for ((from = 0; from < 24000; from += 4000)); do
        stored="$stored $(req "$Y" "op=fill&p=h&from=$from&n=4000")"
    done
    got="$(req "$X" 'op=check&p=q&n=150')"
    [ "$stored" = "150 4000 4000 4000 4000 4000 4000" ] && [ "$got" = "150/0" ]
    sc_check "fair-share$sfx" $? "stores $stored; $X kept/wrong $got"
    [ "$(req "$X" 'op=clear')$(req "$Y" 'op=clear')" = 11 ] || abort "clear failed"

    before="$(req "$X" 'op=resets')"
    stored="$(req "$X" "op=fill&p=b&n=$N")"
    for r in 1 2 3; do stored="$stored $(req "$Y" "op=big&p=big$r-&rounds=4")"; done
    got="$(req "$X" "op=check&p=b&n=$N") $(req "$X" 'op=resets')"
    [ "${stored%% *}" = "$N" ] && [ "$got" = "$N/0 $before" ]
    sc_check "big-values$sfx" $? "$X stored ${stored%% *} of $N, $Y stored/tried ${stored#* }; $X kept/wrong, resets clears: $got (before: $before)"
    [ "$(req "$X" 'op=clear')$(req "$Y" 'op=clear')" = 11 ] || abort "clear failed"

    before="$(req "$X" 'op=resets')"
    stored="$(req "$X" "op=fill&p=w&n=$N")"
    storm "$Y" 1 "$KILLS" >"$WEB_TMP/storm1" & lane1=$!
    storm "$Y" 2 "$KILLS" >"$WEB_TMP/storm2"
    wait "$lane1"
    kills=$(( $(cat "$WEB_TMP/storm1") + $(cat "$WEB_TMP/storm2") ))
    got="$(req "$X" "op=check&p=w&n=$N") $(req "$X" 'op=resets')"
    [ "$stored" = "$N" ] && [ "$kills" -eq $((2 * KILLS)) ] && [ "$got" = "$N/0 $before" ]
    sc_check "killed-writers$sfx" $? "$X stored $stored of $N; $kills of $((2 * KILLS)) kills of $Y's storing workers; $X kept/wrong, resets clears: $got (before: $before)"
    [ "$(req "$X" 'op=clear')$(req "$Y" 'op=clear')" = 11 ] || abort "clear failed"
done

if [ "$FAIL" -ne 0 ]; then
    echo "--- php errors:"; tail -20 "$WEB_TMP/php-errors.log" 2>/dev/null
    echo "--- fpm log:"; tail -20 "$WEB_TMP/php-fpm.log" 2>/dev/null
    echo "--- fcgi errors:"; tail -20 "$WEB_TMP/fcgi.err" 2>/dev/null
fi
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
