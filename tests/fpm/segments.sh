#!/usr/bin/env bash
# Named segments in a real php-fpm: one master, two pools running as two
# different system users (sc-pool-a, sc-pool-b: created with useradd when
# missing), each pool with its own segment through
# php_admin_value[shardcache.segment], in a private sticky directory under
# /dev/shm. Run twice: "global", where php.ini (here: -d) names a default
# segment too, so that the master maps no segment at all; "pool-only",
# where php.ini names none, so that the master makes the anonymous segment
# (for pools without a named one) and these pools' workers leave it for
# their files. Requests go straight to each pool's socket
# (tests/fpm/fcgi.php, a small FastCGI client; page tests/fpm/seg.php).
#
#   tests/fpm/segments.sh [--so=PATH] [--keep] [--no-install]
#
# Checks, one pass/fail each:
#   started     both pools answer, as their own users, each on its own file
#   files       each segment file belongs to its pool's user, mode 0600,
#               and there is no other (opcache.preload runs a script in the
#               master: it makes no segment)
#   master      global: the fpm master has no cache segment mapped (no
#               anonymous shared mapping, no segment file); pool-only: the
#               master has the anonymous one and a worker does not
#   isolation   a key stored through pool A is invisible through pool B and
#               the reverse; every worker of a pool sees the pool's value
#   cli-a       a CLI run as pool A's user (same settings, apc.enable_cli=1)
#               reads pool A's live entries, stores one the pool then sees,
#               and clears the cache: the pool sees the clear, pool B keeps
#               its entries
#   cli-b       a CLI run as pool B's user is refused pool A's segment
#               (warning; it gets a private segment of its own, where it
#               finds nothing of pool A's) and pool A's entries are unchanged
#   restart     after php-fpm is stopped and started again, both pools'
#               entries are still there, and the segments counted the boot
# Then "squatted": before php-fpm starts (php.ini names no segment), a
# third user (sc-pool-x, a member of pool A's group) has made a valid
# segment of his own at pool A's path (mode 0660, group sc-pool-a: pool
# A's workers can open it), holding a planted entry, and a FIFO at pool B's:
#   squat-refused  both pools answer (nothing blocks); each worker's
#               phpinfo says its segment is private, and why
#   squat-logged   php-fpm's log has each pool's refusal
#   squat-works    every worker's store is read back (in its private
#               segment); pool A never sees the planted entry
#   squat-untouched  the attacker's segment holds only his entry, and the
#               FIFO is still there
# Last line: "N passed, N failed"; exit status 0 only when none failed.
# Needs root (useradd, pools as other users) and php8.2-fpm (installed
# with apt-get when missing).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WEB_NAME=fpm-segments
# shellcheck source=../../scripts/web/lib.sh
. "$ROOT/scripts/web/lib.sh"

# shellcheck source=common.sh
. "$ROOT/tests/fpm/common.sh"
for u in sc-pool-a sc-pool-b sc-pool-x; do
    id -u "$u" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$u" \
        || abort "cannot create user $u"
done

SHM=""
cleanup() {
    fpm_stop
    if [ -n "$SHM" ] && [ -d "$SHM" ]; then
        if [ "${WEB_KEEP:-0}" = 1 ]; then web_log "kept $SHM"; else rm -rf "$SHM"; fi
    fi
    web_cleanup
}
web_tmp_init
trap cleanup EXIT
trap 'exit 130' INT TERM
# Everything the pools' users read: the extension, the page, the client.
cp "$SO" "$WEB_TMP/shardcache.so" && chmod 644 "$WEB_TMP/shardcache.so" || abort "cannot copy $SO"
SO="$WEB_TMP/shardcache.so"
mkdir -p "$WEB_TMP/pages" && cp "$ROOT/tests/fpm/seg.php" "$WEB_TMP/pages/" && chmod -R a+rX "$WEB_TMP/pages"
PAGE="$WEB_TMP/pages/seg.php"
FCGI="$ROOT/tests/fpm/fcgi.php"
# The segments' directory: like /dev/shm itself, world-writable and sticky.
SHM="$(mktemp -d /dev/shm/shardcache-fpmtest.XXXXXX)" || abort "cannot make a directory in /dev/shm"
chmod 1777 "$SHM"
SEG_A="$SHM/pool-a"
SEG_B="$SHM/pool-b"
INI=()

