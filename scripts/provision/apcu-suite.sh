#!/usr/bin/env bash
# Fetches (once) the orig tarball of Debian's php-apcu source package that
# holds APCu's own phpt suite, for tests/apcu-suite/run.sh, and prints its
# path:
#   5.1.22  Debian bookworm's (APCu 5.1.22 beside apcu_bc 4.0.11), through
#           `apt-get source` with apt lists of this script's own (a deb-src
#           line for bookworm; the system's apt configuration is not changed)
#   5.1.24  Debian sid's, from the mirror's pool (its name is looked up in
#           sid's Sources index when the pool path does not answer)
# Both are checked against the SHA-256 sums below.
#
#   bash scripts/provision/apcu-suite.sh 5.1.22|5.1.24
#
# Kept in ${SC_APCU_SUITE_CACHE:-${SHARDCACHE_CACHE_DIR:-/opt/shardcache}/apcu-suites}
# as php-apcu_VERSION.orig.tar. The Debian mirror is read from the apt
# configuration (/etc/apt/sources.list and sources.list.d) at run time.
# Exit status: 0 = path printed; 1 = not fetched (the reason on stderr);
# 2 = usage.
set -uo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CACHE="${SC_APCU_SUITE_CACHE:-$SC_CACHE_DIR/apcu-suites}"
# SHA-256 of the orig tarballs as Debian ships them (bookworm's holds APCu
# 5.1.22 and 4.0.11 side by side; only apcu-5.1.22/ is used).
declare -A ORIG_SHA256=(
    [5.1.22]=a39fc6df90d86f340891f67cc7b644f1a9a36a9dc0d276cfa4e82346589037e7
    [5.1.24]=5c28a55b27082c69657e25b7ecf553e2cf6b74ec3fa77d6b76f4fb982e001e43
)
declare -A SUITE=([5.1.22]=bookworm [5.1.24]=sid)

case "${1:-}" in
    5.1.22|5.1.24) V="$1" ;;
    -h|--help) sc_help "$0"; exit 0 ;;
    *) echo "apcu-suite: give a version: 5.1.22 or 5.1.24" >&2; exit 2 ;;
esac

# The first http(s) Debian mirror of the apt configuration (one-line and
# deb822 formats), without the security archive.
debian_mirror() {
    local files=() f
    [ -f /etc/apt/sources.list ] && files+=(/etc/apt/sources.list)
    for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && files+=("$f")
    done
    [ "${#files[@]}" -gt 0 ] || return 1
    grep -hoE '^(deb(-src)?( \[[^]]*\])?|URIs:) +https?://[^ ]+' "${files[@]}" \
        | grep -oE 'https?://[^ ]+' | sed 's,/*$,,' | grep -v -- '-security' \
        | grep -E '/debian$' | head -n 1
}

sha_ok() { # FILE
    [ "$(sha256sum "$1" | cut -d' ' -f1)" = "${ORIG_SHA256[$V]}" ]
}

# from_bookworm TMP MIRROR: apt-get source of bookworm's php-apcu into TMP,
# its orig tarball renamed TMP/orig.tar.
from_bookworm() {
    local tmp="$1" got
    sc_apt_lists "$tmp/apt" "$tmp/update.log" "deb-src $2 bookworm main" \
        || { tail -n 5 "$tmp/update.log" >&2; return 1; }
    # Downloaded as this user (not apt's _apt, who may not write in TMP).
    (cd "$tmp" && apt-get "${SC_APT_OPTS[@]}" -o "APT::Sandbox::User=$(id -un)" -qq --download-only \
        source php-apcu >&2 </dev/null)
    got="$(ls "$tmp"/php-apcu_"$V"*.orig.tar.* 2>/dev/null | head -n 1)"
    [ -n "$got" ] && mv "$got" "$tmp/orig.tar"
}

# from_sid TMP MIRROR: sid's orig tarball from the pool into TMP/orig.tar.
from_sid() {
    local tmp="$1" mirror="$2" dir file
    curl -fsSL --retry 2 -o "$tmp/orig.tar" "$mirror/pool/main/p/php-apcu/php-apcu_$V.orig.tar.gz" && return 0
    # Not at the usual pool path: look the file up in sid's Sources.
    curl -fsSL --retry 2 "$mirror/dists/sid/main/source/Sources.xz" | xz -dc >"$tmp/Sources" || return 1
    dir="$(awk '/^Package: php-apcu$/ {p=1} p && /^Directory:/ {print $2; exit}' "$tmp/Sources")"
    file="$(awk '/^Package: php-apcu$/ {p=1} p && /^Files:/ {f=1; next} p && f && /orig\.tar/ {print $3; exit}' "$tmp/Sources")"
    [ -n "$dir" ] && [ -n "$file" ] && curl -fsSL --retry 2 -o "$tmp/orig.tar" "$mirror/$dir/$file"
}

tarball="$CACHE/php-apcu_$V.orig.tar"
if [ -f "$tarball" ] && sha_ok "$tarball"; then
    echo "$tarball"; exit 0
fi
mirror="$(debian_mirror)" || true
[ -n "$mirror" ] || { echo "apcu-suite: no Debian mirror in /etc/apt/sources.list*" >&2; exit 1; }
mkdir -p "$CACHE" || exit 1
tmp="$(mktemp -d "$CACHE/.fetch.XXXXXX")" || exit 1
trap 'rm -rf "$tmp"' EXIT
"from_${SUITE[$V]}" "$tmp" "$mirror"
if [ -f "$tmp/orig.tar" ] && sha_ok "$tmp/orig.tar"; then
    mv "$tmp/orig.tar" "$tarball"
    echo "$tarball"; exit 0
fi
[ -f "$tmp/orig.tar" ] && echo "apcu-suite: php-apcu $V: checksum mismatch" >&2
echo "apcu-suite: could not fetch php-apcu $V from $mirror" >&2
exit 1
