#!/usr/bin/env bash
# Builds APCu for the PHP 8.2 CLI (phpize8.2) and prints the path of its
# apcu.so, the peer of the side-by-side benchmarks (benchmarks/compare.php
# --apcu=PATH, speed.sh, web/run.sh, instr.sh PATH ...).
#
#   scripts/provision/apcu.sh --newest   the newest php-apcu source the
#                                   Debian mirror serves (or a newer build
#                                   already in the cache), built if not yet
#   scripts/provision/apcu.sh --src=DIR  the APCu source tree DIR (its
#                                   version is read from DIR/php_apc.h)
#   scripts/provision/apcu.sh VERSION [SRC_DIR]  APCu VERSION (e.g. 5.1.24)
#   scripts/provision/apcu.sh --versions  print what the mirror serves,
#                                   newest first: "DEBIAN_VERSION SUITE" a line
#
# Builds land in $APCU_DIR/apcu-VERSION/apcu.so, outside the clone, with
# APCU_DIR = ${SHARDCACHE_APCU_DIR:-${SHARDCACHE_CACHE_DIR:-/opt/shardcache}};
# beside each, SOURCE says in one line where it came from (e.g. "built from
# Debian sid's php-apcu 5.1.24-1 source"); callers print it. A build that is
# there already (for the same PHP API) is only printed. --src=DIR builds into
# apcu-VERSION-src-<checksum of DIR's path>, so that a patched tree never
# replaces a release build. APCu's source is never copied into the clone.
#
# Where VERSION's source comes from, in this order: SRC_DIR; an unpacked
# release in $APCU_DIR/src/apcu-VERSION; Debian's php-apcu source package
# of that upstream version. Debian's sources are read with apt lists of this
# script's own ($APCU_DIR/apt-php-apcu: deb-src lines for the suites in
# SC_APCU_SUITES, default "bookworm trixie sid experimental", of
# ${SC_DEBIAN_MIRROR:-http://deb.debian.org/debian}); nothing is added to the
# system's apt sources. The package is unpacked with dpkg-source (Debian's
# patches applied) when its .dsc downloads, else from its upstream tarball
# alone (SOURCE says which). When the mirror cannot be reached, the lists of
# the last update are used, and --newest falls back to the newest build in
# the cache.
#
# Exit status: 0 = path printed; 1 = no source, or the build failed;
# 2 = usage.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

APCU_DIR="${SHARDCACHE_APCU_DIR:-$SC_CACHE_DIR}"
SUITES="${SC_APCU_SUITES:-bookworm trixie sid experimental}"
PHPIZE="${PHPIZE:-phpize8.2}"
PHPCONFIG="${PHP_CONFIG:-php-config8.2}"
LISTS="$APCU_DIR/apt-php-apcu"

say() { echo "build-apcu: $*" >&2; }
usage() {
    sc_help "$0" >&2
    exit 2
}

