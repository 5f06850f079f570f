#!/usr/bin/env bash
# The Debian package installed, upgraded and purged in a private bookworm
# root, with php-fpm behind nginx serving a page from the cache. Run by
# tests/debian/run.sh inside new mount and network namespaces
# (unshare -m -n): the root is an overlay over the cached root ROOTFS (its
# changes go to WORK/upper), the only network is the namespace's own
# loopback (so apt can download nothing, and the servers' port is free), and
# every mount goes with the namespace.
#
#   inside.sh ROOTFS WORK DEB VERSION DEB2 VERSION2
#
# In the root, in this order (each check prints "ok:" or "FAIL:"):
#   install   apt-get install ./DEB: the module is enabled for the CLI and
#             php-fpm (phpquery, the conf.d link, php -m / php-fpm8.2 -m) and
#             the CLI stores and fetches with apc.enable_cli=1
#   serve     php-fpm (pm.max_requests = 1: each request in a new worker)
#             behind nginx on 127.0.0.1; page.php answers two requests: the
#             second worker reads what the first one stored and counts on
#             from its counter (apcu_* and shardcache_* names, one cache)
#   upgrade   the administrator disables the module for the CLI
#             (phpdismod), then apt-get install ./DEB2 (VERSION2): the CLI
#             stays disabled, php-fpm enabled; phpenmod brings the CLI back;
#             the page again after a php-fpm restart
#   purge     apt-get purge: every file dpkg listed is gone, no conf.d link
#             and no phpenmod state of shardcache is left, the module is
#             gone from both SAPIs, the page says so, and the file listing
#             of /etc, /usr and /var/lib/php (with /etc's checksums) equals
#             the one taken before the install. Both the file check and the
#             listing check are also run where they must find a difference
#             (while the package is installed): checks that can fail.
#   apcu      php8.2-apcu installed first (from apt's cache), then DEB2:
#             both modules load, APCu answers apcu_* and shardcache its
#             shardcache_* names with a cache of its own (the page's two
#             counters count separately); after apt-get purge php8.2-apcu,
#             shardcache answers apcu_* again
# Last line: "inside: N passed, N failed".
set -uo pipefail

