# The start every php-fpm test script here shares (sourced after
# scripts/web/lib.sh, with WEB_NAME set): the options --so=PATH, --keep,
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
        -h|--help) sc_help "$0"; exit 0 ;;
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
