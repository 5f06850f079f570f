# The start every php-fpm test script here shares (sourced after
# benchmarks/web/lib.sh, with WEB_NAME set): the options --so=PATH, --keep,
# --no-install and --help; the pass/fail counts (scripts/lib.sh's
# sc_check, and abort: the last line is "N passed, N failed"); root, php8.2-fpm and the module checked.
# Afterwards SO is the module's path; PASS and FAIL count the checks.
SO="$ROOT/modules/shardcache.so"
INSTALL=1
for arg in "$@"; do
    case "$arg" in
        --so=*) SO="${arg#*=}" ;;
        --keep) WEB_KEEP=1 ;;
        --no-install) INSTALL=0 ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "$WEB_NAME: unknown option $arg" >&2; exit 2 ;;
    esac
done

PASS=0
FAIL=0
abort() {
    web_err "$*"
    echo "$PASS passed, $((FAIL + 1)) failed"
    exit 1
}

[ "$(id -u)" -eq 0 ] || abort "needs root (pools run as two other users)"
if [ "$INSTALL" -eq 1 ]; then
    web_install php8.2-fpm || abort "could not install php8.2-fpm"
fi
command -v "$FPM_BIN" >/dev/null 2>&1 || abort "$FPM_BIN not found (run without --no-install)"
SO="$(web_resolve_so "$SO")"
[ -f "$SO" ] || abort "$SO not found (build it: bash scripts/build.sh)"

# Writes php-fpm's configuration to $WEB_TMP/php-fpm.conf (printed: the
# path) with two static pools, a and b, listening on $WEB_TMP/a.sock and
# b.sock: fpm_two_pools USER_A USER_B CHILDREN [A_LINE] [B_LINE], where
# the optional lines go at the end of each pool (e.g. a php_admin_value).
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