ROOTFS="$1" WORK="$2" DEB="$3" VERSION="$4" DEB2="$5" VERSION2="$6"
PORT=8080
R="$WORK/root"
PASS=0
FAIL=0
ok()  { PASS=$((PASS + 1)); echo "ok:   $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }

# ir CMD: CMD (bash -c) in the root, with a clean environment.
ir() {
    chroot "$R" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/bash -c "$1"
}

# ---- servers ------------------------------------------------------------------
pid_of() { cat "$R/run/sc-$1.pid" 2>/dev/null; }
stop_one() { # NAME: stop the server of that pid file and wait until it is gone
    local pid i
    pid="$(pid_of "$1")"
    [ -n "$pid" ] || return 0
    kill -TERM "$pid" 2>/dev/null
    for i in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null
    rm -f "$R/run/sc-$1.pid"
}
stop_servers() { stop_one nginx; stop_one fpm; }
start_fpm() {
    ir "php-fpm8.2 --fpm-config /tmp/sc/fpm.conf" || { bad "php-fpm8.2 did not start"; tail -n 20 "$R/var/log/sc-fpm.log"; return 1; }
}
restart_fpm() { stop_one fpm; start_fpm; }
start_servers() {
    start_fpm || return 1
    ir "nginx -c /tmp/sc/nginx.conf" || { bad "nginx did not start"; tail -n 20 "$R/var/log/sc-nginx.log"; return 1; }
}
request() { curl -sS -m 10 "http://127.0.0.1:$PORT/page.php" 2>&1 | tr '\n' ' ' | sed 's/ $//'; }
# ready: polls (5 s at most) until php-fpm answers ping.php through nginx
# (ping.php does not touch the cache).
ready() {
    local i
    for i in $(seq 1 50); do
        [ "$(curl -s -m 2 "http://127.0.0.1:$PORT/ping.php" 2>/dev/null)" = pong ] && return 0
        sleep 0.1
    done
    bad "php-fpm does not answer through nginx on 127.0.0.1:$PORT"
    tail -n 10 "$R/var/log/sc-fpm.log" "$R/var/log/sc-nginx.log" 2>/dev/null | sed 's/^/    /'
    return 1
}

finish() {
    stop_servers
    echo "inside: $PASS passed, $FAIL failed"
    exit 0
}
trap 'stop_servers' EXIT

# ---- the root -------------------------------------------------------------------
mkdir -p "$WORK/upper" "$WORK/ovlwork" "$R"
if ! mount -t overlay overlay -o "lowerdir=$ROOTFS,upperdir=$WORK/upper,workdir=$WORK/ovlwork" "$R"; then
    bad "cannot mount an overlay over $ROOTFS"; finish
fi
mount -t proc proc "$R/proc" && mount --rbind /dev "$R/dev" \
    && mount -t tmpfs -o mode=1777 tmpfs "$R/dev/shm" || { bad "cannot mount /proc, /dev in the root"; finish; }
ip link set lo up || { bad "cannot bring up the namespace's loopback"; finish; }

mkdir -p "$R/tmp/sc" "$R/srv/sc"
cp "$DEB" "$DEB2" "$R/tmp/sc/"
DEB1N="./${DEB##*/}" DEB2N="./${DEB2##*/}"
cat >"$R/tmp/sc/fpm.conf" <<'EOF'
[global]
pid = /run/sc-fpm.pid
error_log = /var/log/sc-fpm.log
daemonize = yes

[sc]
user = www-data
group = www-data
listen = /run/sc-fpm.sock
listen.owner = www-data
listen.group = www-data
listen.mode = 0660
pm = static
pm.max_children = 2
; every request in a new worker process: what the second request reads was
; stored by another process
pm.max_requests = 1
catch_workers_output = yes
EOF
cat >"$R/tmp/sc/nginx.conf" <<EOF
user www-data;
worker_processes 1;
pid /run/sc-nginx.pid;
error_log /var/log/sc-nginx.log;
events { worker_connections 64; }
http {
    access_log off;
    server {
        listen 127.0.0.1:$PORT;
        root /srv/sc;
        location ~ \\.php\$ {
            include /etc/nginx/fastcgi_params;
            fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
            fastcgi_pass unix:/run/sc-fpm.sock;
        }
    }
}
EOF
echo '<?php echo "pong";' >"$R/srv/sc/ping.php"
cat >"$R/srv/sc/page.php" <<'EOF'
<?php
// One line per item: the versions of the two module names, then what the
// apcu_* and the shardcache_* names see: who stored "stored_by" (the first
// request's worker), the counter "hits" after this request's increment.
header('Content-Type: text/plain');
$r = ['shardcache' => phpversion('shardcache') ?: 'none', 'apcu' => phpversion('apcu') ?: 'none'];
if (function_exists('apcu_add')) {
    apcu_add('stored_by', getmypid());
    $r['apcu_stored_by'] = apcu_fetch('stored_by');
    $r['apcu_hits'] = apcu_inc('hits');
}
if (function_exists('shardcache_add')) {
    shardcache_add('stored_by', getmypid());
    $r['sc_stored_by'] = shardcache_fetch('stored_by');
    $r['sc_hits'] = shardcache_inc('hits');
}
$r['me'] = getmypid();
foreach ($r as $k => $v) {
    echo $k, '=', is_bool($v) ? ($v ? 'true' : 'false') : $v, "\n";
}
EOF

apt_in() { # LABEL CMD: an apt-get command in the root, its output in WORK/apt.log
    if ir "$2" >"$WORK/apt.log" 2>&1; then
        return 0
    fi
    bad "$1: '$2' failed:"; tail -n 25 "$WORK/apt.log" | sed 's/^/    /'
    return 1
}
version_is() { # LABEL VERSION
    local got
    got="$(ir "dpkg-query -W -f='\${Status} \${Version}' php8.2-shardcache" 2>/dev/null)"
    [ "$got" = "install ok installed $2" ] && ok "$1: php8.2-shardcache $2 installed" \
        || bad "$1: dpkg says '$got', expected 'install ok installed $2'"
}
# sapi_state SAPI: "enabled" (phpquery says so, the conf.d link points to
# mods-available/shardcache.ini, and the SAPI's PHP lists the module),
# "disabled" (none of the three) or what each says.
sapi_state() {
    local sapi="$1" q=no l=no m=no bin=php
    [ "$sapi" = fpm ] && bin=php-fpm8.2
    ir "phpquery -q -v 8.2 -s $sapi -m shardcache" && q=yes
    [ "$(readlink "$R/etc/php/8.2/$sapi/conf.d/30-shardcache.ini")" = /etc/php/8.2/mods-available/shardcache.ini ] && l=yes
    # (the output is read whole first: under pipefail, grep -q stopping
    # early could fail the pipeline with the writer's SIGPIPE)
    local mods
    mods="$(ir "$bin -m" 2>/dev/null)"
    grep -qx shardcache <<<"$mods" && m=yes
    case "$q$l$m" in
        yesyesyes) echo enabled ;;
        nonono) echo disabled ;;
        *) echo "phpquery=$q link=$l loaded=$m" ;;
    esac
}
expect_state() { # LABEL CLI-STATE FPM-STATE
    local c f
    c="$(sapi_state cli)" f="$(sapi_state fpm)"
    [ "$c" = "$2" ] && [ "$f" = "$3" ] && ok "$1: cli $c, fpm $f" \
        || bad "$1: cli $c, fpm $f (expected cli $2, fpm $3)"
}
# page_pair LABEL EXPECT1 EXPECT2: php-fpm restarted (a new, empty cache,
# and the module state just set), then two requests; in the expectations P1 and
# P2 stand for the pids of the workers that served requests 1 and 2.
page_pair() {
    local b1 b2 p1 p2 e1 e2
    restart_fpm && ready || return
    b1="$(request)"; p1="$(sed -n 's/.*me=\([0-9]*\).*/\1/p' <<<"$b1")"
    b2="$(request)"; p2="$(sed -n 's/.*me=\([0-9]*\).*/\1/p' <<<"$b2")"
    e1="${2//P1/$p1}"; e2="${3//P1/$p1}"; e2="${e2//P2/$p2}"
    if [ -n "$p1" ] && [ -n "$p2" ] && [ "$p1" != "$p2" ] && [ "$b1" = "$e1" ] && [ "$b2" = "$e2" ]; then
        ok "$1: request 1 [$b1], request 2 [$b2]"
    else
        bad "$1: request 1 [$b1] expected [$e1]; request 2 [$b2] expected [$e2] (two workers: $p1 $p2)"
        tail -n 10 "$R/var/log/sc-fpm.log" | sed 's/^/    fpm: /'
    fi
}
snapshot() { # FILE: the files and links of /etc, /usr, /var/lib/php; /etc's checksums
    ir 'find /etc /usr /var/lib/php -xdev ! -type d -printf "%p %l\n" | LC_ALL=C sort
        find /etc -xdev -type f ! -name ld.so.cache -exec md5sum {} + | LC_ALL=C sort' >"$WORK/$1"
}
still_there() { # LIST: how many of the paths in LIST exist in the root
    local n=0 p
    while IFS= read -r p; do
        [ -e "$R$p" ] || [ -L "$R$p" ] && n=$((n + 1))
    done <"$1"
    echo "$n"
}

