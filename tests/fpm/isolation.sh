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

CONF="$(fpm_two_pools sc-iso-a sc-iso-b 2)"

fpm_start_pools "$CONF" "$SO" 4 -d apc.shm_size=8M -d "apc.preload_path=$WEB_TMP/preload" \
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
done

if [ "$FAIL" -ne 0 ]; then
    echo "--- php errors:"; tail -20 "$WEB_TMP/php-errors.log" 2>/dev/null
    echo "--- fpm log:"; tail -20 "$WEB_TMP/php-fpm.log" 2>/dev/null
    echo "--- fcgi errors:"; tail -20 "$WEB_TMP/fcgi.err" 2>/dev/null
fi
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
