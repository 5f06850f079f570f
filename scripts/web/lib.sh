# scripts/web/lib.sh - the web kit: private php-fpm, nginx and Apache
# servers for one run, shared by the web benchmark (benchmarks/web/run.sh)
# and the tests that need a real server (tests/fpm/*.sh, tests/apache/run.sh;
# tests/browser/run.sh takes its free port).
#
#   WEB_NAME=NAME; . "$ROOT/scripts/web/lib.sh"
#
# (bash; it sources scripts/lib.sh, defines functions and WEB_* variables,
# runs nothing; NAME prefixes the messages.) Beside it: php-fpm.conf.in and
# nginx.conf.in, the configurations it renders, and report.lua, wrk's
# reporter. The caller sets WEB_PAGES, the folder nginx serves, before
# nginx_start.
#
# It owns one private php-fpm + nginx pair per run:
#   - everything lives in one mktemp directory ($WEB_TMP): the rendered
#     configs, the fpm socket, pid files, logs, nginx temp dirs;
#   - php-fpm8.2 runs with -n (no php.ini, no conf.d: Debian's conf.d would
#     load APCu) and exactly one cache extension given with -d extension=,
#     plus opcache; pm = static; it listens on a unix socket in $WEB_TMP;
#   - nginx listens on 127.0.0.1 on a free port only;
#   - both run in the foreground of a background job, so $! is their master
#     pid; they are stopped only through those pids (TERM, then KILL of the
#     master and of the children it had), never by name.
# Nothing here touches the system nginx or php-fpm service or their configs.
#
# Start-up, one function a server: fpm_start (one static pool: the
# benchmark, the abuse test), fpm_two_pools + fpm_start_pools (two pools as
# two users: tests/fpm/segments.sh, isolation.sh), nginx_start, and
# web_serve, the free-port start of any HTTP server (nginx; Apache in
# tests/apache/run.sh).

# shellcheck source=../lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

WEB_KIT="$SC_ROOT/scripts/web"
WEB_PAGES="${WEB_PAGES:-}"
WEB_TMP=""
WEB_PORT=""
WEB_SERVER_PID=""   # a server web_serve is starting (not yet up)
FPM_PID=""
FPM_RUN=0
NGINX_PID=""
FPM_BIN="${FPM_BIN:-php-fpm8.2}"
# Commands put in front of php-fpm and of nginx and wrk,
# e.g. (taskset -c 1): benchmarks/web/run.sh --pin keeps the load generator and the
# workers on different CPUs. taskset execs, so $! stays the server's pid.
WEB_FPM_PREFIX=()
WEB_LOAD_PREFIX=()

web_log() { echo "$WEB_NAME: $*"; }
web_err() { echo "$WEB_NAME: $*" >&2; }

# web_install PKG...  (Debian package names): installs what is missing
# (scripts/lib.sh's sc_apt_install: no system service starts meanwhile).
web_install() {
    local missing=()
    mapfile -t missing < <(sc_missing_pkgs "$@")
    [ "${#missing[@]}" -eq 0 ] && return 0
    sc_apt_install "$WEB_NAME" "${missing[@]}"
}

# web_resolve_so NAME_OR_PATH -> absolute path of the extension (a bare name
# such as apcu.so is looked up in PHP's extension_dir).
web_resolve_so() {
    case "$1" in
        */*) (cd "$(dirname "$1")" 2>/dev/null && echo "$PWD/$(basename "$1")") ;;
        *) echo "$(php -n -r 'echo ini_get("extension_dir");')/$1" ;;
    esac
}

web_tmp_init() {
    WEB_TMP="$(mktemp -d "${TMPDIR:-/tmp}/shardcache-web.XXXXXX")"
    # nginx workers (nobody when started as root) must reach the fpm socket.
    chmod 755 "$WEB_TMP"
    mkdir -p "$WEB_TMP/nginx-tmp"
}

# Stops what this run started and removes $WEB_TMP (unless WEB_KEEP=1).
web_cleanup() {
    web_stop_tree "$WEB_SERVER_PID" 5
    WEB_SERVER_PID=""
    nginx_stop
    fpm_stop
    if [ -n "$WEB_TMP" ] && [ -d "$WEB_TMP" ]; then
        if [ "${WEB_KEEP:-0}" = 1 ]; then
            web_log "kept $WEB_TMP"
        else
            rm -rf "$WEB_TMP"
        fi
    fi
}

# Children of a pid (from /proc, no pgrep needed).
web_children() {
    local parent="$1" f line rest
    for f in /proc/[0-9]*/stat; do
        { read -r line <"$f"; } 2>/dev/null || continue
        rest="${line##*) }"
        set -- $rest
        [ "$2" = "$parent" ] && { f="${f#/proc/}"; echo "${f%/stat}"; }
    done
    return 0
}

