#!/usr/bin/env bash
# Checks the release metadata: package.xml (PECL) and composer.json (PIE).
#
#   scripts/check-package-xml.sh [--fix] [--no-build]
#
# Checks (each counts as one test in the closing "N passed, N failed" line):
#   1. package.xml is well-formed and lists every shipped file: each git-tracked
#      (or new, not ignored) file that a build or a user of the package needs
#      (config.m4, config.w32, *.c, *.h, php/*.c, php/*.h, php/*.stub.php, tests/<area>/*.phpt, tests/lib/*.inc,
#      tools/*.php, README.md, LICENSE, shardcache.ini), with the right role
#      (src, test or doc), and lists no file that does not exist;
#   2. every C file in config.m4's SHARDCACHE_SOURCES is listed as src;
#   3. the release version equals PHP_SHARDCACHE_VERSION (php_shardcache.h),
#      and the release date is a real YYYY-MM-DD date, not in the future and
#      not before the first commit (the check passes on any later day);
#   4. `pecl package` accepts package.xml and builds the .tgz, from a copy
#      holding only the listed files. pecl warns whenever the release date is
#      not today (it expects to be run on release day); the copy it packages
#      gets today's date so that only real packaging problems warn;
#   5. that .tgz alone builds (phpize, configure, make, make install into a
#      scratch INSTALL_ROOT) into a module that loads and stores/fetches a
#      value (skipped with --no-build);
#   6. composer.json passes `composer validate` and declares the PIE
#      php-ext section (type php-ext, extension-name shardcache, os-families
#      linux, ...);
#   7. debian/changelog's upstream version is the release (the Debian
#      package of debian/, built and installed by tests/debian/run.sh).
#
# --fix rewrites the <contents> block of package.xml from the file list
# (keeping the rest of the file) instead of failing check 1; run it after
# adding or removing a file, and review the diff.
#
# Installs php-pear (for pecl) and composer with apt-get when they are missing.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

fix=0
build=1
for arg in "$@"; do
    case "$arg" in
        --fix) fix=1 ;;
        --no-build) build=0 ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "check-package-xml: unknown option $arg" >&2; exit 2 ;;
    esac
done

PASS=0
FAIL=0
ok()   { PASS=$((PASS + 1)); echo "ok:   $*"; }
bad()  { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }

work="$(mktemp -d "${TMPDIR:-/tmp}/shardcache-pkg.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# ---- the file list ---------------------------------------------------------
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$ROOT" ls-files --cached --others --exclude-standard >"$work/all"
else
    (cd "$ROOT" && find . -type f ! -path './.git/*' | sed 's|^\./||') >"$work/all"
fi
# Only files that exist (a tracked file deleted in the work tree is gone).
while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done <"$work/all" \
    | grep -E '^(config\.(m4|w32)|[^/]+\.(c|h)|src/[^/]+\.(c|h)|php/[^/]+\.(c|h)|php/[^/]+\.stub\.php|include/[^/]+\.h|[^/]+\.stub\.php|tests/([^/]+/)?[^/]+\.phpt|tests/lib/[^/]+\.inc|tools/[^/]+\.php|README\.md|LICENSE|shardcache\.ini)$' \
    | LC_ALL=C sort -u >"$work/shipped"

# ---- checks 1-3 (and --fix) in PHP ----------------------------------------
# PHP without ini files (no APCu from conf.d); DOM is a shared module on Debian
# (php8.2-xml).
PHPX=(php -n)
if ! php -n -r 'exit(class_exists("DOMDocument") ? 0 : 1);' 2>/dev/null; then
    PHPX+=(-d extension=dom)