# The page with shardcache alone: apcu_* and shardcache_* are one cache (its
# counter counts twice per request).
ALONE1="shardcache=${VERSION%-*} apcu=5.1.28 apcu_stored_by=P1 apcu_hits=1 sc_stored_by=P1 sc_hits=2 me=P1"
ALONE2="shardcache=${VERSION%-*} apcu=5.1.28 apcu_stored_by=P1 apcu_hits=3 sc_stored_by=P1 sc_hits=4 me=P2"

snapshot before.list

# ---- install --------------------------------------------------------------------
if apt_in install "cd /tmp/sc && apt-get install -y $DEB1N"; then
    version_is install "$VERSION"
    expect_state install enabled enabled
    cli="$(ir 'php -d apc.enable_cli=1 -r '\''apcu_store("k", [1, "two"]); echo json_encode(apcu_fetch("k")), " ", phpversion("shardcache");'\''' 2>&1)"
    [ "$cli" = "[1,\"two\"] ${VERSION%-*}" ] && ok "install: the CLI stores and fetches ($cli)" \
        || bad "install: the CLI printed '$cli'"
    snapshot installed.list
    if start_servers; then
        page_pair serve "$ALONE1" "$ALONE2"
    fi
else
    finish
fi

# ---- upgrade --------------------------------------------------------------------
ir "phpdismod -v 8.2 -s cli shardcache"
expect_state "administrator's phpdismod -s cli" disabled enabled
if apt_in upgrade "cd /tmp/sc && apt-get install -y $DEB2N"; then
    version_is upgrade "$VERSION2"
    expect_state "upgrade keeps the administrator's choice" disabled enabled
    ir "phpenmod -v 8.2 -s cli shardcache"
    expect_state "administrator's phpenmod -s cli" enabled enabled
    page_pair "serve after the upgrade" "$ALONE1" "$ALONE2"
fi