# web_cpu_ticks PID... -> "pid ticks" per live pid (utime + stime, in clock ticks)
web_cpu_ticks() {
    local pid line rest
    for pid in "$@"; do
        { read -r line <"/proc/$pid/stat"; } 2>/dev/null || continue
        rest="${line##*) }"
        set -- $rest
        echo "$pid $(( ${12} + ${13} ))"
    done
}

# Kills a process (TERM, then KILL after $2 seconds) and the children it had.
web_stop_tree() {
    local pid="$1" grace="$2" kids i
    [ -n "$pid" ] || return 0
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
    kids="$(web_children "$pid")"
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < grace * 20; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
    # Children that outlived their master (only those it had: ours).
    for i in $kids; do
        kill -KILL "$i" 2>/dev/null
    done
    return 0
}

web_free_port() {
    php -n -r '$s = stream_socket_server("tcp://127.0.0.1:0", $no, $str);
               if (!$s) exit(1);
               $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1);'
}

# web_render TEMPLATE OUT VAR=VALUE...  replaces @VAR@ (values must not hold '|').
web_render() {
    local tpl="$1" out="$2"; shift 2
    local args=() kv
    for kv in "$@"; do
        args+=(-e "s|@${kv%%=*}@|${kv#*=}|g")
    done
    sed "${args[@]}" "$tpl" >"$out"
}

# fpm_start SO WORKERS MAX_REQUESTS SHM [extra -d settings...]
# Starts php-fpm (one cache extension: SO) and waits until WORKERS workers
# are up and the socket exists.
fpm_start() {
    local so="$1" workers="$2" maxreq="$3" shm="$4"; shift 4
    FPM_RUN=$((FPM_RUN + 1))
    local conf="$WEB_TMP/php-fpm-$FPM_RUN.conf"
    FPM_LOG="$WEB_TMP/php-fpm-$FPM_RUN.log"
    PHP_ERRLOG="$WEB_TMP/php-errors-$FPM_RUN.log"
    rm -f "$WEB_TMP/php-fpm.sock"
    web_render "$WEB_KIT/php-fpm.conf.in" "$conf" "TMP=$WEB_TMP" "LOG=$FPM_LOG" \
        "WORKERS=$workers" "MAXREQ=$maxreq"
    local args=(-n -F -y "$conf" -d "extension=$so" -d apc.enabled=1 -d "apc.shm_size=$shm"
                -d log_errors=1 -d display_errors=0 -d "error_log=$PHP_ERRLOG"
                -d memory_limit=256M)
    local extdir opc
    extdir="$(php -n -r 'echo ini_get("extension_dir");')"
    opc="$extdir/opcache.so"
    if [ -f "$opc" ]; then
        args+=(-d "zend_extension=$opc" -d opcache.enable=1 -d opcache.validate_timestamps=0
               -d opcache.file_update_protection=0 -d opcache.jit=disable)
    fi
    [ "$(id -u)" -eq 0 ] && args+=(-R)
    ${WEB_FPM_PREFIX[@]+"${WEB_FPM_PREFIX[@]}"} "$FPM_BIN" "${args[@]}" "$@" \
        >"$WEB_TMP/php-fpm-$FPM_RUN.out" 2>&1 </dev/null &
    FPM_PID=$!
    fpm_wait_up "$workers" 200 "$WEB_TMP/php-fpm.sock" && return 0
    if [ -z "$FPM_PID" ]; then
        web_err "php-fpm exited at start:"
    else
        web_err "php-fpm did not start $workers workers within 10 s"
    fi
    cat "$WEB_TMP/php-fpm-$FPM_RUN.out" "$FPM_LOG" >&2 2>/dev/null
    fpm_stop
    return 1
}