fi
cat >"$work/check.php" <<'PHP'
<?php
// argv: root, shipped-list file, fix (0/1)
[$_, $root, $listFile, $fix] = $argv;
$fail = 0;
function out(bool $ok, string $msg): void { global $fail; echo ($ok ? "ok:   " : "FAIL: "), $msg, "\n"; if (!$ok) $fail++; }
function role_of(string $f): string {
    if (preg_match('~^tests/~', $f)) return 'test';
    if (preg_match('~(^config\.(m4|w32)$|\.(c|h)$|\.stub\.php$)~', $f)) return 'src';
    return 'doc';
}
$shipped = array_values(array_filter(array_map('trim', file($listFile))));
$xmlPath = "$root/package.xml";
$doc = new DOMDocument();
$doc->preserveWhiteSpace = true;
if (!is_file($xmlPath) || !@$doc->load($xmlPath)) {
    out(false, "package.xml is missing or not well-formed XML");
    echo "checks-failed: 3\n";
    exit(0);
}
$ns = 'http://pear.php.net/dtd/package-2.0';
$xp = new DOMXPath($doc);
$xp->registerNamespace('p', $ns);
$contents = $xp->query('/p:package/p:contents/p:dir[@name="/"]')->item(0);
if (!$contents) {
    out(false, "package.xml: no <contents><dir name=\"/\"> (is it a package.xml 2.0 with xmlns=\"$ns\"?)");
    echo "checks-failed: 3\n";
    exit(0);
}
// Files listed, with their paths (nested <dir> elements or paths in names).
$listed = [];
$walk = function (DOMElement $dir, string $prefix) use (&$walk, &$listed) {
    foreach ($dir->childNodes as $n) {
        if (!$n instanceof DOMElement) continue;
        $name = trim($n->getAttribute('name'), '/');
        if ($n->localName === 'dir') $walk($n, $prefix . $name . '/');
        elseif ($n->localName === 'file') $listed[$prefix . $name] = $n->getAttribute('role');
    }
};
$walk($contents, '');

if ($fix) {
    // Keep listed files that still exist (someone may list extra docs by hand).
    $all = $shipped;
    foreach ($listed as $f => $r) if (is_file("$root/$f")) $all[] = $f;
    $all = array_unique($all);
    usort($all, function ($a, $b) {
        $ra = ['src' => 0, 'test' => 1, 'doc' => 2][role_of($a)];
        $rb = ['src' => 0, 'test' => 1, 'doc' => 2][role_of($b)];
        return [$ra, $a] <=> [$rb, $b];
    });
    while ($contents->firstChild) $contents->removeChild($contents->firstChild);
    foreach ($all as $f) {
        $contents->appendChild($doc->createTextNode("\n   "));
        $e = $doc->createElementNS($ns, 'file');
        $e->setAttribute('name', $f);
        $e->setAttribute('role', $listed[$f] ?? role_of($f));
        $contents->appendChild($e);
    }
    $contents->appendChild($doc->createTextNode("\n  "));
    $doc->save($xmlPath);
    echo "fixed: package.xml now lists " . count($all) . " files\n";
    $listed = [];
    foreach ($all as $f) $listed[$f] = $listed[$f] ?? role_of($f);
}

// 1. every shipped file listed with its role; nothing listed that is missing
$problems = [];
foreach ($shipped as $f) {
    if (!isset($listed[$f])) $problems[] = "not listed: $f (role " . role_of($f) . ")";
    elseif ($listed[$f] !== role_of($f)) $problems[] = "wrong role: $f is '{$listed[$f]}', expected '" . role_of($f) . "'";
}
foreach ($listed as $f => $r) {
    if (!is_file("$root/$f")) $problems[] = "listed but missing: $f";
}
out(!$problems, "package.xml lists the " . count($shipped) . " shipped files with their roles"
    . ($problems ? ":\n      " . implode("\n      ", $problems) . "\n      (run: bash scripts/check-package-xml.sh --fix)" : ''));

// 2. config.m4 sources
$m4 = (string)@file_get_contents("$root/config.m4");
$srcs = [];
if (preg_match('/SHARDCACHE_SOURCES="([^"]*)"/s', $m4, $m)) {
    $srcs = preg_split('/[\s\\\\]+/', trim($m[1]), -1, PREG_SPLIT_NO_EMPTY);
}
$miss = array_filter($srcs, fn($s) => ($listed[$s] ?? '') !== 'src');
out($srcs && !$miss, "config.m4 SHARDCACHE_SOURCES (" . count($srcs) . " files) all listed as src"
    . ($miss ? ': missing ' . implode(', ', $miss) : ($srcs ? '' : ': SHARDCACHE_SOURCES not found')));

// 3. version
$h = (string)@file_get_contents("$root/php_shardcache.h");
$want = preg_match('/#define\s+PHP_SHARDCACHE_VERSION\s+"([^"]+)"/', $h, $m) ? $m[1] : null;
$rel = $xp->query('/p:package/p:version/p:release')->item(0)?->textContent;
out($want !== null && $rel === $want, "package.xml release version " . var_export($rel, true)
    . " equals PHP_SHARDCACHE_VERSION " . var_export($want, true));