CONF="$(fpm_two_pools sc-pool-a sc-pool-b 3 "php_admin_value[shardcache.segment] = $SEG_A" \
                                                 "php_admin_value[shardcache.segment] = $SEG_B")"

# With opcache, a preload script (run in the master, or as root in a child
# as opcache.preload_user) must not make or map any segment.
PRELOAD=()
OPCACHE="$(php -n -r 'echo ini_get("extension_dir");')/opcache.so"
if [ -f "$OPCACHE" ]; then
    printf '<?php\nfunction sc_preloaded() { return apcu_fetch("nothing"); }\n' >"$WEB_TMP/pages/preload.php"
    chmod 644 "$WEB_TMP/pages/preload.php"
    PRELOAD=(-d "zend_extension=$OPCACHE" -d opcache.enable=1 -d "opcache.preload=$WEB_TMP/pages/preload.php"
             -d opcache.preload_user=sc-pool-a)
fi

# Both pools, 3 workers each.
start_fpm() { fpm_start_pools "$CONF" "$SO" 6 "${INI[@]}" ${PRELOAD[@]+"${PRELOAD[@]}"}; }

# req POOL QUERY -> the page's answer
req() { php -n "$FCGI" "$WEB_TMP/$1.sock" "$PAGE" "$2" 2>>"$WEB_TMP/fcgi.err"; }
# all_workers POOL QUERY: asks 12 times (spread over the pool's 3 workers);
# prints the distinct answers
all_workers() {
    local i
    for ((i = 0; i < 12; i++)); do req "$1" "$2"; echo; done | sort -u | sed '/^$/d' | tr '\n' ' ' | sed 's/ $//'
}
# cli USER SEGMENT CODE -> output (stdout and stderr) of a CLI run as USER
cli() {
    runuser -u "$1" -- php -n -d "extension=$SO" -d apc.enable_cli=1 -d apc.shm_size=8M \
        -d "shardcache.segment=$2" -d display_errors=stderr -r "$3" 2>&1
}