# fpm_wait_up WORKERS POLLS SOCKET...: waits until the php-fpm master FPM_PID
# has WORKERS children and every SOCKET exists (0). Polls every 0.05 s, at
# most POLLS times (2: not up in time; POLLS 0: no limit, the wait ends only
# when php-fpm is up or its master has ended); when the master has ended it
# empties FPM_PID and returns 1.
fpm_wait_up() {
    local workers="$1" polls="$2" i sock up; shift 2
    for ((i = 0; polls == 0 || i < polls; i++)); do
        if ! kill -0 "$FPM_PID" 2>/dev/null; then
            wait "$FPM_PID" 2>/dev/null
            FPM_PID=""
            return 1
        fi
        up=1
        for sock in "$@"; do [ -S "$sock" ] || up=0; done
        [ "$up" -eq 1 ] && [ "$(web_children "$FPM_PID" | wc -l)" -ge "$workers" ] && return 0
        sleep 0.05
    done
    return 2
}

# fpm_two_pools USER_A USER_B CHILDREN [A_LINE] [B_LINE]: writes php-fpm's
# configuration to $WEB_TMP/php-fpm.conf (printed: the path) with two
# static pools, a and b, of CHILDREN workers each, running as USER_A and
# USER_B and listening on $WEB_TMP/a.sock and b.sock; the optional lines go
# at the end of each pool (e.g. a php_admin_value).
fpm_two_pools() {
    local conf="$WEB_TMP/php-fpm.conf" name user extra
    printf '[global]\npid = %s/php-fpm.pid\nerror_log = %s/php-fpm.log\nlog_level = notice\ndaemonize = no\nprocess_control_timeout = 5s\n' \
        "$WEB_TMP" "$WEB_TMP" >"$conf"
    for name in a b; do
        if [ "$name" = a ]; then user=$1 extra=${4:-}; else user=$2 extra=${5:-}; fi
        printf '\n[%s]\nuser = %s\ngroup = %s\nlisten = %s/%s.sock\nlisten.mode = 0666\npm = static\npm.max_children = %s\ncatch_workers_output = yes\n' \
            "$name" "$user" "$user" "$WEB_TMP" "$name" "$3" >>"$conf"
        [ -z "$extra" ] || printf '%s\n' "$extra" >>"$conf"
    done
    printf '%s\n' "$conf"
}

# fpm_start_pools CONF SO WORKERS [extra -d settings...]: starts php-fpm with
# CONF (fpm_two_pools') and the extension SO (plus posix), its PHP errors in
# $WEB_TMP/php-errors.log and its output appended to $WEB_TMP/php-fpm.out,
# and waits until both pools listen with WORKERS workers in all, or the
# master has ended (no time limit: a loaded machine starts workers late;
# the phase's own timeout catches a hang). On failure prints php-fpm's
# output and returns 1.
fpm_start_pools() {
    local conf="$1" so="$2" workers="$3"; shift 3
    rm -f "$WEB_TMP/a.sock" "$WEB_TMP/b.sock"
    "$FPM_BIN" -n -F -y "$conf" -d "extension=$so" -d extension=posix "$@" -d log_errors=1 \
        -d display_errors=0 -d "error_log=$WEB_TMP/php-errors.log" >>"$WEB_TMP/php-fpm.out" 2>&1 </dev/null &
    FPM_PID=$!
    fpm_wait_up "$workers" 0 "$WEB_TMP/a.sock" "$WEB_TMP/b.sock" && return 0
    cat "$WEB_TMP/php-fpm.out" >&2
    fpm_stop
    return 1
}

fpm_stop() {
    [ -n "$FPM_PID" ] || return 0
    web_stop_tree "$FPM_PID" 5
    FPM_PID=""
}

fpm_workers() { [ -n "$FPM_PID" ] && web_children "$FPM_PID"; }

