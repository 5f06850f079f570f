# scripts/lib.sh - shell code shared by the three entry points (scripts/build.sh,
# scripts/test.sh, scripts/bench.sh) and by the runners that live beside their
# tests (tests/<area>/run.sh ...) and benchmarks (benchmarks/*.sh).
#
#   . "$ROOT/scripts/lib.sh"      (bash; defines functions and SC_ROOT only)
#
# Functions:
#   sc_help FILE                 print FILE's header comment (from line 2 to
#                                the first `set -` line), without the "# "
#   sc_missing_pkgs PKG...       print the Debian packages not installed
#   sc_apt_install TAG [PKG...]  apt-get update, then apt-get install PKG...
#                                (as root, or with sudo -n), waiting for the
#                                dpkg lock; while installing, a temporary
#                                /usr/sbin/policy-rc.d (exit 101) keeps the
#                                packages from starting system services
#                                (apache2, nginx, php-fpm, redis), unless one
#                                exists already; TAG prefixes the messages
#   sc_junit_counts NAME JUNIT RC
#                                read a PHPUnit JUnit log and print
#                                "NAME: N passed, N failed, N skipped" (the
#                                line scripts/test.sh counts); RC is PHPUnit's
#                                exit status (non-zero with no failed test
#                                counts as one failure); returns 0 only when
#                                all passed and at least one test ran
#   sc_gdb_stop PID LOG PATTERN GDB_ARGS...
#                                attach gdb to PID in batch mode with
#                                GDB_ARGS (e.g. -ex 'break f' -ex continue
#                                ... -ex kill), output to LOG; returns 0 when
#                                LOG matches PATTERN (the process stopped
#                                where it should), else prints LOG's tail
#   sc_so_option NAME FILE ARGS...
#                                the options of a runner that takes only
#                                --so=PATH and --help (FILE's header): sets
#                                SO (default <root>/modules/shardcache.so);
#                                exits on --help or an unknown option
#   sc_suite_args WITH_APCU FILE ARGS...
#                                the options of a PHPUnit suite runner:
#                                [--apcu] [extension.so] [-- phpunit args]
#                                (--apcu only when WITH_APCU is 1); sets EXT
#                                (default $SO, else <root>/modules/shardcache.so),
#                                EXPECT_EXT (shardcache or apcu) and the array
#                                PHPUNIT_ARGS; --help prints FILE's header
#   sc_check NAME STATUS [DETAIL]
#                                count one check of a script that ends with
#                                "N passed, N failed" (it sets PASS=0 and
#                                FAIL=0 first): STATUS 0 passes
#                                (PASS += 1, "ok    NAME: DETAIL"), anything
#                                else fails (FAIL += 1, "FAIL  NAME: DETAIL")
#   sc_need_gdb NAME             print "NAME: gdb is not installed" and the
#                                "0 passed, 1 failed" line, then exit 1,
#                                when gdb is missing

SC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

sc_check() {
    if [ "$2" -eq 0 ]; then
        PASS=$((PASS + 1)); echo "ok    $1${3:+: $3}"
    else
        FAIL=$((FAIL + 1)); echo "FAIL  $1${3:+: $3}"
    fi
}

sc_help() {
    sed -n '2,/^set -/p' "$1" | sed '$d; s/^# \{0,1\}//'
}

sc_missing_pkgs() {
    local pkg
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q '^install ok installed$'; then
            printf '%s\n' "$pkg"
        fi
    done
}

sc_apt_install() {
    local tag="$1"; shift
    local sudo=() apt=(apt-get -o DPkg::Lock::Timeout=900)
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "$tag: not root and no sudo; install as root: apt-get install -y $*" >&2
            return 1
        fi
        sudo=(sudo -n)
    fi
    [ "$#" -gt 0 ] && echo "$tag: installing $*"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive "${apt[@]}" update -qq </dev/null \
        || { echo "$tag: apt-get update failed" >&2; return 1; }
    [ "$#" -gt 0 ] || return 0
    local policy_made=0 rc=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\n# temporary, from shardcache scripts/lib.sh (sc_apt_install)\nexit 101\n' \
            | "${sudo[@]}" tee /usr/sbin/policy-rc.d >/dev/null \
            && "${sudo[@]}" chmod 755 /usr/sbin/policy-rc.d && policy_made=1
    fi
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq -o Dpkg::Use-Pty=0 "$@" \
        </dev/null >/dev/null || rc=$?
    [ "$policy_made" -eq 1 ] && "${sudo[@]}" rm -f /usr/sbin/policy-rc.d
    [ "$rc" -eq 0 ] || { echo "$tag: apt-get install $* failed (exit $rc)" >&2; return 1; }
}

sc_junit_counts() {
    local name="$1" junit="$2" rc="$3" counts p f s
    # The first <testsuite> element of PHPUnit's JUnit log holds the totals.
    counts="$("${PHP:-php}" -n -r '
        $x = @file_get_contents($argv[1]);
        if (!$x || !preg_match("/<testsuite\\b[^>]*>/", $x, $m)) exit(1);
        $a = [];
        foreach (["tests", "errors", "warnings", "failures", "skipped"] as $k) {
            $a[$k] = preg_match("/\\b$k=\"(\\d+)\"/", $m[0], $mm) ? (int) $mm[1] : 0;
        }
        $failed = $a["errors"] + $a["warnings"] + $a["failures"];
        echo $a["tests"] - $failed - $a["skipped"], " ", $failed, " ", $a["skipped"];
    ' "$junit" 2>/dev/null)"
    if [ -z "$counts" ]; then
        echo "$name: 0 passed, 1 failed"
        return 1
    fi
    read -r p f s <<<"$counts"
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    echo "$name: $p passed, $f failed, $s skipped"
    [ "$rc" -eq 0 ] && [ "$f" -eq 0 ] && [ "$p" -gt 0 ]
}

sc_so_option() {
    local name="$1" file="$2" arg; shift 2
    SO="$SC_ROOT/modules/shardcache.so"
    for arg in "$@"; do
        case "$arg" in
            --so=*) SO="${arg#*=}" ;;
            -h|--help) sc_help "$file"; exit 0 ;;
            *) echo "$name: unknown option $arg" >&2; exit 2 ;;
        esac
    done
}

sc_suite_args() {
    local with_apcu="$1" file="$2"; shift 2
    EXT="" EXPECT_EXT=shardcache PHPUNIT_ARGS=()
    while [ $# -gt 0 ]; do
        case "$1" in
            --apcu) [ "$with_apcu" = 1 ] || { echo "run.sh: unknown option $1" >&2; exit 2; }
                    EXT=apcu.so; EXPECT_EXT=apcu ;;
            -h|--help) sc_help "$file"; exit 0 ;;
            --) shift; PHPUNIT_ARGS=("$@"); break ;;
            -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
            *) EXT="$1" ;;
        esac
        shift
    done
    EXT="${EXT:-${SO:-$SC_ROOT/modules/shardcache.so}}"
}

sc_need_gdb() {
    command -v gdb >/dev/null 2>&1 && return 0
    echo "$1: gdb is not installed"
    echo "0 passed, 1 failed"
    exit 1
}

sc_gdb_stop() {
    local pid="$1" log="$2" pattern="$3"; shift 3
    timeout 60 gdb -p "$pid" -batch -nx "$@" >"$log" 2>&1
    grep -q "$pattern" "$log" && return 0
    echo "gdb did not stop the process where it should:"
    tail -n 8 "$log" | sed 's/^/  gdb: /'
    return 1
}
