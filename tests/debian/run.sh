#!/usr/bin/env bash
# The Debian package, built and installed for real (phase debian-package).
#
#   tests/debian/run.sh [--keep]
#
# 1. Copies the checkout's files (tracked, and new ones not ignored: what a
#    clean clone of this work tree holds) into a scratch directory and builds
#    the binary packages there with `dpkg-buildpackage -us -uc -b`, with no
#    network (a private network namespace). debian/rules builds one
#    php<ver>-shardcache per PHP version of this machine (dh-php) and runs
#    tests/api against each build.
# 2. Checks: debian/changelog's upstream version equals package.xml's release
#    and PHP_SHARDCACHE_VERSION; the php8.2 package holds the module in PHP's
#    extension directory and shardcache.ini in /etc/php/8.2/mods-available/
#    (a conffile), and the documentation with tools/ (dashboard.php and
#    metrics.php uncompressed); Provides names php-shardcache and not php-apcu; Depends
#    names the PHP API; the description tells about php-apcu; lintian finds
#    no error, and no warning other than those listed in LINTIAN_ALLOWED.
# 3. In a private Debian bookworm root (scripts/provision/debian-root.sh, cached under
#    $SHARDCACHE_CACHE_DIR, default /opt/shardcache; an overlay over it, in
#    private mount and network namespaces: nothing of it outlives the test, the cached root and this
#    machine's PHP are not changed, and nothing is downloaded), as an
#    administrator would, with php-fpm and nginx started by the test:
#    tests/debian/inside.sh (install, page served from the cache twice,
#    upgrade, purge, coexistence with php8.2-apcu; see there).
# Installs what it needs on this machine when missing (apt-get: dpkg-dev,
# build-essential, debhelper, dh-php, php-all-dev, xml2, lintian, debootstrap, curl,
# iproute2); changes nothing of this machine's PHP.
# Each check prints "ok:" or "FAIL:"; the last line is "N passed, N failed".
# --keep keeps the scratch directory (its path is printed).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$ROOT/scripts/lib.sh"
KEEP=0
for arg in "$@"; do
    case "$arg" in
        --keep) KEEP=1 ;;
        -h|--help) sc_help "$0"; exit 0 ;;
        *) echo "debian-package: unknown option $arg" >&2; exit 2 ;;
    esac
done

# lintian warnings that are true and expected here, with the reason:
#   initial-upload-closes-no-bugs: the package is not meant for the Debian
#   archive, so its first changelog entry closes no ITP bug.
LINTIAN_ALLOWED="initial-upload-closes-no-bugs"