# web_serve NAME START PROBE CODE LOG...: starts an HTTP server on a free
# 127.0.0.1 port. WEB_PORT gets a free port and the caller's function
# `START PORT` renders the server's configuration and starts it in the
# background, setting WEB_SERVER_PID; then http://127.0.0.1:PORT/PROBE is
# asked (200 times at most, 0.05 s apart) until it answers CODE: 0, the pid in
# WEB_SERVER_PID. Up to 5 tries, because a port found free can be taken
# before the server binds it: a try that fails is stopped, and the next
# one follows only when a LOG says "Address already in use". Otherwise
# prints "NAME did not start:" and the LOGs, and returns 1.
web_serve() {
    local name="$1" start="$2" probe="$3" code="$4" try i; shift 4
    for try in 1 2 3 4 5; do
        WEB_PORT="$(web_free_port)" || { web_err "no free port"; return 1; }
        "$start" "$WEB_PORT"
        for ((i = 0; i < 200; i++)); do
            kill -0 "$WEB_SERVER_PID" 2>/dev/null || break
            [ "$(web_http "http://127.0.0.1:$WEB_PORT/$probe" 2 | head -n 1)" = "$code" ] && return 0
            sleep 0.05
        done
        web_stop_tree "$WEB_SERVER_PID" 5
        WEB_SERVER_PID=""
        grep -q 'Address already in use' "$@" 2>/dev/null || break
    done
    web_err "$name did not start:"
    cat "$@" >&2 2>/dev/null
    return 1
}

# nginx_start ACCESS_LOG ("off" or a path): nginx serving WEB_PAGES on a free
# 127.0.0.1 port ($WEB_PORT), its master in NGINX_PID.
nginx_start() {
    WEB_NGINX_ACCESS="$1"
    [ "$1" = off ] || WEB_NGINX_ACCESS="$1 sclog"
    web_serve nginx nginx_launch nothing-here 404 "$WEB_TMP/nginx.out" "$WEB_TMP/nginx-error.log" || return 1
    NGINX_PID="$WEB_SERVER_PID"
    WEB_SERVER_PID=""
}

nginx_launch() { # PORT (web_serve's START)
    local conf="$WEB_TMP/nginx.conf"
    web_render "$WEB_KIT/nginx.conf.in" "$conf" "TMP=$WEB_TMP" "PORT=$1" \
        "PAGES=$WEB_PAGES" "ACCESS=$WEB_NGINX_ACCESS"
    ${WEB_LOAD_PREFIX[@]+"${WEB_LOAD_PREFIX[@]}"} nginx -e "$WEB_TMP/nginx-error.log" -p "$WEB_TMP" -c "$conf" \
        >"$WEB_TMP/nginx.out" 2>&1 </dev/null &
    WEB_SERVER_PID=$!
}

nginx_stop() {
    [ -n "$NGINX_PID" ] || return 0
    web_stop_tree "$NGINX_PID" 5
    NGINX_PID=""
}

# web_http URL TIMEOUT -> first line: HTTP status (000 when no answer), then the
# body. Uses PHP's http wrapper (no curl needed).
web_http() {
    php -n -r '
        $ctx = stream_context_create(["http" => ["timeout" => (float) $argv[2], "ignore_errors" => true]]);
        $body = @file_get_contents($argv[1], false, $ctx);
        if ($body === false || empty($http_response_header)) { echo "000\n"; exit(1); }
        preg_match("#^HTTP/\S+ (\d+)#", $http_response_header[0], $m);
        echo ($m[1] ?? "000"), "\n", $body;' "$1" "$2"
}

# web_wrk OUT_FILE WRK_ARGS... : runs wrk (behind WEB_LOAD_PREFIX) with the
# result reporter, which paces its requests when WRK_PACE_US is in the
# environment; the WRKRESULT line of the output is parsed by web_wrk_field.
web_wrk() {
    local out="$1"; shift
    ${WEB_LOAD_PREFIX[@]+"${WEB_LOAD_PREFIX[@]}"} wrk -s "$WEB_KIT/report.lua" "$@" >"$out" 2>&1 </dev/null
}

# web_wrk_field FILE NAME -> value of NAME= on the WRKRESULT line (empty if none)
web_wrk_field() {
    grep -m1 '^WRKRESULT ' "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p"
}