run_mode() {
MODE="$1"
SFX=" ($1)"
rm -f "$SHM"/*
if [ "$MODE" = global ]; then
    INI=(-d apc.enabled=1 -d apc.shm_size=8M -d "shardcache.segment=$SHM/default-%u")
else
    INI=(-d apc.enabled=1 -d apc.shm_size=8M)
fi
echo "--- php.ini (-d): ${INI[*]}"
start_fpm || abort "php-fpm did not start"
    
    # ---- started ----------------------------------------------------------------
    wa="$(req a op=whoami)"; wb="$(req b op=whoami)"
    echo "pool a: $wa"; echo "pool b: $wb"
    ok=1
    case "$wa" in "user=sc-pool-a enabled=1 segment=$SEG_A (file,"*) case "$wb" in
        "user=sc-pool-b enabled=1 segment=$SEG_B (file,"*) ok=0 ;; esac ;; esac
    sc_check "started$SFX" "$ok"
    
    # ---- files ------------------------------------------------------------------
    fa="$(stat -c '%U %a' "$SEG_A" 2>&1)"; fb="$(stat -c '%U %a' "$SEG_B" 2>&1)"
    files="$(ls "$SHM" | tr '\n' ' ')"
[ "$fa" = "sc-pool-a 600" ] && [ "$fb" = "sc-pool-b 600" ] && [ "$files" = "pool-a pool-b " ]
    sc_check "files$SFX" $? "a: $fa, b: $fb; in $SHM: $files${PRELOAD[0]:+ (opcache.preload on)}"
    
    # ---- master -----------------------------------------------------------------
    # (fpm's own scoreboards are small anonymous shared mappings: only 1M and
    # more count)
    big_shared_maps() { # pid -> its shared mappings of apc.shm_size (8M) that could be a cache segment
    # (opcache's shared memory is another /dev/zero mapping: 128M by default)
        local range perms off dev inode path lo hi
        while read -r range perms off dev inode path; do
            case "$perms" in *s) ;; *) continue ;; esac
            case "$path" in *dev/zero*|*shardcache*|*SYSV*) ;; *) continue ;; esac
            lo=$((16#${range%-*})); hi=$((16#${range#*-}))
            [ $((hi - lo)) -eq 8388608 ] && echo "$range $path"
        done <"/proc/$1/maps"
        return 0
    }
    maps="$(big_shared_maps "$FPM_PID")"
    # A worker leaves the parent's anonymous segment at its first request:
    # look at one that has just answered (any first child of the master may
    # not have served a request yet, and still maps it).
    wpid="$(req a 'op=whoami' | sed -n 's/.*pid=\([0-9][0-9]*\).*/\1/p')"
    wmaps="$(big_shared_maps "${wpid:-$(web_children "$FPM_PID" | head -n 1)}")"
    echo "a worker's cache mapping (pid ${wpid:-?}): ${wmaps:-none}"
    if [ "$MODE" = global ]; then
        [ -z "$maps" ]; sc_check "master$SFX" $? "${maps:-no shared mapping of apc.shm_size in the master (pid $FPM_PID)}"
    else
        # php.ini names no segment: the master made the anonymous one (for
        # pools without a named segment); these workers left it for their file.
        [ -n "$maps" ] && [ -n "$wmaps" ] && ! grep -q dev/zero <<<"$wmaps"
        sc_check "master$SFX" $? "master: ${maps:-none}; worker: ${wmaps:-none}"
    fi
    
    # ---- isolation --------------------------------------------------------------
    sa="$(req a 'op=store&k=shared-name&v=from-a')"; sb="$(req b 'op=store&k=only-b&v=from-b')"
    ga="$(all_workers a 'op=fetch&k=shared-name')"; gb="$(all_workers b 'op=fetch&k=shared-name')"
    ga2="$(all_workers a 'op=fetch&k=only-b')"; gb2="$(all_workers b 'op=fetch&k=only-b')"
    [ "$sa $sb" = "stored stored" ] && [ "$ga" = from-a ] && [ "$gb" = miss ] && [ "$ga2" = miss ] && [ "$gb2" = from-b ]
    sc_check "isolation$SFX" $? "A stores shared-name: A sees '$ga', B sees '$gb'; B stores only-b: A sees '$ga2', B sees '$gb2'"
    
    # ---- cli-a ------------------------------------------------------------------
    out="$(cli sc-pool-a "$SEG_A" 'var_dump(apcu_fetch("shared-name"), apcu_store("from-cli", "cli"), apcu_cache_info()["num_entries"]);')"
    seen="$(all_workers a 'op=fetch&k=from-cli')"
    clr="$(cli sc-pool-a "$SEG_A" 'var_dump(apcu_clear_cache(), apcu_cache_info()["num_entries"]);')"
    after="$(all_workers a 'op=fetch&k=shared-name')"; bkeeps="$(all_workers b 'op=fetch&k=only-b')"
    exp_out=$'string(6) "from-a"\nbool(true)\nint(2)'
    exp_clr=$'bool(true)\nint(0)'
    [ "$out" = "$exp_out" ] && [ "$seen" = cli ] && [ "$clr" = "$exp_clr" ] && [ "$after" = miss ] && [ "$bkeeps" = from-b ]
    sc_check "cli-a$SFX" $? "CLI read: $(echo $out); pool A sees the CLI's store: '$seen'; CLI clear: $(echo $clr); pool A after: '$after'; pool B keeps: '$bkeeps'"
    
    # ---- cli-b ------------------------------------------------------------------
    req a 'op=store&k=guarded&v=a-secret' >/dev/null
    out="$(cli sc-pool-b "$SEG_A" 'var_dump(apcu_enabled(), apcu_fetch("guarded"), apcu_store("guarded", "b-was-here"));')"
    still="$(all_workers a 'op=fetch&k=guarded')"
    exp=$'bool(true)\nbool(false)\nbool(true)'
    case "$out" in *"Warning"*"$SEG_A"*"this process uses a private anonymous segment instead"*) w=0 ;; *) w=1 ;; esac
    [ "$w" -eq 0 ] && [ "$(echo "$out" | grep -v '^$' | grep -v Warning)" = "$exp" ] && [ "$still" = a-secret ]
    sc_check "cli-b$SFX" $? "$(echo $out); pool A still has '$still'"
    
    # ---- restart ----------------------------------------------------------------
    req a 'op=store&k=persist&v=a-survives' >/dev/null
    boots_before="$(req a op=whoami | sed -n 's/.*(file, \([0-9]*\) boots).*/\1/p')"
    fpm_stop
    start_fpm || abort "php-fpm did not start again"
    pa="$(all_workers a 'op=fetch&k=persist')"; pb="$(all_workers b 'op=fetch&k=only-b')"
    boots_after="$(req a op=whoami | sed -n 's/.*(file, \([0-9]*\) boots).*/\1/p')"
    [ "$pa" = a-survives ] && [ "$pb" = from-b ] && [ -n "$boots_before" ] && [ "${boots_after:-0}" -eq $((boots_before + 1)) ]
    sc_check "restart$SFX" $? "after the restart pool A has '$pa', pool B has '$pb'; boots $boots_before -> $boots_after"