// 3b. release date: a valid calendar date, not in the future (UTC, one day
// of slack for time zones) and not before 2025 (the project's first year).
$date = $xp->query('/p:package/p:date')->item(0)?->textContent;
$d = is_string($date) ? DateTimeImmutable::createFromFormat('!Y-m-d', $date, new DateTimeZone('UTC')) : false;
$dateOk = $d !== false && $d->format('Y-m-d') === $date
    && $d <= new DateTimeImmutable('tomorrow', new DateTimeZone('UTC'))
    && $d >= new DateTimeImmutable('2025-01-01', new DateTimeZone('UTC'));
out($dateOk, "package.xml release date " . var_export($date, true) . " is a valid YYYY-MM-DD date, not in the future");
echo "checks-failed: $fail\n";
PHP

"${PHPX[@]}" "$work/check.php" "$ROOT" "$work/shipped" "$fix" >"$work/check.out" 2>&1
php_rc=$?
grep -v '^checks-failed:' "$work/check.out"
if [ "$php_rc" -ne 0 ] || ! grep -q '^checks-failed:' "$work/check.out"; then
    bad "package.xml checks did not run (php exit $php_rc)"
else
    n_fail="$(sed -n 's/^checks-failed: //p' "$work/check.out")"
    n_ok="$(grep -c '^ok:' "$work/check.out")"
    PASS=$((PASS + n_ok)); FAIL=$((FAIL + n_fail))
fi

# ---- 4. pecl package -------------------------------------------------------
if ! command -v pecl >/dev/null 2>&1; then
    echo "check-package-xml: installing php-pear (for pecl)"
    if [ "$(id -u)" -eq 0 ]; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq </dev/null >/dev/null && \
            apt-get install -y -qq -o Dpkg::Use-Pty=0 php-pear </dev/null >/dev/null
    fi
fi
tgz=""
if ! command -v pecl >/dev/null 2>&1; then
    bad "pecl package: pecl not available (apt-get install php-pear)"
else
    mkdir -p "$work/pkg"
    "${PHPX[@]}" -r '
        $d = new DOMDocument(); $d->load($argv[1]);
        $x = new DOMXPath($d); $x->registerNamespace("p", "http://pear.php.net/dtd/package-2.0");
        foreach ($x->query("/p:package/p:contents/p:dir//p:file") as $f) {
            $p = $f->getAttribute("name");
            for ($n = $f->parentNode; $n instanceof DOMElement && $n->localName === "dir"; $n = $n->parentNode)
                if (trim($n->getAttribute("name"), "/") !== "") $p = trim($n->getAttribute("name"), "/") . "/" . $p;
            echo $p, "\n";
        }' "$ROOT/package.xml" >"$work/listed" 2>/dev/null || true
    copied=1
    while IFS= read -r f; do
        [ -z "$f" ] && continue
        mkdir -p "$work/pkg/$(dirname "$f")"
        cp "$ROOT/$f" "$work/pkg/$f" 2>/dev/null || copied=0
    done <"$work/listed"
    # pecl warns "release date is not today" on any other day than the one
    # in <date>: the packaged copy carries today's date, as a release would.
    sed -E "s|<date>[0-9-]+</date>|<date>$(date +%Y-%m-%d)</date>|" "$ROOT/package.xml" >"$work/pkg/package.xml"
    if [ "$copied" -eq 1 ] && (cd "$work/pkg" && pecl package package.xml) >"$work/pecl.log" 2>&1 \
       && tgz="$(ls "$work"/pkg/shardcache-*.tgz 2>/dev/null | head -n 1)" && [ -n "$tgz" ]; then
        if grep -qi 'warning' "$work/pecl.log"; then
            bad "pecl package built $(basename "$tgz") but warned:"; sed 's/^/      /' "$work/pecl.log"
        else
            ok "pecl package builds $(basename "$tgz") ($(wc -l <"$work/listed") files)"
        fi
    elif [ "$copied" -eq 0 ]; then
        bad "pecl package: not run, package.xml lists files that do not exist"
    else
        bad "pecl package failed:"; sed 's/^/      /' "$work/pecl.log" 2>/dev/null
        tgz=""
    fi
fi