mode="" ver="" src_arg=""
case "${1:-}" in
    --newest) mode=newest; [ $# -eq 1 ] || usage ;;
    --versions) mode=versions; [ $# -eq 1 ] || usage ;;
    --src=*) mode=src; src_arg="${1#*=}"; [ $# -eq 1 ] || usage ;;
    -h|--help) sc_help "$0"; exit 0 ;;
    *) mode=version; ver="${1:-}"; src_arg="${2:-}"; [ $# -le 2 ] || usage
       [[ "$ver" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || usage ;;
esac

mkdir -p "$APCU_DIR"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"        # apt downloads as _apt where it can

# The PHP API a build is made for: a build for another one is made again.
phpapi="$("$PHPCONFIG" --phpapi 2>/dev/null || true)"
[ -n "$phpapi" ] || { say "$PHPCONFIG not found (apt-get install php8.2-dev)"; exit 1; }

# ---- Debian's php-apcu sources, with apt lists of our own ---------------

mirror_note=""   # says when the lists are not fresh
lists_updated=0

# apt-get update of our lists (once per run of this script); sets SC_APT_OPTS.
update_lists() {
    local s lines=()
    for s in $SUITES; do
        lines+=("deb-src [check-valid-until=no] $SC_MIRROR $s main")
    done
    if ! sc_apt_lists "$LISTS" "$tmp/update.log" "${lines[@]}" \
        || grep -q '^[EW]: Failed to fetch' "$tmp/update.log"; then
        if ls "$LISTS/lists/"*_Sources* >/dev/null 2>&1; then
            mirror_note="the mirror $SC_MIRROR could not be (fully) read; package lists of $(date -r "$LISTS/lists" '+%Y-%m-%d')"
        else
            mirror_note="the mirror $SC_MIRROR could not be read"
        fi
        say "$mirror_note:"
        grep -E '^(E|W|Err):' "$tmp/update.log" | head -n 4 | sed 's/^/  /' >&2 || true
    fi
    lists_updated=1
}

# "DEBIAN_VERSION SUITE" per line, newest first (apt-cache madison lines:
# " php-apcu | 5.1.24-1 | http://deb.debian.org/debian sid/main Sources").
mirror_versions() {
    apt-cache "${SC_APT_OPTS[@]}" madison php-apcu 2>/dev/null \
        | awk -F'|' '$3 ~ /Sources/ { gsub(/ /, "", $2); split($3, a, " "); split(a[2], b, "/"); print $2, b[1] }' \
        | sort -u | sc_debian_sort
}

# APCu's upstream version in a Debian version: 5.1.22+4.0.11-2 -> 5.1.22
# (bookworm's package bundles apcu_bc 4.0.11), 1:5.1.24-1 -> 5.1.24.
upstream_of() { local v="${1#*:}"; v="${v%-*}"; echo "${v%%[+~]*}"; }

# Downloads and unpacks php-apcu=DEBVER into $tmp/deb; sets src and how.
fetch_debian_source() {
    local debver="$1" suite="$2" dl="$tmp/dl-$1"
    mkdir -p "$dl"; chmod 755 "$dl"
    src="" how=""
    local why="its .dsc did not download"
    if (cd "$dl" && apt-get "${SC_APT_OPTS[@]}" -qq source --download-only "php-apcu=$debver" \
            </dev/null >"$tmp/source.log" 2>&1) && ls "$dl"/*.dsc >/dev/null 2>&1 \
        && { command -v dpkg-source >/dev/null 2>&1 || { why="no dpkg-source (dpkg-dev)"; false; }; } \
        && { why="dpkg-source -x failed"; (cd "$dl" && dpkg-source -x ./*.dsc "$tmp/deb-$debver" >>"$tmp/source.log" 2>&1); }; then
        how="built from Debian $suite's php-apcu $debver source"
    else
        # The .dsc may not download (some mirrors serve the tarballs only):
        # the upstream tarball, its checksum checked by apt against the list.
        rm -rf "$tmp/deb-$debver"
        (cd "$dl" && apt-get "${SC_APT_OPTS[@]}" -qq source --download-only --tar-only "php-apcu=$debver" \
            </dev/null >>"$tmp/source.log" 2>&1) || true
        local tarball
        tarball="$(ls "$dl"/php-apcu_*.orig.tar.* 2>/dev/null | head -n 1 || true)"
        if [ -n "$tarball" ]; then
            mkdir -p "$tmp/deb-$debver"
            tar -xf "$tarball" -C "$tmp/deb-$debver" 2>>"$tmp/source.log" || true
            how="built from Debian $suite's php-apcu $debver source, upstream tarball only"
            say "php-apcu $debver: the upstream tarball alone, without Debian's patches ($why)"
        fi
    fi
    [ -d "$tmp/deb-$debver" ] || { grep -E '^(E|Err):' "$tmp/source.log" | head -n 3 | sed 's/^/  /' >&2 || true; return 1; }
    # bookworm's tree holds apcu-5.1.22/ and apcu-4.0.11/ (apcu_bc), both
    # with a php_apc.c: APCu's is the one of the upstream version.
    local d want
    want="$(upstream_of "$debver")"
    for d in $(find "$tmp/deb-$debver" -maxdepth 3 -name php_apc.c -printf '%h\n' | sort); do
        [ "$(version_of_tree "$d")" = "$want" ] && { src="$d"; break; }
    done
    [ -n "$src" ] || { say "php-apcu $debver: no APCu $want tree (php_apc.c) in its source"; return 1; }
}

# ---- building -----------------------------------------------------------

version_of_tree() {   # the PHP_APCU_VERSION of an APCu source tree
    sed -n 's/^#define PHP_APCU_VERSION "\([^"]*\)".*/\1/p' "$1/php_apc.h" 2>/dev/null | head -n 1
}

build_ok() {   # DEST: a build for this PHP API is there
    [ -f "$1/apcu.so" ] && [ -f "$1/STAMP" ] && grep -qxF "phpapi=$phpapi" "$1/STAMP"
}

# build_tree SRC DEST HOW: phpize, configure, make in a scratch copy of SRC.
build_tree() {
    local src="$1" dest="$2" how="$3" start
    start=$(date +%s)
    rm -rf "$tmp/build"
    cp -a "$src" "$tmp/build"
    say "building APCu $(version_of_tree "$src") into $dest: $how"
    if ! ( cd "$tmp/build" && "$PHPIZE" && ./configure --with-php-config="$PHPCONFIG" --enable-apcu \
            && make -j"${MAKE_JOBS:-2}" ) </dev/null >"$tmp/build.log" 2>&1; then
        tail -n 30 "$tmp/build.log" >&2
        say "the build of $src failed"
        return 1
    fi
    mkdir -p "$dest"
    cp "$tmp/build/modules/apcu.so" "$dest/apcu.so.tmp"
    mv "$dest/apcu.so.tmp" "$dest/apcu.so"
    echo "$how" >"$dest/SOURCE"
    printf 'phpapi=%s\nbuild_seconds=%s\n' "$phpapi" "$(( $(date +%s) - start ))" >"$dest/STAMP"
}

# build_version VER [SRC_DIR [DEBVER SUITE]]: the build of VER, made if
# missing; prints its path.
build_version() {
    local v="$1" given="${2:-}" debver="${3:-}" suite="${4:-}" dest="$APCU_DIR/apcu-$1"
    if build_ok "$dest"; then echo "$dest/apcu.so"; return 0; fi
    exec 9>"$APCU_DIR/apcu-$v.lock"
    flock 9
    if build_ok "$dest"; then flock -u 9; echo "$dest/apcu.so"; return 0; fi
    src="" how=""
    if [ -n "$given" ]; then
        src="$given" how="built from $given"
    elif [ -f "$APCU_DIR/src/apcu-$v/php_apc.c" ]; then
        src="$APCU_DIR/src/apcu-$v" how="built from $APCU_DIR/src/apcu-$v"
    else
        if [ -z "$debver" ]; then
            [ "$lists_updated" -eq 1 ] || update_lists
            read -r debver suite < <(mirror_versions | while read -r d s; do
                [ "$(upstream_of "$d")" = "$v" ] && { echo "$d $s"; break; }; done) || true
        fi
        if [ -n "$debver" ]; then
            fetch_debian_source "$debver" "$suite" || src=""
        fi
    fi
    if [ -z "$src" ] || [ ! -f "$src/php_apc.c" ]; then
        say "no source for APCu $v (give SRC_DIR, or unpack it in $APCU_DIR/src/apcu-$v)"
        flock -u 9; return 1
    fi
    if [ "$(version_of_tree "$src")" != "$v" ]; then
        say "$src is APCu $(version_of_tree "$src"), not $v"
        flock -u 9; return 1
    fi
    build_tree "$src" "$dest" "$how" || { flock -u 9; return 1; }
    flock -u 9
    echo "$dest/apcu.so"
}

case "$mode" in
    versions)
        update_lists
        mirror_versions
        ;;
    version)
        build_version "$ver" "$src_arg"
        ;;
    src)
        src="$(cd "$src_arg" 2>/dev/null && pwd)" || { say "--src: no directory $src_arg"; exit 1; }
        [ -f "$src/php_apc.c" ] || { say "--src: $src has no php_apc.c (not an APCu source tree)"; exit 1; }
        v="$(version_of_tree "$src")"
        [ -n "$v" ] || { say "--src: no PHP_APCU_VERSION in $src/php_apc.h"; exit 1; }
        dest="$APCU_DIR/apcu-$v-src-$(printf '%s' "$src" | cksum | cut -d' ' -f1)"
        # Always rebuilt: the tree may have changed since the last build.
        exec 9>"$dest.lock"
        flock 9
        build_tree "$src" "$dest" "built from the source tree $src" || exit 1
        echo "$dest/apcu.so"
        ;;
    newest)
        update_lists
        mapfile -t offered < <(mirror_versions)
        # Release builds already in the cache (apcu-X.Y.Z, not the --src
        # ones): one newer than anything the mirror serves is used as it is.
        cached="$(for d in "$APCU_DIR"/apcu-*/; do
                      d="${d%/}"; v="${d##*/apcu-}"
                      [[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] && build_ok "$d" && echo "$v"
                  done | sort -V | tail -n 1 || true)"
        best_offered=""
        [ "${#offered[@]}" -gt 0 ] && best_offered="$(upstream_of "${offered[0]%% *}")"
        if [ -n "$cached" ] && { [ -z "$best_offered" ] ||
                dpkg --compare-versions "$cached" gt "$best_offered"; }; then
            dest="$APCU_DIR/apcu-$cached"
            why="newer than any php-apcu the mirror serves${best_offered:+ (newest there: $best_offered)}"
            [ -n "$best_offered" ] || why="the mirror offered no php-apcu${mirror_note:+ ($mirror_note)}"
            say "APCu $cached: the build in $dest ($(cat "$dest/SOURCE" 2>/dev/null || echo 'source not recorded')), $why"
            echo "$dest/apcu.so"
            exit 0
        fi
        if [ "${#offered[@]}" -eq 0 ]; then
            if [ -n "$mirror_note" ]; then
                say "no php-apcu source known: $mirror_note, and no lists of an earlier update are there"
            else
                say "the mirror $SC_MIRROR offers no php-apcu source (suites: $SUITES)"
            fi
            exit 1
        fi
        say "php-apcu sources on $SC_MIRROR: $(printf '%s, ' "${offered[@]}" | sed 's/, $//')"
        # The newest first; an older one only when a newer one cannot be built.
        tried=" "
        for line in "${offered[@]}"; do
            read -r debver suite <<<"$line"
            v="$(upstream_of "$debver")"
            case "$tried" in *" $v "*) continue ;; esac
            tried="$tried$v "
            if so="$(build_version "$v" "" "$debver" "$suite")"; then
                [ "$line" = "${offered[0]}" ] || say "APCu $v instead: the newer ones could not be built"
                echo "$so"
                exit 0
            fi
        done
        say "no php-apcu source of the mirror could be built"
        exit 1
        ;;
esac