fpm_stop
}
run_mode global
run_mode pool-only

# ---- squatted -----------------------------------------------------------------
rm -f "$SHM"/* "$SHM"/.*.lock
INI=(-d apc.enabled=1 -d apc.shm_size=8M)
# The attacker shares pool A's group, as in the attack on group-shared
# segments: his segment is one pool A's workers can open and map.
id -nG sc-pool-x | grep -qw sc-pool-a || usermod -aG sc-pool-a sc-pool-x || abort "cannot add sc-pool-x to sc-pool-a"
xphp() { runuser -u sc-pool-x -g sc-pool-a -- php -n -d "extension=$SO" -d apc.enable_cli=1 -d apc.shm_size=8M \
    -d "shardcache.segment=$SEG_A" -d shardcache.segment_mode=0660 -d display_errors=stderr -r "$1" 2>&1; }
planted="$(xphp 'var_dump(apcu_store("planted", "evil"));')"
runuser -u sc-pool-x -- mkfifo -m 0666 "$SEG_B"
echo "--- squatted: pool A's path: $(stat -c '%U %a %s' "$SEG_A" 2>&1); pool B's: $(stat -c '%U %F' "$SEG_B" 2>&1)"
log_from=$(($(wc -l <"$WEB_TMP/php-fpm.log" 2>/dev/null || echo 0) + 1))
start_fpm || abort "php-fpm did not start (squatted)"
wa="$(php -n "$FCGI" "$WEB_TMP/a.sock" "$PAGE" op=whoami 2>>"$WEB_TMP/fcgi.err")"
wb="$(php -n "$FCGI" "$WEB_TMP/b.sock" "$PAGE" op=whoami 2>>"$WEB_TMP/fcgi.err")"
xuid="$(id -u sc-pool-x)"
ok=1
case "$wa" in "user=sc-pool-a enabled=1 segment=anonymous, private to this process: shardcache.segment refused: $SEG_A is owned by uid $xuid, not by this process's user"*)
    case "$wb" in "user=sc-pool-b enabled=1 segment=anonymous, private to this process: shardcache.segment refused: $SEG_B is not a regular file"*) ok=0 ;; esac ;; esac
sc_check "squat-refused" "$ok" "pool a: $wa; pool b: $wb"
# (the workers' warnings reach the master's log through catch_workers_output)
log="$(tail -n "+$log_from" "$WEB_TMP/php-fpm.log")"
grep -q "pool a.*$SEG_A is owned by uid $xuid.*private anonymous segment instead" <<<"$log" \
    && grep -q "pool b.*$SEG_B is not a regular file.*private anonymous segment instead" <<<"$log"
sc_check "squat-logged" $? "$(echo "$log" | grep -c 'private anonymous segment instead') refusals in php-fpm's log"
ga="$(all_workers a 'op=storefetch&k=mine&v=a-value')"; gb="$(all_workers b 'op=storefetch&k=mine&v=b-value')"
gp="$(all_workers a 'op=fetch&k=planted')"
[ "$planted" = "bool(true)" ] && [ "$ga" = a-value ] && [ "$gb" = b-value ] && [ "$gp" = miss ]
sc_check "squat-works" $? "attacker's store: $planted; pool A: '$ga', planted: '$gp'; pool B: '$gb'"
seen="$(xphp 'var_dump(apcu_fetch("planted"), apcu_fetch("mine"), apcu_cache_info()["num_entries"]);' | tr '\n' ' ')"
[ "$seen" = 'string(4) "evil" bool(false) int(1) ' ] && [ -p "$SEG_B" ]
sc_check "squat-untouched" $? "the attacker's segment: $seen; pool B's path: $(stat -c %F "$SEG_B" 2>&1)"
fpm_stop

if [ "$FAIL" -ne 0 ]; then
    echo "--- php errors:"; cat "$WEB_TMP/php-errors.log" 2>/dev/null | tail -20
    echo "--- fpm log:"; tail -20 "$WEB_TMP/php-fpm.log" 2>/dev/null
    echo "--- fcgi errors:"; tail -20 "$WEB_TMP/fcgi.err" 2>/dev/null
fi
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