# ---- 5. the tarball alone builds a working module ---------------------------
if [ "$build" -eq 1 ]; then
    if [ -z "$tgz" ]; then
        bad "build from the package: no package to build"
    else
        mkdir -p "$work/build"
        tar -xzf "$tgz" -C "$work/build"
        srcdir="$(ls -d "$work"/build/shardcache-*/ | head -n 1)"
        if (cd "$srcdir" && phpize && ./configure --enable-shardcache && make -j"${MAKE_JOBS:-2}" \
                && make install INSTALL_ROOT="$work/root") >"$work/build.log" 2>&1 \
           && [ -f "$work/root$(php-config --extension-dir)/shardcache.so" ] \
           && out="$(php -n -d extension="$srcdir/modules/shardcache.so" -d apc.enable_cli=1 -r '
                  shardcache_store("k", [1, "two"]);
                  echo json_encode(shardcache_fetch("k")), " ", phpversion("shardcache");' 2>&1)" \
           && [ "$out" = "[1,\"two\"] $(sed -n 's/.*PHP_SHARDCACHE_VERSION "\([^"]*\)".*/\1/p' php_shardcache.h)" ]; then
            ok "$(basename "$tgz") builds with phpize/configure/make/make install and the module works ($out)"
        else
            bad "building $(basename "$tgz") failed (output: ${out:-none}); last lines of the build log:"
            tail -n 25 "$work/build.log" | sed 's/^/      /'
        fi
    fi
fi

# ---- 6. composer.json ------------------------------------------------------
if ! command -v composer >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    echo "check-package-xml: installing composer"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Dpkg::Use-Pty=0 composer </dev/null >/dev/null 2>&1
fi
if ! command -v composer >/dev/null 2>&1; then
    bad "composer.json: composer not installed"
else
    # --no-check-publish: Composer releases before 2.7 do not know the
    # php-ext section and list it as a publish error; the section itself is
    # checked below.
    if vout="$(COMPOSER_ALLOW_SUPERUSER=1 composer validate --no-interaction --no-check-publish --no-check-lock "$ROOT/composer.json" 2>&1)"; then
        ok "composer validate: composer.json is valid"
    else
        bad "composer validate failed:"; printf '%s\n' "$vout" | sed 's/^/      /'
    fi
    if msg="$(php -n -r '
        $j = json_decode(file_get_contents($argv[1]), true);
        $e = $j["php-ext"] ?? null;
        $errs = [];
        if (($j["type"] ?? "") !== "php-ext") $errs[] = "type is not php-ext";
        if (!is_array($e)) $errs[] = "no php-ext section";
        else {
            if (($e["extension-name"] ?? "") !== "shardcache") $errs[] = "extension-name is not shardcache";
            $p = $e["priority"] ?? 80;
            if (!is_int($p) || $p < 10 || $p > 99) $errs[] = "priority must be an integer 10..99";
            foreach (["support-zts", "support-nts"] as $k) if (!is_bool($e[$k] ?? true)) $errs[] = "$k must be boolean";
            if (($e["os-families"] ?? null) !== ["linux"]) $errs[] = "os-families must be [\"linux\"] (shardcache builds on Linux only)";
            $names = array_column($e["configure-options"] ?? [], "name");
            if (!in_array("enable-shardcache", $names, true)) $errs[] = "configure-options lacks enable-shardcache";
            foreach ($e["configure-options"] ?? [] as $o) {
                if (!is_string($o["name"] ?? null) || !preg_match("/^[a-z][a-z0-9-]*$/", $o["name"])) $errs[] = "bad configure option name";
                if (isset($o["needs-value"]) && !is_bool($o["needs-value"])) $errs[] = "needs-value must be boolean";
            }
        }
        echo $errs ? implode("; ", $errs) : "type php-ext, extension-name shardcache, priority $p";
        exit($errs ? 1 : 0);' "$ROOT/composer.json" 2>&1)"; then
        ok "composer.json PIE section: $msg"
    else
        bad "composer.json PIE section: $msg"
    fi
fi

# ---- 7. debian/changelog --------------------------------------------------------
release="$(sed -n 's|^ *<release>\([^<]*\)</release>|\1|p' "$ROOT/package.xml" | head -n 1)"
deb_version="$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' "$ROOT/debian/changelog" 2>/dev/null)"
if [ -n "$release" ] && [ "${deb_version%-*}" = "$release" ]; then
    ok "debian/changelog: $deb_version, upstream version $release"
else
    bad "debian/changelog's version '$deb_version' is not $release-<revision>"
fi

echo
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