# ---- purge ----------------------------------------------------------------------
ir "dpkg-query -L php8.2-shardcache" | while IFS= read -r p; do
    [ -n "$p" ] && { [ -L "$R$p" ] || [ ! -d "$R$p" ]; } && printf '%s\n' "$p"
done >"$WORK/files.list"
nfiles="$(wc -l <"$WORK/files.list")"
there="$(still_there "$WORK/files.list")"
# The check of the file check: with the package installed it must see them all.
[ "$nfiles" -gt 0 ] && [ "$there" -eq "$nfiles" ] \
    && ok "the file check sees all $nfiles files of the installed package (it can fail)" \
    || bad "the file check sees $there of the $nfiles files of the installed package"
if apt_in purge "apt-get purge -y php8.2-shardcache"; then
    st="$(ir "dpkg-query -W -f='\${Status}' php8.2-shardcache" 2>/dev/null)"
    case "$st" in ""|"unknown ok not-installed"|"purge ok not-installed") ok "purge: dpkg knows no php8.2-shardcache (${st:-none})" ;;
        *) bad "purge: dpkg status '$st'" ;; esac
    there="$(still_there "$WORK/files.list")"
    [ "$there" -eq 0 ] && ok "purge: none of the $nfiles files is left ($(paste -sd ' ' "$WORK/files.list"))" \
        || bad "purge: $there of the $nfiles files are left: $(while read -r p; do [ -e "$R$p" ] && echo "$p"; done <"$WORK/files.list" | paste -sd ' ')"
    links="$(find "$R/etc/php" -lname '*shardcache*' 2>/dev/null | sed "s|^$R||")"
    state="$(find "$R/var/lib/php" -name '*shardcache*' 2>/dev/null | sed "s|^$R||")"
    [ -z "$links$state" ] && ok "purge: no conf.d link and no phpenmod state left" \
        || bad "purge: left behind: $links $state"
    expect_state purge disabled disabled
    restart_fpm && ready
    b="$(request)"; p="$(sed -n 's/.*me=\([0-9]*\).*/\1/p' <<<"$b")"
    [ "$b" = "shardcache=none apcu=none me=$p" ] && [ -n "$p" ] && ok "purge: the page has no cache [$b]" \
        || bad "purge: the page answered [$b]"
    snapshot after.list
    if cmp -s "$WORK/before.list" "$WORK/after.list"; then
        ok "purge: /etc, /usr, /var/lib/php as before the install ($(wc -l <"$WORK/before.list") lines)"
    else
        bad "purge: /etc, /usr, /var/lib/php differ from before the install:"
        diff "$WORK/before.list" "$WORK/after.list" | head -n 20 | sed 's/^/    /'
    fi
    # The check of the listing check: with the package installed it differs.
    if ! cmp -s "$WORK/before.list" "$WORK/installed.list"; then
        ok "the listing check sees the installed package ($(diff "$WORK/before.list" "$WORK/installed.list" | grep -c '^>') lines more; it can fail)"
    else
        bad "the listing check saw no difference with the package installed"
    fi
fi

# ---- beside php8.2-apcu --------------------------------------------------------------
if apt_in apcu "apt-get install -y --no-download php8.2-apcu" \
        && apt_in "install after apcu" "cd /tmp/sc && apt-get install -y $DEB2N"; then
    version_is "install beside apcu" "$VERSION2"
    mods="$(ir 'php -m' | grep -xE 'apcu|shardcache' | paste -sd ' ')"
    [ "$mods" = "apcu shardcache" ] && ok "beside apcu: php -m lists $mods" || bad "beside apcu: php -m lists '$mods'"
    expect_state "beside apcu" enabled enabled
    av="$(ir 'php -r "echo phpversion(\"apcu\");"')"
    page_pair "beside apcu $av: two caches" \
        "shardcache=${VERSION%-*} apcu=$av apcu_stored_by=P1 apcu_hits=1 sc_stored_by=P1 sc_hits=1 me=P1" \
        "shardcache=${VERSION%-*} apcu=$av apcu_stored_by=P1 apcu_hits=2 sc_stored_by=P1 sc_hits=2 me=P2"
    [ "$av" != 5.1.28 ] && [ -n "$av" ] && ok "beside apcu: the apcu module is APCu's own ($av)" \
        || bad "beside apcu: phpversion('apcu') is '$av'"
    if apt_in "purge apcu" "apt-get purge -y php8.2-apcu"; then
        page_pair "after apt-get purge php8.2-apcu: shardcache answers apcu_*" "$ALONE1" "$ALONE2"
    fi
fi
finish
