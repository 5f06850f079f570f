# benchmarks/web/lib.sh - shared by benchmarks/web/run.sh and tests/fpm/abuse.sh
# (source it; it defines functions and WEB_* variables, runs nothing).
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

# sc_missing_pkgs, sc_apt_install
. "$ROOT/scripts/lib.sh"

WEB_DIR="$ROOT/benchmarks/web"
WEB_PAGES="$WEB_DIR/pages"
WEB_TMP=""
WEB_PORT=""
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
    web_render "$WEB_DIR/php-fpm.conf.in" "$conf" "TMP=$WEB_TMP" "LOG=$FPM_LOG" \
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
    local i n
    for ((i = 0; i < 200; i++)); do
        if ! kill -0 "$FPM_PID" 2>/dev/null; then
            web_err "php-fpm exited at start:"
            cat "$WEB_TMP/php-fpm-$FPM_RUN.out" "$FPM_LOG" >&2 2>/dev/null
            wait "$FPM_PID" 2>/dev/null
            FPM_PID=""
            return 1
        fi
        n="$(web_children "$FPM_PID" | wc -l)"
        if [ -S "$WEB_TMP/php-fpm.sock" ] && [ "$n" -ge "$workers" ]; then
            return 0
        fi
        sleep 0.05
    done
    web_err "php-fpm did not start $workers workers within 10 s"
    cat "$WEB_TMP/php-fpm-$FPM_RUN.out" "$FPM_LOG" >&2 2>/dev/null
    fpm_stop
    return 1
}

fpm_stop() {
    [ -n "$FPM_PID" ] || return 0
    web_stop_tree "$FPM_PID" 5
    FPM_PID=""
}

fpm_workers() { [ -n "$FPM_PID" ] && web_children "$FPM_PID"; }

# nginx_start ACCESS_LOG ("off" or a path): on a free 127.0.0.1 port ($WEB_PORT).
nginx_start() {
    local access="$1" try conf="$WEB_TMP/nginx.conf" i code
    [ "$access" = off ] || access="$access sclog"
    for try in 1 2 3 4 5; do
        WEB_PORT="$(web_free_port)" || { web_err "no free port"; return 1; }
        web_render "$WEB_DIR/nginx.conf.in" "$conf" "TMP=$WEB_TMP" "PORT=$WEB_PORT" \
            "PAGES=$WEB_PAGES" "ACCESS=$access"
        ${WEB_LOAD_PREFIX[@]+"${WEB_LOAD_PREFIX[@]}"} nginx -e "$WEB_TMP/nginx-error.log" -p "$WEB_TMP" -c "$conf" \
            >"$WEB_TMP/nginx.out" 2>&1 </dev/null &
        NGINX_PID=$!
        for ((i = 0; i < 100; i++)); do
            kill -0 "$NGINX_PID" 2>/dev/null || break
            code="$(web_http "http://127.0.0.1:$WEB_PORT/nothing-here" 2 | head -n 1)"
            [ "$code" = 404 ] && return 0
            sleep 0.05
        done
        web_stop_tree "$NGINX_PID" 2
        NGINX_PID=""
        if ! grep -q 'Address already in use' "$WEB_TMP/nginx-error.log" "$WEB_TMP/nginx.out" 2>/dev/null; then
            break
        fi
    done
    web_err "nginx did not start:"
    cat "$WEB_TMP/nginx.out" "$WEB_TMP/nginx-error.log" >&2 2>/dev/null
    return 1
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
    ${WEB_LOAD_PREFIX[@]+"${WEB_LOAD_PREFIX[@]}"} wrk -s "$WEB_DIR/report.lua" "$@" >"$out" 2>&1 </dev/null
}

# web_wrk_field FILE NAME -> value of NAME= on the WRKRESULT line (empty if none)
web_wrk_field() {
    grep -m1 '^WRKRESULT ' "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p"
}