PASS=0
FAIL=0
ok()  { PASS=$((PASS + 1)); echo "ok:   $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
finish() { echo "$PASS passed, $FAIL failed"; [ "$FAIL" -eq 0 ] && exit 0; exit 1; }
t0=$(date +%s)
elapsed() { echo "$(( $(date +%s) - t0 )) s"; }

if [ "$(id -u)" -ne 0 ]; then
    bad "needs root (debootstrap, chroot, namespaces)"; finish
fi
if ! git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    bad "$ROOT is not a git checkout (the package is built from its files)"; finish
fi

# ---- the build machine's tools ---------------------------------------------
mapfile -t missing < <(sc_missing_pkgs build-essential dpkg-dev debhelper dh-php php-all-dev xml2 lintian debootstrap curl iproute2)
if [ "${#missing[@]}" -gt 0 ]; then
    sc_apt_install debian-package "${missing[@]}" || { bad "installing ${missing[*]}"; finish; }
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/shardcache-deb.XXXXXX")"
# The bookworm root (a debootstrap when it is not cached) is made in the
# background, niced, while the package builds.
nice -n 10 bash "$ROOT/scripts/provision/debian-root.sh" >"$WORK/root.out" 2>"$WORK/root.log" </dev/null &
ROOT_JOB=$!
cleanup() {
    kill "$ROOT_JOB" 2>/dev/null && wait "$ROOT_JOB" 2>/dev/null
    if [ "$KEEP" -eq 1 ]; then echo "debian-package: kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# ---- 1. a clean copy, built ---------------------------------------------------
SRC="$WORK/build/php-shardcache"
mkdir -p "$SRC"
(
    cd "$ROOT" || exit 1
    git ls-files -z --cached --others --exclude-standard \
        | while IFS= read -r -d '' f; do [ -f "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"; done \
        | xargs -0 cp -P --parents -t "$SRC"
) || { bad "copying the checkout"; finish; }

DEB_VERSION="$(cd "$SRC" && dpkg-parsechangelog -S Version)"
UPSTREAM="${DEB_VERSION%-*}"
XML_VERSION="$(xml2 <"$SRC/package.xml" | sed -n 's,^/package/version/release=,,p')"
H_VERSION="$(sed -n 's/^#define PHP_SHARDCACHE_VERSION "\(.*\)"$/\1/p' "$SRC/php_shardcache.h")"
if [ -n "$UPSTREAM" ] && [ "$UPSTREAM" = "$XML_VERSION" ] && [ "$UPSTREAM" = "$H_VERSION" ]; then
    ok "version: debian/changelog $DEB_VERSION, package.xml $XML_VERSION, PHP_SHARDCACHE_VERSION $H_VERSION"
else
    bad "version: debian/changelog $DEB_VERSION (upstream $UPSTREAM), package.xml $XML_VERSION, PHP_SHARDCACHE_VERSION $H_VERSION"
fi

ARCH="$(dpkg --print-architecture)"
echo "debian-package: dpkg-buildpackage -us -uc -b in $SRC (no network)"
if (cd "$SRC" && DEB_BUILD_OPTIONS="parallel=2" unshare -n dpkg-buildpackage -us -uc -b) >"$WORK/build.log" 2>&1; then
    ok "dpkg-buildpackage -us -uc -b ($(elapsed))"
else
    bad "dpkg-buildpackage failed; the end of its log:"
    tail -n 40 "$WORK/build.log"
    finish
fi
# dh_auto_test ran tests/api against each build (REPORT_EXIT_STATUS=1 in
# debian/rules: a failed test fails the build).
passed_lines="$(grep -cE '^Tests passed *: *[1-9]' "$WORK/build.log")"
if [ "$passed_lines" -ge 1 ] && ! grep -qE '^Tests failed *: *[1-9]' "$WORK/build.log"; then
    ok "build-time tests: $(grep -E '^Tests passed' "$WORK/build.log" | tr -s ' ' | paste -sd ';' -)"
else
    bad "build-time tests did not all pass"
fi

VERSIONS="$(cd "$SRC" && /usr/share/dh-php/php-versions | tr '\n' ' ')"
CHANGES="$WORK/build/php-shardcache_${DEB_VERSION}_${ARCH}.changes"
for v in $VERSIONS; do
    deb="$WORK/build/php$v-shardcache_${DEB_VERSION}_${ARCH}.deb"
    [ -f "$deb" ] && ok "built php$v-shardcache (one package per PHP version: $VERSIONS)" \
        || bad "php$v-shardcache_${DEB_VERSION}_${ARCH}.deb was not built"
done
DEB="$WORK/build/php8.2-shardcache_${DEB_VERSION}_${ARCH}.deb"
[ -f "$DEB" ] || { bad "no php8.2 package: nothing to install"; finish; }

# ---- 2. what the package holds and says -------------------------------------
EXTDIR="$(php-config8.2 --extension-dir)"
PHPAPI="$(php-config8.2 --phpapi)"
dpkg-deb -c "$DEB" | awk '{ print $NF }' | sed 's|^\./|/|' >"$WORK/contents"
DOC=/usr/share/doc/php8.2-shardcache
for f in "$EXTDIR/shardcache.so" /etc/php/8.2/mods-available/shardcache.ini \
        "$DOC/README.md.gz" "$DOC/README.Debian" "$DOC/tools/README.md.gz" "$DOC/tools/dashboard.php" "$DOC/tools/metrics.php"; do
    grep -qxF "$f" "$WORK/contents" && ok "package holds $f" || bad "package lacks $f"
done
conffiles="$(dpkg-deb --ctrl-tarfile "$DEB" | tar -xOf - ./conffiles 2>/dev/null)"
if grep -qxF /etc/php/8.2/mods-available/shardcache.ini <<<"$conffiles"; then
    ok "shardcache.ini is a conffile"
else
    bad "shardcache.ini is not a conffile"
fi
provides="$(dpkg-deb -f "$DEB" Provides)"
[ "$provides" = "php-shardcache" ] && ok "Provides: $provides (not php-apcu)" || bad "Provides: '$provides' (expected php-shardcache alone)"
depends="$(dpkg-deb -f "$DEB" Depends)"
case ", $depends," in
    *", phpapi-$PHPAPI,"*) ok "Depends: $depends" ;;
    *) bad "Depends: '$depends' lacks phpapi-$PHPAPI" ;;
esac
description="$(dpkg-deb -f "$DEB" Description)"
grep -q 'installed beside php-apcu' <<<"$description" \
    && ok "the description tells how it lives beside php-apcu" || bad "the description does not mention php-apcu"

if lintian --pedantic -I "$CHANGES" >"$WORK/lintian.log" 2>&1; then lrc=0; else lrc=$?; fi
grep -v 'running with root privileges' "$WORK/lintian.log" | sed 's/^/    lintian: /'
errors="$(grep -c '^E: ' "$WORK/lintian.log")"
unexpected="$(grep '^W: ' "$WORK/lintian.log" | awk '{ print $3 }' | grep -vxF -f <(tr ' ' '\n' <<<"$LINTIAN_ALLOWED") | sort -u | tr '\n' ' ')"
if [ "$errors" -eq 0 ] && [ -z "$unexpected" ] && [ "$lrc" -eq 0 ]; then
    ok "lintian: no error, no unexpected warning"
else
    bad "lintian: $errors error(s), unexpected warnings: ${unexpected:-none} (exit $lrc)"
fi

# The second version, for the upgrade: the same package with the Debian
# revision bumped (only the version in its control file differs).
DEB_VERSION2="${DEB_VERSION}+sctest1"
DEB2="$WORK/build/php8.2-shardcache_${DEB_VERSION2}_${ARCH}.deb"
if dpkg-deb -R "$DEB" "$WORK/repack" \
        && sed -i "s/^Version: .*/Version: $DEB_VERSION2/" "$WORK/repack/DEBIAN/control" \
        && dpkg-deb --root-owner-group -b "$WORK/repack" "$DEB2" >/dev/null; then
    ok "made $DEB_VERSION2 for the upgrade"
else
    bad "could not make the $DEB_VERSION2 package"; finish
fi

# ---- 3. installed in a private bookworm root ---------------------------------
if wait "$ROOT_JOB" && ROOTFS="$(cat "$WORK/root.out")" && [ -n "$ROOTFS" ]; then
    ROOT_JOB=""
    cat "$WORK/root.log"
else
    ROOT_JOB=""
    bad "the bookworm root (scripts/provision/debian-root.sh) could not be made:"; tail -n 30 "$WORK/root.log"; finish
fi
echo "debian-package: root $ROOTFS ready after $(elapsed)"
unshare -m -n --propagation private bash "$ROOT/tests/debian/inside.sh" \
    "$ROOTFS" "$WORK" "$DEB" "$DEB_VERSION" "$DEB2" "$DEB_VERSION2" | tee "$WORK/inside.log"
counts="$(grep -E '^inside: [0-9]+ passed, [0-9]+ failed$' "$WORK/inside.log" | tail -n 1)"
if [ -n "$counts" ]; then
    read -r _ ip _ if_ _ <<<"$counts"
    PASS=$((PASS + ip)); FAIL=$((FAIL + if_))
else
    bad "tests/debian/inside.sh reported no result"
fi
echo "debian-package: $(elapsed) in all"
finish
