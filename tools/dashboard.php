<?php
/*
 * tools/dashboard.php - a live dashboard for shardcache, in one file.
 *
 * Put it where the web server runs PHP for the application whose cache you
 * want to see (same php-fpm pool or Apache: the cache belongs to the server's
 * processes; a CLI or another pool has a cache of its own), set a password
 * below or in the environment, and open it in a browser.
 *
 * Shows: memory (used, free, held but unused, fragmentation), hit ratio,
 * inserts/evictions/expunges and the rest of shardcache_info(), per-shard
 * figures, slab size classes, rates over time, and a key browser (regex
 * search, sort, per-key details, delete). Clearing the cache and deleting
 * keys are POST requests carrying a CSRF token.
 *
 * Samples over time are kept in the browser, not in the cache: the page asks
 * ?action=stats (shardcache_info() as JSON) every few seconds and keeps the
 * last 240 samples in the tab's sessionStorage, so a reload keeps the
 * history. Keeping them in the cache would make the dashboard a writer
 * (counted in inserts and updates, competing for memory, lost on every
 * clear) and would still only sample while someone looks.
 *
 * Security: HTTP basic auth is on by default and the page refuses to run with
 * the default password. Every response forbids framing and caching and
 * carries a Content-Security-Policy that only allows this page's own inline
 * script. Keys and values are always escaped.
 *
 * Uses only shardcache_* functions (and APCUIterator when that is
 * shardcache's, i.e. the real APCu is not loaded; else the cache list of
 * shardcache_cache_info()), so it also works with APCu loaded next to
 * shardcache. No external assets; PHP 8.2.
 */

declare(strict_types=1);

// ---- configuration ---------------------------------------------------------
// Each setting can also come from the environment variable named next to it
// (php-fpm: env[NAME] = value in the pool configuration), which wins.
$SCD_CONFIG = [
    'user' => 'admin',           // SHARDCACHE_DASHBOARD_USER
    'password' => 'change-me',   // SHARDCACHE_DASHBOARD_PASSWORD: plain text or a password_hash() value
    'auth' => true,              // SHARDCACHE_DASHBOARD_AUTH=0 turns basic auth off (only behind your own auth!)
    'refresh' => 5,              // SHARDCACHE_DASHBOARD_REFRESH: seconds between samples (0: off)
    'page_size' => 100,          // keys per page in the key browser
    'max_scan' => 200000,        // SHARDCACHE_DASHBOARD_MAX_SCAN: keys a search examines at most
    'search_seconds' => 2.0,     // SHARDCACHE_DASHBOARD_SEARCH_SECONDS: time a search takes at most
];
// ----------------------------------------------------------------------------

const SCD_DEFAULT_PASSWORD = 'change-me';

foreach (['user' => 'SHARDCACHE_DASHBOARD_USER', 'password' => 'SHARDCACHE_DASHBOARD_PASSWORD',
          'auth' => 'SHARDCACHE_DASHBOARD_AUTH', 'refresh' => 'SHARDCACHE_DASHBOARD_REFRESH',
          'max_scan' => 'SHARDCACHE_DASHBOARD_MAX_SCAN', 'search_seconds' => 'SHARDCACHE_DASHBOARD_SEARCH_SECONDS'] as $k => $env) {
    $v = getenv($env);
    if ($v !== false && $v !== '') {
        $SCD_CONFIG[$k] = match ($k) {
            'auth' => !in_array(strtolower($v), ['0', 'off', 'false', 'no'], true),
            'refresh' => max(0, (int)$v),
            'max_scan' => max(1, (int)$v),
            'search_seconds' => max(0.05, (float)$v),
            default => $v,
        };
    }
}

/* ---- helpers ---- */

function scd_h(string $s): string
{
    return htmlspecialchars($s, ENT_QUOTES | ENT_SUBSTITUTE | ENT_HTML5, 'UTF-8');
}

/** A key as HTML: escaped, control bytes shown as \xNN. */
function scd_key_html(string $k): string
{
    $out = '';
    foreach (preg_split('/([\x00-\x1f\x7f])/', $k, -1, PREG_SPLIT_DELIM_CAPTURE) as $i => $part) {
        $out .= $i % 2 ? '<span class="esc">\\x' . sprintf('%02x', ord($part)) . '</span>' : scd_h($part);
    }
    return $out;
}

function scd_int($v): string
{
    return is_int($v) || is_float($v) ? number_format((float)$v) : '–';
}

function scd_bytes($v): string
{
    if (!is_int($v) && !is_float($v)) {
        return '–';
    }
    $v = (float)$v;
    if (abs($v) < 1024) {
        return number_format($v) . ' B';
    }
    foreach (['KiB', 'MiB', 'GiB', 'TiB'] as $u) {
        $v /= 1024;
        if (abs($v) < 1024 || $u === 'TiB') {
            return number_format($v, 1) . ' ' . $u;
        }
    }
    return '';
}

function scd_pct(?float $v): string
{
    return $v === null ? '–' : number_format($v * 100, 1) . '%';
}

function scd_time($t): string
{
    return is_int($t) && $t > 0 ? date('Y-m-d H:i:s', $t) : '–';
}

function scd_duration(int $s): string
{
    $d = intdiv($s, 86400);
    $h = intdiv($s % 86400, 3600);
    $m = intdiv($s % 3600, 60);
    return ($d ? "{$d}d " : '') . ($d || $h ? "{$h}h " : '') . "{$m}m";
}

/** A figure of shardcache_info() by path ("per_shard.3.entries"), or null. */
function scd_get(array $info, string $path)
{
    $v = $info;
    foreach (explode('.', $path) as $p) {
        if (!is_array($v) || !array_key_exists($p, $v)) {
            return null;
        }
        $v = $v[$p];
    }
    return is_bool($v) ? (int)$v : $v;
}

/** A live figure: the number, formatted, with its path and raw value for the page script. */
function scd_v(array $info, string $path, string $fmt = 'int'): string
{
    $v = scd_get($info, $path);
    if (!is_int($v) && !is_float($v)) {
        return '<span class="v na" data-k="' . scd_h($path) . '" data-f="' . $fmt
            . '" title="not reported by this shardcache version">–</span>';
    }
    $text = $fmt === 'bytes' ? scd_bytes($v) : scd_int($v);
    return '<span class="v" data-k="' . scd_h($path) . '" data-f="' . $fmt . '" data-v="' . $v
        . '" title="' . scd_h((string)$v) . '">' . scd_h($text) . '</span>';
}

/** Figures computed from others (the page script computes them the same way). */
function scd_derived(array $info): array
{
    $n = fn($k) => is_int($info[$k] ?? null) || is_float($info[$k] ?? null) ? (float)$info[$k] : null;
    [$total, $used, $free, $run, $hits, $misses] =
        [$n('mem_total'), $n('mem_used'), $n('mem_free'), $n('largest_free_run'), $n('hits'), $n('misses')];
    // A user's view (shardcache.isolation=user, not root): used is its own
    // entries' bytes and free is rounded, so the rest is no shard's unused.
    $own = ($info['view'] ?? '') === 'user';
    return [
        // Pages shards hold (slabs, runs) minus what they handed out.
        'unused' => !$own && $total !== null && $used !== null && $free !== null ? max(0.0, $total - $used - $free) : null,
        'fragmentation' => $free !== null && $run !== null ? ($free > 0 ? max(0.0, 1 - $run / $free) : 0.0) : null,
        'hit_ratio' => $hits !== null && $misses !== null && $hits + $misses > 0 ? $hits / ($hits + $misses) : null,
        'used_ratio' => $total ? ($used ?? 0) / $total : null,
    ];
}

function scd_d(array $derived, string $name, string $fmt): string
{
    $v = $derived[$name] ?? null;
    $text = $v === null ? '–' : ($fmt === 'bytes' ? scd_bytes($v) : scd_pct($v));
    return '<span class="v" data-d="' . $name . '" data-f="' . $fmt . '"'
        . ($v === null ? '' : ' data-v="' . $v . '"') . '>' . scd_h($text) . '</span>';
}

function scd_send_security_headers(string $nonce): void
{
    header('Content-Type: text/html; charset=utf-8');
    header('Cache-Control: no-store');
    header('X-Frame-Options: DENY');
    header('X-Content-Type-Options: nosniff');
    header('Referrer-Policy: same-origin');   // no-referrer would make browsers send "Origin: null" with our own POSTs
    header("Content-Security-Policy: default-src 'none'; script-src 'nonce-$nonce'; style-src 'nonce-$nonce'; "
        . "img-src data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
}

function scd_message_page(int $status, string $title, string $html): never
{
    http_response_code($status);
    $nonce = base64_encode(random_bytes(12));
    scd_send_security_headers($nonce);
    echo '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>', scd_h($title),
        '</title><style nonce="', $nonce, '">body{font:15px/1.5 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;color:#222}',
        'code,pre{background:#f3f3f3;padding:.1rem .3rem;border-radius:3px}pre{padding:.6rem}</style></head><body><h1>',
        scd_h($title), '</h1>', $html, '</body></html>';
    exit;
}

/* ---- the password must be set ---- */

$scd_password = (string)$SCD_CONFIG['password'];
if ($scd_password === '' || $scd_password === SCD_DEFAULT_PASSWORD) {
    scd_message_page(503, 'shardcache dashboard: set a password first',
        '<p>This dashboard refuses to run with the default password.</p>'
        . '<p>Set the environment variable <code>SHARDCACHE_DASHBOARD_PASSWORD</code> for the PHP processes '
        . '(php-fpm: <code>env[SHARDCACHE_DASHBOARD_PASSWORD] = ...</code> in the pool), or edit '
        . '<code>$SCD_CONFIG[\'password\']</code> at the top of <code>' . scd_h(basename(__FILE__)) . '</code>. '
        . 'A <code>password_hash()</code> value works too:</p>'
        . '<pre>php -r \'echo password_hash("your password", PASSWORD_DEFAULT), "\n";\'</pre>'
        . '<p>The user name is <code>' . scd_h((string)$SCD_CONFIG['user']) . '</code> '
        . '(<code>SHARDCACHE_DASHBOARD_USER</code>).</p>');
}

/* ---- HTTP basic auth ---- */

function scd_credentials(): array
{
    if (isset($_SERVER['PHP_AUTH_USER'])) {
        return [(string)$_SERVER['PHP_AUTH_USER'], (string)($_SERVER['PHP_AUTH_PW'] ?? '')];
    }
    $h = $_SERVER['HTTP_AUTHORIZATION'] ?? $_SERVER['REDIRECT_HTTP_AUTHORIZATION'] ?? '';
    if (is_string($h) && stripos($h, 'Basic ') === 0) {
        $pair = base64_decode(substr($h, 6), true);
        if (is_string($pair) && str_contains($pair, ':')) {
            return explode(':', $pair, 2);
        }
    }
    return [null, null];
}

function scd_password_ok(string $given, string $configured): bool
{
    $algo = password_get_info($configured)['algo'];
    if ($algo !== null && $algo !== 0 && $algo !== '0') {
        return password_verify($given, $configured);
    }
    return hash_equals($configured, $given);
}

if ($SCD_CONFIG['auth']) {
    [$u, $p] = scd_credentials();
    $user_ok = $u !== null && hash_equals((string)$SCD_CONFIG['user'], $u);
    if (!$user_ok | !scd_password_ok((string)$p, $scd_password)) {
        header('WWW-Authenticate: Basic realm="shardcache dashboard", charset="UTF-8"');
        scd_message_page(401, '401 Unauthorized', '<p>This dashboard needs a user name and password.</p>');
    }
}

/* ---- CSRF: a token derived from the password, valid for a day ---- */

function scd_csrf_token(string $secret, ?int $day = null): string
{
    $day ??= intdiv(time(), 86400);
    return rtrim(strtr(base64_encode(hash_hmac('sha256', "shardcache-dashboard-csrf|$day", $secret, true)), '+/', '-_'), '=');
}

function scd_csrf_ok(string $secret, string $token): bool
{
    $today = intdiv(time(), 86400);
    return hash_equals(scd_csrf_token($secret, $today), $token)
        || hash_equals(scd_csrf_token($secret, $today - 1), $token);
}

/** A POST from another site: its Origin (when the browser sends one) is not ours. */
function scd_cross_origin(): bool
{
    $origin = $_SERVER['HTTP_ORIGIN'] ?? null;
    if (!is_string($origin) || $origin === '' || $origin === 'null') {
        return $origin === 'null';
    }
    $host = parse_url($origin, PHP_URL_HOST) . (parse_url($origin, PHP_URL_PORT) ? ':' . parse_url($origin, PHP_URL_PORT) : '');
    return strcasecmp($host, (string)($_SERVER['HTTP_HOST'] ?? '')) !== 0;
}

$scd_secret = hash('sha256', 'shardcache-dashboard|' . $scd_password . '|' . __FILE__, true);
$scd_csrf = scd_csrf_token($scd_secret);

/* ---- the extension ---- */

if (!function_exists('shardcache_info')) {
    scd_message_page(500, 'shardcache is not loaded',
        '<p>The <code>shardcache</code> extension (with <code>shardcache_info()</code>) is not loaded in this PHP. '
        . 'Add <code>extension=shardcache.so</code> to php.ini and restart the server.</p>');
}

$scd_enabled = shardcache_enabled();
$scd_action = (string)($_REQUEST['action'] ?? '');

/* ---- JSON figures for the page script (and anyone else) ---- */

if ($scd_action === 'stats') {
    header('Content-Type: application/json');
    header('Cache-Control: no-store');
    header('X-Content-Type-Options: nosniff');
    echo json_encode(['time' => microtime(true), 'enabled' => $scd_enabled, 'info' => shardcache_info()],
        JSON_PARTIAL_OUTPUT_ON_ERROR);
    exit;
}

/* ---- actions: POST with the CSRF token, then back to a page (303) ---- */

function scd_back(array $params): never
{
    $back = (string)($_POST['back'] ?? '');
    // Only a query string of this page: never an address elsewhere.
    parse_str(ltrim(str_starts_with($back, '?') ? $back : '', '?'), $q);
    unset($q['msg'], $q['key_msg']);
    $q = $params + $q;
    http_response_code(303);
    header('Location: ' . strtok((string)($_SERVER['REQUEST_URI'] ?? ''), '?') . '?' . http_build_query($q));
    exit;
}

if ($scd_action === 'delete' || $scd_action === 'clear') {
    if (($_SERVER['REQUEST_METHOD'] ?? '') !== 'POST') {
        header('Allow: POST');
        scd_message_page(405, '405 Method Not Allowed', '<p>This action needs a POST from the dashboard.</p>');
    }
    if (scd_cross_origin() || !scd_csrf_ok($scd_secret, (string)($_POST['csrf'] ?? ''))) {
        scd_message_page(403, '403 Forbidden', '<p>The form had no valid token (or came from another site). '
            . 'Go back, reload the dashboard and try again.</p>');
    }
    if ($scd_action === 'clear') {
        shardcache_clear_cache();
        scd_back(['msg' => 'cleared']);
    }
    // Keys travel as hex: any byte string (NUL, invalid UTF-8) comes back
    // exactly; a plain `key` field is still understood.
    $hex = $_POST['key_hex'] ?? null;
    $key = is_string($hex) && strlen($hex) % 2 === 0 && preg_match('/^[0-9a-fA-F]*$/D', $hex) === 1
        ? (string)hex2bin($hex) : ($_POST['key'] ?? null);
    if (!is_string($key)) {
        scd_back(['msg' => 'nokey']);
    }
    $deleted = shardcache_delete($key) === true;
    $params = ['msg' => $deleted ? 'deleted' : 'notfound', 'key_msg' => $key];
    if (isset($_POST['from_details'])) {
        $_POST['back'] = '?';   // the key is gone: back to the list
    }
    scd_back($params);
}

/* ---- keys ---- */

/**
 * Whether APCUIterator is shardcache's. shardcache registers it only when the
 * real APCu is not loaded, and then lists it under shardcache or under its
 * "apcu" identity module, which (unlike the real APCu) depends on shardcache.
 */
function scd_iterator_is_ours(): bool
{
    if (!class_exists('APCUIterator', false) || !defined('APC_ITER_ALL')) {
        return false;
    }
    $ext = (new ReflectionClass('APCUIterator'))->getExtension();
    return $ext !== null && ($ext->getName() === 'shardcache' || array_key_exists('shardcache', $ext->getDependencies()));
}

/** Whether the real APCu extension is loaded next to shardcache. */
function scd_real_apcu_loaded(): bool
{
    return extension_loaded('apcu') && !array_key_exists('shardcache', (new ReflectionExtension('apcu'))->getDependencies());
}

/** A search regex from the user's pattern (no delimiters), or an error. */
function scd_regex(string $q, bool $ci, ?string &$error): ?string
{
    $error = null;
    if ($q === '') {
        return null;
    }
    if (str_contains($q, "\x01")) {
        $error = 'the pattern may not contain the byte \\x01';
        return null;
    }
    $re = "\x01" . $q . "\x01" . ($ci ? 'i' : '');
    set_error_handler(function (int $no, string $msg) use (&$error) {
        $error = preg_replace('/^preg_match\(\): /', '', $msg);
        return true;
    });
    $r = preg_match($re, '');
    restore_error_handler();
    if ($r === false) {
        $error ??= preg_last_error_msg();
        return null;
    }
    return $re;
}

/**
 * Keys matching $re (all when null), with their metadata. The work is
 * bounded: at most $max_scan keys are examined (matching or not) and the
 * search stops after $max_seconds; each match is made here, in PHP, with a
 * lowered backtracking limit (a costly pattern fails on a key rather than
 * running on), never inside the extension, so a request can always stop.
 * $stopped: null, or why the search stopped early ('keys' or 'time');
 * $examined: keys looked at. APCUIterator when it is shardcache's, else the
 * cache list of shardcache_cache_info().
 */
function scd_keys(?string $re, int $max_scan, float $max_seconds, ?string &$stopped, int &$examined,
                  string &$source): array
{
    $rows = [];
    $stopped = null;
    $examined = 0;
    $deadline = hrtime(true) + (int)($max_seconds * 1e9);
    $limit = ini_get('pcre.backtrack_limit');
    ini_set('pcre.backtrack_limit', '100000');
    $take = function (string $k, array $e) use (&$rows, &$stopped, &$examined, $re, $max_scan, $deadline): bool {
        if ($examined >= $max_scan) {
            $stopped = 'keys';
            return false;
        }
        if (($examined & 63) === 0 && $examined > 0 && hrtime(true) > $deadline) {
            $stopped = 'time';
            return false;
        }
        $examined++;
        if ($re !== null && preg_match($re, $k) !== 1) {
            return true;
        }
        $rows[] = ['key' => $k, 'size' => $e['mem_size'] ?? null, 'hits' => $e['num_hits'] ?? null,
            'mtime' => $e['mtime'] ?? null, 'ctime' => $e['creation_time'] ?? null,
            'atime' => $e['access_time'] ?? null, 'ttl' => $e['ttl'] ?? null];
        return true;
    };
    try {
        if (scd_iterator_is_ours()) {
            $source = 'APCUIterator';
            $fmt = APC_ITER_KEY | APC_ITER_NUM_HITS | APC_ITER_MTIME | APC_ITER_CTIME | APC_ITER_ATIME
                | APC_ITER_MEM_SIZE | APC_ITER_TTL;
            foreach (new APCUIterator(null, $fmt, 256) as $e) {
                if (!$take((string)$e['key'], $e)) {
                    break;
                }
            }
            return $rows;
        }
        $source = 'shardcache_cache_info()';
        if (!function_exists('shardcache_cache_info')) {
            $source = '';
            return [];
        }
        $ci = shardcache_cache_info(false);
        foreach (is_array($ci) ? ($ci['cache_list'] ?? []) : [] as $e) {
            if (!$take((string)($e['info'] ?? $e['key'] ?? ''), $e)) {
                break;
            }
        }
        return $rows;
    } finally {
        ini_set('pcre.backtrack_limit', (string)$limit);
    }
}

/** A key as a form field: hex, so that every byte string round-trips. */
function scd_key_field(string $key): string
{
    return '<input type="hidden" name="key_hex" value="' . bin2hex($key) . '">';
}

/** One key's metadata and value. */
function scd_key_details(string $key): ?array
{
    $meta = function_exists('shardcache_key_info') ? shardcache_key_info($key) : null;
    $value = null;
    $found = false;
    $size = null;
    if (scd_iterator_is_ours()) {
        // Reading through the iterator does not count as a hit.
        foreach (new APCUIterator([$key], APC_ITER_ALL, 1) as $e) {
            if ((string)$e['key'] === $key) {
                $value = $e['value'] ?? null;
                $size = $e['mem_size'] ?? null;
                $found = true;
            }
        }
    } else {
        $value = shardcache_fetch($key, $found);
    }
    if (!$found && !is_array($meta)) {
        return null;
    }
    return ['meta' => is_array($meta) ? $meta : [], 'found' => $found, 'value' => $value, 'size' => $size];
}

function scd_preview($value, int $limit = 65536): string
{
    if (is_string($value)) {
        $bin = preg_match('//u', $value) !== 1 || preg_match('/[\x00-\x08\x0e-\x1f\x7f]/', $value);
        $s = substr($value, 0, $limit);
        if ($bin) {
            $s = addcslashes($s, "\0..\37\177..\377\\");
        } else {
            while ($s !== '' && preg_match('//u', $s) !== 1) {
                $s = substr($s, 0, -1);   // do not cut a UTF-8 character in two
            }
        }
        return 'string(' . strlen($value) . ")" . ($bin ? ' (binary, shown escaped)' : '') . "\n" . $s
            . (strlen($value) > $limit ? "\n… (" . (strlen($value) - $limit) . ' more bytes)' : '');
    }
    if (is_array($value) && count($value) > 200) {
        $s = 'array(' . count($value) . ") — the first 200 elements:\n" . print_r(array_slice($value, 0, 200, true), true);
    } else {
        $s = is_scalar($value) || $value === null ? var_export($value, true) : print_r($value, true);
    }
    return strlen($s) > $limit ? substr($s, 0, $limit) . "\n… (cut at " . $limit . ' bytes)' : $s;
}

/* ---- gather ---- */

$info = shardcache_info();
$info = is_array($info) ? $info : [];
$derived = scd_derived($info);
$refresh = isset($_GET['refresh']) ? max(0, min(3600, (int)$_GET['refresh'])) : (int)$SCD_CONFIG['refresh'];

$view_key = isset($_GET['key']) && is_string($_GET['key']) ? $_GET['key'] : null;
$q = isset($_GET['q']) && is_string($_GET['q']) ? $_GET['q'] : '';
$ci = !empty($_GET['i']);
$sorts = ['key' => 'key', 'size' => 'size', 'hits' => 'hits', 'mtime' => 'modified', 'atime' => 'accessed',
    'ctime' => 'created', 'ttl' => 'ttl'];
$sort = isset($_GET['sort']) && is_string($_GET['sort']) && isset($sorts[$_GET['sort']]) ? $_GET['sort'] : 'key';
$order = ($_GET['order'] ?? '') === 'desc' ? 'desc' : 'asc';
$page = max(0, (int)($_GET['page'] ?? 0));
$page_size = max(1, (int)$SCD_CONFIG['page_size']);
$listing = isset($_GET['list']) || $q !== '';

$regex_error = null;
$keys = [];
$stopped = null;
$examined = 0;
$source = '';
$total_matches = 0;
if ($listing && $view_key === null) {
    $re = scd_regex($q, $ci, $regex_error);
    if ($regex_error === null) {
        $keys = scd_keys($re, (int)$SCD_CONFIG['max_scan'], (float)$SCD_CONFIG['search_seconds'], $stopped,
                         $examined, $source);
        usort($keys, function ($a, $b) use ($sort, $order) {
            $r = $sort === 'key' ? strcmp($a['key'], $b['key']) : (($a[$sort] ?? -1) <=> ($b[$sort] ?? -1) ?: strcmp($a['key'], $b['key']));
            return $order === 'desc' ? -$r : $r;
        });
        $total_matches = count($keys);
        $keys = array_slice($keys, $page * $page_size, $page_size);
    }
}
$details = $view_key !== null ? scd_key_details($view_key) : null;

$self = strtok((string)($_SERVER['REQUEST_URI'] ?? ''), '?') ?: basename(__FILE__);
$url = function (array $params) use ($self): string {
    $params = array_filter($params, fn($v) => $v !== null && $v !== '' && $v !== false);
    return $self . ($params ? '?' . http_build_query($params) : '');
};
$list_params = ['list' => 1, 'q' => $q, 'i' => $ci ? 1 : null, 'sort' => $sort, 'order' => $order,
    'refresh' => isset($_GET['refresh']) ? $refresh : null];
$back = '?' . http_build_query(array_filter($list_params + ['page' => $page ?: null], fn($v) => $v !== null && $v !== ''));

$nonce = base64_encode(random_bytes(16));
scd_send_security_headers($nonce);

$msg = $_GET['msg'] ?? '';
$key_msg = isset($_GET['key_msg']) && is_string($_GET['key_msg']) ? $_GET['key_msg'] : '';
$shards = is_array($info['per_shard'] ?? null) ? $info['per_shard'] : [];
$classes = is_array($info['classes'] ?? null) ? $info['classes'] : [];
$start = is_int($info['start_time'] ?? null) ? $info['start_time'] : null;

/* ---- charts (inline SVG) ---- */

/** The parts of the memory bar (the page script computes them the same way). */
function scd_memory_parts(array $info, array $derived): array
{
    $f = fn($k) => (float)(is_int($info[$k] ?? null) || is_float($info[$k] ?? null) ? $info[$k] : 0);
    $entries = isset($info['mem_entries']) ? $f('mem_entries') : $f('mem_used');
    $rounding = min($entries, $f('mem_wasted'));
    return [
        ['entries', 'Entries', $entries - $rounding],
        ['rounding', 'Rounding waste', $rounding],
        ['tables', 'Hash tables', isset($info['mem_entries']) ? max(0.0, $f('mem_used') - $f('mem_entries')) : 0.0],
        ['unused', 'Held by shards, unused', (float)($derived['unused'] ?? 0)],
        ['free', 'Free pages', $f('mem_free')],
    ];
}

/** The memory bar: entries, rounding waste, tables, held but unused, free. */
function scd_memory_bar(array $info, array $derived): string
{
    $total = (float)($info['mem_total'] ?? 0);
    $parts = scd_memory_parts($info, $derived);
    $svg = '<svg id="mem-bar" class="bar" viewBox="0 0 1000 36" preserveAspectRatio="none" role="img" aria-label="memory use">';
    $x = 0.0;
    foreach ($parts as [$cls, $label, $v]) {
        $w = $total > 0 ? 1000 * $v / $total : 0;
        $svg .= sprintf('<rect class="m-%s" data-part="%s" x="%.2f" y="0" width="%.2f" height="36"><title>%s: %s</title></rect>',
            $cls, $cls, $x, $w, scd_h($label), scd_h(scd_bytes($v)));
        $x += $w;
    }
    $svg .= '</svg><ul class="legend">';
    foreach ($parts as [$cls, $label, $v]) {
        $svg .= '<li><i class="sw m-' . $cls . '"></i>' . scd_h($label) . ' <b data-part-v="' . $cls . '">' . scd_h(scd_bytes($v)) . '</b></li>';
    }
    return $svg . '</ul>';
}

/** Bars of one per-shard (or per-class) figure. */
function scd_bars(string $id, array $rows, string $field, string $prefix, string $label_key, string $fmt, string $title): string
{
    $n = count($rows);
    if ($n === 0) {
        return '<p class="muted">No data.</p>';
    }
    $max = 0;
    foreach ($rows as $r) {
        $max = max($max, (float)($r[$field] ?? 0));
    }
    $W = 1000;
    $H = 120;
    $bw = $W / $n;
    $svg = '<svg id="' . $id . '" class="bars" viewBox="0 0 ' . $W . ' ' . ($H + 4) . '" preserveAspectRatio="none" role="img" aria-label="'
        . scd_h($title) . '" data-field="' . scd_h($field) . '">';
    foreach (array_values($rows) as $i => $r) {
        $v = (float)($r[$field] ?? 0);
        $h = $max > 0 ? $H * $v / $max : 0;
        $lab = $label_key === '' ? "shard $i" : "size " . ($r[$label_key] ?? $i);
        $svg .= sprintf('<rect data-k="%s" x="%.2f" y="%.2f" width="%.2f" height="%.2f"><title>%s: %s</title></rect>',
            scd_h("$prefix.$i.$field"), $i * $bw + ($bw > 4 ? $bw * 0.1 : 0), $H - $h + 2, $bw > 4 ? $bw * 0.8 : max(0.5, $bw - 0.2), $h,
            scd_h($lab), scd_h($fmt === 'bytes' ? scd_bytes($v) : scd_int($v)));
    }
    return $svg . '</svg>';
}

$flash = match ($msg) {
    'cleared' => ['ok', 'The cache was cleared.'],
    'deleted' => ['ok', 'Deleted key ' . scd_key_html($key_msg) . '.'],
    'notfound' => ['warn', 'Key ' . scd_key_html($key_msg) . ' was not in the cache.'],
    'nokey' => ['warn', 'No key given.'],
    default => null,
};

$initial = json_encode(['time' => microtime(true), 'enabled' => $scd_enabled, 'info' => $info], JSON_PARTIAL_OUTPUT_ON_ERROR | JSON_HEX_TAG | JSON_HEX_AMP);
?>
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>shardcache dashboard</title>
<style nonce="<?= $nonce ?>">
:root { --bg:#f6f7f9; --fg:#1d2430; --muted:#667085; --card:#fff; --line:#e3e6ea; --accent:#2f6fdb;
  --c1:#2f6fdb; --c2:#8ab4f8; --c3:#f29e4c; --c4:#d7dce2; --bad:#c62828; --ok:#2e7d32; --warn:#a86400; }
@media (prefers-color-scheme: dark) { :root { --bg:#14171c; --fg:#e6e8eb; --muted:#98a2b3; --card:#1d2128; --line:#2d333b;
  --accent:#7aa7ff; --c1:#5b8def; --c2:#3d5e99; --c3:#d98a3a; --c4:#39414c; } }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; background:var(--bg); color:var(--fg); }
header { display:flex; flex-wrap:wrap; align-items:center; gap:.5rem 1.2rem; padding:.7rem 1.2rem; background:var(--card); border-bottom:1px solid var(--line); }
header h1 { font-size:1.15rem; margin:0; }
header nav a { margin-right:.8rem; color:var(--accent); text-decoration:none; }
header .meta { color:var(--muted); }
header .right { margin-left:auto; display:flex; gap:.6rem; align-items:center; }
main { padding:1rem 1.2rem 3rem; max-width:1400px; margin:0 auto; }
section { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:1rem 1.1rem; margin:0 0 1rem; }
section h2 { font-size:1.02rem; margin:0 0 .7rem; }
.cards { display:grid; grid-template-columns:repeat(auto-fill,minmax(165px,1fr)); gap:.6rem; }
.card { border:1px solid var(--line); border-radius:6px; padding:.5rem .7rem; }
.card .label { color:var(--muted); font-size:.8rem; }
.card .big { font-size:1.3rem; font-weight:600; font-variant-numeric:tabular-nums; }
.card .sub { color:var(--muted); font-size:.78rem; }
.grid2 { display:grid; grid-template-columns:repeat(auto-fit,minmax(430px,1fr)); gap:1rem; }
table { border-collapse:collapse; width:100%; font-variant-numeric:tabular-nums; }
th, td { text-align:right; padding:.25rem .5rem; border-bottom:1px solid var(--line); white-space:nowrap; }
th:first-child, td:first-child, td.key, th.key { text-align:left; }
table.kv { width:auto; min-width:26rem; } table.kv th { text-align:left; } table.kv td { text-align:left; padding-left:2rem; }
td.key { white-space:normal; word-break:break-all; max-width:40rem; }
th { color:var(--muted); font-weight:500; font-size:.82rem; }
th a { color:inherit; }
.muted { color:var(--muted); }
.na { color:var(--muted); }
.esc { color:var(--warn); }
svg.bar { width:100%; height:36px; display:block; border-radius:4px; overflow:hidden; background:var(--c4); }
svg.bars { width:100%; height:130px; display:block; }
svg.bars rect { fill:var(--c1); }
svg.chart { width:100%; height:170px; display:block; }
.m-entries { fill:var(--c1); background:var(--c1); } .m-rounding { fill:#c0392b; background:#c0392b; }
.m-tables { fill:var(--c2); background:var(--c2); } .m-unused { fill:var(--c3); background:var(--c3); }
.m-free { fill:var(--c4); background:var(--c4); }
ul.legend { list-style:none; padding:0; margin:.5rem 0 0; display:flex; flex-wrap:wrap; gap:.3rem 1.2rem; }
.sw { display:inline-block; width:.8rem; height:.8rem; border-radius:2px; margin-right:.35rem; vertical-align:-1px; }
.flash { padding:.6rem .9rem; border-radius:6px; margin-bottom:1rem; border:1px solid; }
.flash.ok { border-color:var(--ok); color:var(--ok); } .flash.warn, .flash.err { border-color:var(--bad); color:var(--bad); }
form.inline { display:inline; margin:0; }
button, input, select { font:inherit; }
button { cursor:pointer; border:1px solid var(--line); background:var(--card); color:var(--fg); border-radius:5px; padding:.2rem .6rem; }
button.danger { border-color:var(--bad); color:var(--bad); }
input[type=text] { padding:.25rem .45rem; border:1px solid var(--line); border-radius:5px; background:var(--bg); color:var(--fg); min-width:22rem; }
.searchbar { display:flex; flex-wrap:wrap; gap:.5rem; align-items:center; margin-bottom:.7rem; }
pre.value { background:var(--bg); border:1px solid var(--line); padding:.7rem; overflow:auto; max-height:32rem; white-space:pre-wrap; word-break:break-all; }
.chart-legend { display:flex; flex-wrap:wrap; gap:.2rem 1rem; font-size:.82rem; color:var(--muted); }
.chart-legend b { color:var(--fg); font-weight:500; }
.chart text { fill:var(--muted); font-size:11px; }
.chart .grid { stroke:var(--line); stroke-width:1; }
.chart path.line { fill:none; stroke-width:2; }
.chart path.area { opacity:.18; stroke:none; }
.s0 { stroke:var(--c1); fill:var(--c1); } .s1 { stroke:var(--c3); fill:var(--c3); } .s2 { stroke:#43a047; fill:#43a047; } .s3 { stroke:#8e24aa; fill:#8e24aa; }
.chart path.line.s0, .chart path.line.s1, .chart path.line.s2, .chart path.line.s3 { fill:none; }
i.sw.s0 { background:var(--c1); } i.sw.s1 { background:var(--c3); } i.sw.s2 { background:#43a047; } i.sw.s3 { background:#8e24aa; }
details > summary { cursor:pointer; color:var(--accent); margin:.4rem 0; }
</style>
</head>
<body>
<header>
  <h1>shardcache</h1>
  <span class="meta">v<?= scd_h((string)phpversion('shardcache')) ?> · <?= scd_h(php_uname('n')) ?> · <?= scd_h(PHP_SAPI) ?>
    · <?= count($shards) ?> shards<?php if ($start) { ?> · up <span id="uptime" data-start="<?= $start ?>"><?= scd_h(scd_duration(max(0, time() - $start))) ?></span><?php } ?></span>
  <nav><?php $home = scd_h($url(['refresh' => $_GET['refresh'] ?? null])); ?><a href="<?= $home ?>#overview">Overview</a><a href="<?= $home ?>#over-time">Over time</a><a href="<?= $home ?>#memory">Memory</a><a href="<?= $home ?>#shards">Shards</a><a href="<?= scd_h($url(['list' => 1, 'refresh' => $_GET['refresh'] ?? null])) ?>#keys">Keys</a></nav>
  <span class="right">
    <label class="muted">Sample every
      <select id="refresh">
        <?php foreach ([0 => 'off', 1 => '1 s', 2 => '2 s', 5 => '5 s', 15 => '15 s', 60 => '60 s'] as $s => $l) { ?>
          <option value="<?= $s ?>"<?= $s === $refresh ? ' selected' : '' ?>><?= $l ?></option>
        <?php } ?>
        <?php if (!in_array($refresh, [0, 1, 2, 5, 15, 60], true)) { ?><option value="<?= $refresh ?>" selected><?= $refresh ?> s</option><?php } ?>
      </select></label>
    <span id="status" class="muted"></span>
    <form class="inline" method="post" action="<?= scd_h($self) ?>" id="clear-form">
      <input type="hidden" name="action" value="clear">
      <input type="hidden" name="csrf" value="<?= scd_h($scd_csrf) ?>">
      <input type="hidden" name="back" value="<?= scd_h($back) ?>">
      <button type="submit" class="danger" id="clear-button">Clear cache</button>
    </form>
  </span>
</header>
<main>
<?php if ($flash) { ?><div class="flash <?= $flash[0] ?>" id="flash"><?= $flash[1] ?></div><?php } ?>
<?php if (!$scd_enabled) { ?><div class="flash warn">The cache is disabled in this PHP (<code>apc.enabled</code>, or <code>apc.enable_cli</code> in the CLI): every figure below is 0.</div><?php } ?>

<?php if ($view_key !== null) { ?>
<section id="key-details">
  <h2>Key <code class="key-name"><?= scd_key_html($view_key) ?></code></h2>
  <?php if ($details === null) { ?>
    <p class="muted" id="key-missing">This key is not in the cache (expired, evicted or deleted).</p>
  <?php } else { $m = $details['meta']; ?>
    <table class="kv">
      <tr><th>Hits (sampled)</th><td id="d-hits"><?= scd_int($m['hits'] ?? null) ?></td></tr>
      <tr><th>Size</th><td id="d-size"><?= $details['size'] !== null ? scd_h(scd_bytes($details['size'])) : '–' ?></td></tr>
      <tr><th>TTL</th><td id="d-ttl"><?= isset($m['ttl']) ? ($m['ttl'] ? scd_int($m['ttl']) . ' s' : 'none') : '–' ?></td></tr>
      <tr><th>Expires</th><td><?= !empty($m['ttl']) && isset($m['mtime']) ? scd_h(scd_time($m['mtime'] + $m['ttl'])) : 'never' ?></td></tr>
      <tr><th>Created</th><td><?= scd_h(scd_time($m['creation_time'] ?? null)) ?></td></tr>
      <tr><th>Modified</th><td><?= scd_h(scd_time($m['mtime'] ?? null)) ?></td></tr>
      <tr><th>Accessed (sampled)</th><td><?= scd_h(scd_time($m['access_time'] ?? null)) ?></td></tr>
      <tr><th>Type</th><td id="d-type"><?= scd_h(is_object($details['value']) ? get_class($details['value']) : get_debug_type($details['value'])) ?></td></tr>
    </table>
    <h3>Value</h3>
    <pre class="value" id="d-value"><?= scd_h($details['found'] ? scd_preview($details['value']) : '(could not be read)') ?></pre>
    <form method="post" action="<?= scd_h($self) ?>" class="delete-form">
      <input type="hidden" name="action" value="delete">
      <input type="hidden" name="csrf" value="<?= scd_h($scd_csrf) ?>">
      <?= scd_key_field($view_key) ?>
      <input type="hidden" name="from_details" value="1">
      <button type="submit" class="danger">Delete this key</button>
    </form>
  <?php } ?>
  <p><a href="<?= scd_h($url(['list' => 1])) ?>#keys">← all keys</a></p>
</section>
<?php } else { ?>

<section id="overview">
  <h2>Overview</h2>
  <div class="cards">
    <div class="card"><div class="label">Entries</div><div class="big"><?= scd_v($info, 'entries') ?></div>
      <div class="sub">in <?= scd_v($info, 'slots') ?> table slots</div></div>
    <div class="card"><div class="label">Hit ratio</div><div class="big"><?= scd_d($derived, 'hit_ratio', 'pct') ?></div>
      <div class="sub"><?= scd_v($info, 'hits') ?> hits, <?= scd_v($info, 'misses') ?> misses</div></div>
    <div class="card"><div class="label">Memory used</div><div class="big"><?= scd_v($info, 'mem_used', 'bytes') ?></div>
      <div class="sub"><?= scd_d($derived, 'used_ratio', 'pct') ?> of <?= scd_v($info, 'mem_total', 'bytes') ?></div></div>
    <div class="card"><div class="label">Free</div><div class="big"><?= scd_v($info, 'mem_free', 'bytes') ?></div>
      <div class="sub">largest run <?= scd_v($info, 'largest_free_run', 'bytes') ?></div></div>
    <div class="card"><div class="label">Wasted</div><div class="big"><?= scd_v($info, 'mem_wasted', 'bytes') ?></div>
      <div class="sub">handed out beyond need (rounding); <?= scd_d($derived, 'unused', 'bytes') ?> held by shards, unused</div></div>
    <div class="card"><div class="label">Fragmentation</div><div class="big"><?= scd_d($derived, 'fragmentation', 'pct') ?></div>
      <div class="sub">free memory outside the largest run</div></div>
    <div class="card"><div class="label">Inserts</div><div class="big"><?= scd_v($info, 'inserts') ?></div>
      <div class="sub"><?= scd_v($info, 'updates') ?> updates, <?= scd_v($info, 'deletes') ?> deletes</div></div>
    <div class="card"><div class="label">Evictions</div><div class="big"><?= scd_v($info, 'evicted') ?></div>
      <div class="sub"><?= scd_v($info, 'expunges') ?> expunges, <?= scd_v($info, 'nomem') ?> out of memory</div></div>
    <div class="card"><div class="label">Expired</div><div class="big"><?= scd_v($info, 'expired') ?></div>
      <div class="sub"><?= scd_v($info, 'clears') ?> clears</div></div>
    <div class="card"><div class="label">Crash recovery</div><div class="big"><?= scd_v($info, 'repairs') ?></div>
      <div class="sub">shard repairs, <?= scd_v($info, 'resets') ?> full resets</div></div>
    <div class="card"><div class="label">Lock waits</div><div class="big"><?= scd_v($info, 'lock_waits') ?></div>
      <div class="sub">shard lock found busy; <?= scd_v($info, 'optimistic_retries') ?> optimistic reads retried</div></div>
    <div class="card"><div class="label">Page pool</div><div class="big"><?= scd_v($info, 'pool_lock_acquisitions') ?></div>
      <div class="sub">lock acquisitions; <?= scd_v($info, 'slab_refills') ?> slab refills, <?= scd_v($info, 'slab_returns') ?> returns</div></div>
    <div class="card"><div class="label">This PHP process</div><div class="big"><?= scd_v($info, 'local.hits') ?></div>
      <div class="sub">hits, <?= scd_v($info, 'local.misses') ?> misses, <?= scd_v($info, 'local.optimistic_retries') ?> optimistic retries, <?= scd_v($info, 'local.locked_reads') ?> locked reads</div></div>
  </div>
  <?php if (($info['view'] ?? '') === 'user') { ?>
  <p class="muted" id="user-view">shardcache.isolation=user: this page runs as user <?= scd_v($info, 'owner_uid') ?> and shows only
    that user's entries and their figures, and free memory in steps of 1/64 of the total; the segment's counters and per-shard
    figures are root's to read.</p>
  <?php } ?>
  <p class="muted">Shared hit and miss counts are sampled: each process records one hit (miss) in <?= scd_v($info, 'hit_sample') ?> as <?= scd_v($info, 'hit_sample') ?>, so they grow in steps. "This PHP process" counts exactly, but only for the process that served this page.</p>
</section>

<section id="over-time">
  <h2>Over time</h2>
  <p class="muted" id="samples-note">Rates per second from samples taken by this browser tab (kept in its session storage, at most 240).</p>
  <div class="grid2">
    <div><h3 class="muted">Hits and misses per second</h3><div class="chart-legend"></div><svg class="chart" id="chart-hits" viewBox="0 0 600 170"></svg></div>
    <div><h3 class="muted">Writes per second</h3><div class="chart-legend"></div><svg class="chart" id="chart-writes" viewBox="0 0 600 170"></svg></div>
    <div><h3 class="muted">Evictions, expunges and expiries per second</h3><div class="chart-legend"></div><svg class="chart" id="chart-evictions" viewBox="0 0 600 170"></svg></div>
    <div><h3 class="muted">Memory used</h3><div class="chart-legend"></div><svg class="chart" id="chart-memory" viewBox="0 0 600 170"></svg></div>
  </div>
</section>

<section id="memory">
  <h2>Memory</h2>
  <?= scd_memory_bar($info, $derived) ?>
  <p class="muted">Entries hold <?= scd_v($info, 'mem_entries', 'bytes') ?>, of which <?= scd_v($info, 'mem_wasted', 'bytes') ?> is rounding
    (size classes at most 1.25&times; apart, whole pages for large values); hash tables and other allocations take the rest of the
    <?= scd_v($info, 'mem_used', 'bytes') ?> handed out. Pages a shard holds but has not handed out (free objects in its slabs) show as unused.</p>
  <p class="muted">Total <?= scd_v($info, 'mem_total', 'bytes') ?> in 4 KiB pages;
    <?= scd_v($info, 'free_runs') ?> free runs, the largest <?= scd_v($info, 'largest_free_run', 'bytes') ?>.
    Values over 32 KiB need a run of contiguous free pages.
    <?php if (isset($info['large']) && is_array($info['large'])) { ?>Large values: <?= scd_v($info, 'large.runs') ?> runs in <?= scd_v($info, 'large.pages') ?> pages.<?php } ?></p>
  <details>
    <summary>Slab size classes</summary>
    <?= scd_bars('class-bars', $classes, 'bytes_used', 'classes', 'size', 'bytes', 'bytes used by size class') ?>
    <table id="classes">
      <tr><th>Object size</th><th>Slab pages</th><th>Objects used</th><th>Bytes used</th><th>Fill</th></tr>
      <?php foreach ($classes as $i => $c) {
          $cap = (float)($c['slab_pages'] ?? 0) * 4096;
          $fill = $cap > 0 ? (float)($c['bytes_used'] ?? 0) / $cap : null; ?>
        <tr><td><?= scd_h(scd_bytes($c['size'] ?? null)) ?></td><td><?= scd_v($info, "classes.$i.slab_pages") ?></td>
          <td><?= scd_v($info, "classes.$i.objects_used") ?></td><td><?= scd_v($info, "classes.$i.bytes_used", 'bytes') ?></td>
          <td><?= scd_pct($fill) ?></td></tr>
      <?php } ?>
    </table>
  </details>
</section>

<section id="shards">
  <h2>Shards</h2>
  <div class="grid2">
    <div><h3 class="muted">Entries per shard</h3><?= scd_bars('shard-entries', $shards, 'entries', 'per_shard', '', 'int', 'entries per shard') ?></div>
    <div><h3 class="muted">Memory used per shard</h3><?= scd_bars('shard-memory', $shards, 'mem_used', 'per_shard', '', 'bytes', 'memory per shard') ?></div>
  </div>
  <details<?= count($shards) <= 64 ? ' open' : '' ?>>
    <summary>Per-shard table (<?= count($shards) ?> shards)</summary>
    <table id="shard-table">
      <tr><th>Shard</th><th>Entries</th><th>Slots</th><th>Hits</th><th>Misses</th><th>Inserts</th><th>Evicted</th><th>Pages</th><th>Memory used</th><th>Wasted</th><th>Lock waits</th><th>Optimistic retries</th></tr>
      <?php foreach ($shards as $i => $s) { ?>
        <tr data-shard="<?= (int)$i ?>"><td><?= (int)$i ?></td><td><?= scd_v($info, "per_shard.$i.entries") ?></td><td><?= scd_v($info, "per_shard.$i.slots") ?></td>
          <td><?= scd_v($info, "per_shard.$i.hits") ?></td><td><?= scd_v($info, "per_shard.$i.misses") ?></td>
          <td><?= scd_v($info, "per_shard.$i.inserts") ?></td><td><?= scd_v($info, "per_shard.$i.evicted") ?></td>
          <td><?= scd_v($info, "per_shard.$i.pages") ?></td><td><?= scd_v($info, "per_shard.$i.mem_used", 'bytes') ?></td>
          <td><?= scd_v($info, "per_shard.$i.mem_wasted", 'bytes') ?></td><td><?= scd_v($info, "per_shard.$i.lock_waits") ?></td><td><?= scd_v($info, "per_shard.$i.optimistic_retries") ?></td></tr>
      <?php } ?>
    </table>
  </details>
</section>

<section id="keys">
  <h2>Keys</h2>
  <form method="get" action="<?= scd_h($self) ?>" class="searchbar" id="search-form">
    <input type="hidden" name="list" value="1">
    <?php if (isset($_GET['refresh'])) { ?><input type="hidden" name="refresh" value="<?= $refresh ?>"><?php } ?>
    <input type="text" name="q" id="q" value="<?= scd_h($q) ?>" placeholder="regular expression, e.g. ^user:\d+$" spellcheck="false" autocomplete="off">
    <label><input type="checkbox" name="i" value="1"<?= $ci ? ' checked' : '' ?>> ignore case</label>
    <label>sort <select name="sort" id="sort"><?php foreach ($sorts as $k => $l) { ?><option value="<?= $k ?>"<?= $k === $sort ? ' selected' : '' ?>><?= $l ?></option><?php } ?></select></label>
    <select name="order" id="order"><option value="asc"<?= $order === 'asc' ? ' selected' : '' ?>>ascending</option><option value="desc"<?= $order === 'desc' ? ' selected' : '' ?>>descending</option></select>
    <button type="submit" id="search-button">Search</button>
  </form>
  <p class="muted" id="search-bounds">A search examines at most <?= number_format((int)$SCD_CONFIG['max_scan']) ?> keys and runs at most <?= scd_h((string)$SCD_CONFIG['search_seconds']) ?> s (<code>max_scan</code>, <code>search_seconds</code>); a pattern that backtracks too much on a key does not match it.</p>
  <?php if ($regex_error !== null) { ?>
    <div class="flash err" id="regex-error">Invalid regular expression: <?= scd_h($regex_error) ?></div>
  <?php } elseif (!$listing) { ?>
    <p class="muted">Search with a regular expression (PCRE, no delimiters), or <a href="<?= scd_h($url(['list' => 1])) ?>#keys">list every key</a>.</p>
  <?php } else { ?>
    <p class="muted" id="match-count"><?= number_format($total_matches) ?> key<?= $total_matches === 1 ? '' : 's' ?> match<?= $total_matches === 1 ? 'es' : '' ?><?= $stopped !== null ? ' among the first ' . number_format($examined) . ' keys examined (search stopped at its limit of ' . ($stopped === 'keys' ? number_format((int)$SCD_CONFIG['max_scan']) . ' keys' : scd_h((string)$SCD_CONFIG['search_seconds']) . ' s') . ')' : '' ?><?= $source ? ' · read with ' . scd_h($source) : '' ?>.</p>
    <?php if ($keys) { ?>
    <table id="key-table">
      <tr><?php foreach (['key' => 'Key', 'size' => 'Size', 'hits' => 'Hits', 'ttl' => 'TTL', 'mtime' => 'Modified', 'atime' => 'Accessed'] as $k => $l) {
          $o = $sort === $k && $order === 'asc' ? 'desc' : 'asc'; ?>
        <th class="<?= $k === 'key' ? 'key' : '' ?>"><a href="<?= scd_h($url(['sort' => $k, 'order' => $o] + $list_params)) ?>#keys"><?= $l ?><?= $sort === $k ? ($order === 'asc' ? ' ▲' : ' ▼') : '' ?></a></th>
      <?php } ?><th></th></tr>
      <?php foreach ($keys as $r) { ?>
        <tr class="key-row">
          <td class="key"><a class="key-link" href="<?= scd_h($url(['key' => $r['key'], 'refresh' => $_GET['refresh'] ?? null])) ?>"><?= scd_key_html($r['key']) ?></a></td>
          <td><?= scd_h(scd_bytes($r['size'])) ?></td><td><?= scd_int($r['hits']) ?></td>
          <td><?= is_int($r['ttl']) ? ($r['ttl'] ? scd_int($r['ttl']) . ' s' : '–') : '–' ?></td>
          <td><?= scd_h(scd_time($r['mtime'])) ?></td><td><?= scd_h(scd_time($r['atime'])) ?></td>
          <td><form method="post" action="<?= scd_h($self) ?>" class="inline delete-form">
            <input type="hidden" name="action" value="delete">
            <input type="hidden" name="csrf" value="<?= scd_h($scd_csrf) ?>">
            <?= scd_key_field($r['key']) ?>
            <input type="hidden" name="back" value="<?= scd_h($back) ?>">
            <button type="submit" class="danger">Delete</button></form></td>
        </tr>
      <?php } ?>
    </table>
    <p>
      <?php if ($page > 0) { ?><a href="<?= scd_h($url(['page' => $page - 1] + $list_params)) ?>#keys">← previous</a><?php } ?>
      <?php if (($page + 1) * $page_size < $total_matches) { ?><a href="<?= scd_h($url(['page' => $page + 1] + $list_params)) ?>#keys" id="next-page">next →</a><?php } ?>
      <span class="muted">page <?= $page + 1 ?> of <?= max(1, (int)ceil($total_matches / $page_size)) ?></span>
    </p>
    <?php } ?>
  <?php } ?>
</section>

<section id="settings">
  <h2>Settings</h2>
  <table class="kv">
    <?php foreach (['apc.enabled', 'apc.enable_cli', 'apc.shm_size', 'apc.entries_hint', 'apc.ttl', 'apc.use_request_time', 'shardcache.shards', 'shardcache.apcu_compat'] as $name) {
        $v = ini_get($name); ?>
      <tr><th><?= scd_h($name) ?></th><td><?= $v === false ? '<span class="muted">not set</span>' : scd_h($v) ?></td></tr>
    <?php } ?>
    <tr><th>APCu loaded too</th><td><?= scd_real_apcu_loaded() ? 'yes: the apcu_* names and APCUIterator are APCu\'s' : 'no' ?></td></tr>
  </table>
</section>
<?php } ?>
</main>
<script type="application/json" id="initial-stats"><?= $initial ?></script>
<script nonce="<?= $nonce ?>">
"use strict";
(function () {
  const REFRESH0 = <?= (int)$refresh ?>;
  const MAX_SAMPLES = 240;
  const STORE = 'shardcache.dashboard.samples.v1:' + location.pathname;
  const FIELDS = ['hits', 'misses', 'inserts', 'updates', 'deletes', 'evicted', 'expunges', 'expired', 'nomem', 'mem_used', 'entries', 'mem_total'];

  function fmtInt(v) { return Number(v).toLocaleString('en-US', {maximumFractionDigits: 0}); }
  function fmtBytes(v) {
    v = Number(v);
    if (Math.abs(v) < 1024) return fmtInt(v) + ' B';
    const units = ['KiB', 'MiB', 'GiB', 'TiB'];
    for (let i = 0; i < units.length; i++) {
      v /= 1024;
      if (Math.abs(v) < 1024 || i === units.length - 1) {
        return v.toLocaleString('en-US', {minimumFractionDigits: 1, maximumFractionDigits: 1}) + ' ' + units[i];
      }
    }
  }
  function fmtPct(v) { return (v * 100).toLocaleString('en-US', {minimumFractionDigits: 1, maximumFractionDigits: 1}) + '%'; }
  function fmt(v, f) { return f === 'bytes' ? fmtBytes(v) : f === 'pct' ? fmtPct(v) : fmtInt(v); }
  function get(o, path) {
    for (const p of path.split('.')) { if (o === null || typeof o !== 'object' || !(p in o)) return null; o = o[p]; }
    return typeof o === 'boolean' ? (o ? 1 : 0) : o;
  }
  function derived(info) {
    const n = k => typeof info[k] === 'number' ? info[k] : null;
    const total = n('mem_total'), used = n('mem_used'), free = n('mem_free'), run = n('largest_free_run'), hits = n('hits'), misses = n('misses');
    const own = info.view === 'user';
    return {
      unused: !own && total !== null && used !== null && free !== null ? Math.max(0, total - used - free) : null,
      fragmentation: free !== null && run !== null ? (free > 0 ? Math.max(0, 1 - run / free) : 0) : null,
      hit_ratio: hits !== null && misses !== null && hits + misses > 0 ? hits / (hits + misses) : null,
      used_ratio: total ? (used || 0) / total : null,
    };
  }

  // ---- live numbers ----
  function apply(stats) {
    const info = stats.info || {};
    document.querySelectorAll('span.v[data-k]').forEach(el => {
      const v = get(info, el.dataset.k);
      if (typeof v !== 'number') return;
      el.dataset.v = String(v); el.title = String(v); el.textContent = fmt(v, el.dataset.f);
    });
    const d = derived(info);
    document.querySelectorAll('span.v[data-d]').forEach(el => {
      const v = d[el.dataset.d];
      if (v === null || v === undefined) { el.textContent = '–'; delete el.dataset.v; return; }
      el.dataset.v = String(v); el.textContent = fmt(v, el.dataset.f);
    });
    // memory bar
    const total = info.mem_total || 0;
    const num = k => typeof info[k] === 'number' ? info[k] : 0;
    const ent = typeof info.mem_entries === 'number' ? info.mem_entries : num('mem_used');
    const rounding = Math.min(ent, num('mem_wasted'));
    const parts = {
      entries: ent - rounding, rounding: rounding,
      tables: typeof info.mem_entries === 'number' ? Math.max(0, num('mem_used') - info.mem_entries) : 0,
      unused: d.unused || 0, free: num('mem_free'),
    };
    let x = 0;
    for (const k of ['entries', 'rounding', 'tables', 'unused', 'free']) {
      const r = document.querySelector('#mem-bar rect[data-part="' + k + '"]');
      const w = total > 0 ? 1000 * parts[k] / total : 0;
      if (r) { r.setAttribute('x', x.toFixed(2)); r.setAttribute('width', w.toFixed(2)); }
      const b = document.querySelector('[data-part-v="' + k + '"]');
      if (b) b.textContent = fmtBytes(parts[k]);
      x += w;
    }
    // bar charts
    document.querySelectorAll('svg.bars').forEach(svg => {
      const rects = Array.from(svg.querySelectorAll('rect[data-k]'));
      const vals = rects.map(r => Number(get(info, r.dataset.k)) || 0);
      const max = Math.max(0, ...vals);
      rects.forEach((r, i) => {
        const h = max > 0 ? 120 * vals[i] / max : 0;
        r.setAttribute('y', (120 - h + 2).toFixed(2)); r.setAttribute('height', h.toFixed(2));
      });
    });
    const up = document.getElementById('uptime');
    if (up && info.start_time) {
      const s = Math.max(0, Math.floor(stats.time - info.start_time));
      const dd = Math.floor(s / 86400), hh = Math.floor(s % 86400 / 3600), mm = Math.floor(s % 3600 / 60);
      up.textContent = (dd ? dd + 'd ' : '') + (dd || hh ? hh + 'h ' : '') + mm + 'm';
    }
  }

  // ---- samples ----
  function load() {
    try { const a = JSON.parse(sessionStorage.getItem(STORE) || '[]'); return Array.isArray(a) ? a : []; } catch (e) { return []; }
  }
  function save(a) { try { sessionStorage.setItem(STORE, JSON.stringify(a)); } catch (e) { /* full or disabled */ } }
  let samples = load();
  function addSample(stats) {
    const info = stats.info || {};
    const s = {t: stats.time, start: info.start_time || 0};
    for (const f of FIELDS) s[f] = typeof info[f] === 'number' ? info[f] : null;
    const last = samples[samples.length - 1];
    if (last && (last.start !== s.start || s.t <= last.t)) samples = [];   // another segment, or clock went back
    if (last && samples.length && s.t - last.t < 0.5) return;              // too close to the last one
    samples.push(s);
    if (samples.length > MAX_SAMPLES) samples = samples.slice(samples.length - MAX_SAMPLES);
    save(samples);
  }
  function rates(field) {
    const out = [];
    for (let i = 1; i < samples.length; i++) {
      const a = samples[i - 1], b = samples[i];
      if (a[field] === null || b[field] === null || b[field] < a[field]) continue;   // counter went back: a clear or reset
      out.push([b.t, (b[field] - a[field]) / (b.t - a.t)]);
    }
    return out;
  }
  function niceMax(v) {
    if (!(v > 0)) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(v))), m = v / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }
  function chart(id, series, f) {
    const svg = document.getElementById(id);
    if (!svg) return;
    const legend = svg.previousElementSibling;
    // Drawn at the element's own pixel size, so text is never stretched.
    const W = Math.max(300, Math.round(svg.getBoundingClientRect().width) || 600), H = 170, L = 72, R = 8, T = 8, B = 20;
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    const all = series.flatMap(s => s.points);
    const NS = 'http://www.w3.org/2000/svg';
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const el = (name, attrs, text) => { const e = document.createElementNS(NS, name); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text !== undefined) e.textContent = text; svg.appendChild(e); return e; };
    if (legend) legend.innerHTML = '';
    if (all.length < 1) {
      el('text', {x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'empty'}, samples.length < 2 ? 'collecting samples…' : 'no data');
      return;
    }
    // The x axis spans the samples (at least 10 s), ending now.
    const t1 = Math.max(...all.map(p => p[0])), t0 = Math.min(t1 - 10, ...all.map(p => p[0]));
    const ymax = niceMax(Math.max(...all.map(p => p[1])));
    const X = t => L + (W - L - R) * (t - t0) / Math.max(1e-9, t1 - t0), Y = v => T + (H - T - B) * (1 - v / ymax);
    for (let i = 0; i <= 4; i++) {
      const v = ymax * i / 4;
      el('line', {x1: L, x2: W - R, y1: Y(v), y2: Y(v), class: 'grid'});
      el('text', {x: L - 4, y: Y(v) + 4, 'text-anchor': 'end'}, f === 'bytes' ? fmtBytes(v) : (v < 10 && v > 0 ? v.toFixed(1) : fmtInt(v)));
    }
    const ago = Math.round(t1 - t0);
    el('text', {x: L, y: H - 4}, '-' + (ago >= 120 ? Math.round(ago / 60) + ' min' : ago + ' s'));
    el('text', {x: W - R, y: H - 4, 'text-anchor': 'end'}, 'now');
    series.forEach((s, i) => {
      if (!s.points.length) return;
      const d = s.points.map((p, j) => (j ? 'L' : 'M') + X(p[0]).toFixed(1) + ' ' + Y(p[1]).toFixed(1)).join(' ');
      if (s.area) el('path', {d: d + ' L' + X(s.points[s.points.length - 1][0]).toFixed(1) + ' ' + Y(0) + ' L' + X(s.points[0][0]).toFixed(1) + ' ' + Y(0) + ' Z', class: 'area s' + i});
      el('path', {d: d, class: 'line s' + i, 'data-series': s.name});
      if (legend) {
        const last = s.points[s.points.length - 1][1];
        const span = document.createElement('span');
        const sw = document.createElement('i'); sw.className = 'sw s' + i;
        span.appendChild(sw);
        span.appendChild(document.createTextNode(s.name + ' '));
        const b = document.createElement('b'); b.textContent = f === 'bytes' ? fmtBytes(last) : (last < 10 ? last.toFixed(2) : fmtInt(last)) + '/s';
        span.appendChild(b);
        legend.appendChild(span);
      }
    });
  }
  function drawCharts() {
    chart('chart-hits', [{name: 'hits', points: rates('hits')}, {name: 'misses', points: rates('misses')}]);
    chart('chart-writes', [{name: 'inserts', points: rates('inserts')}, {name: 'updates', points: rates('updates')}, {name: 'deletes', points: rates('deletes')}]);
    chart('chart-evictions', [{name: 'evictions', points: rates('evicted')}, {name: 'expunges', points: rates('expunges')}, {name: 'expired', points: rates('expired')}, {name: 'out of memory', points: rates('nomem')}]);
    chart('chart-memory', [{name: 'used', area: true, points: samples.filter(s => s.mem_used !== null).map(s => [s.t, s.mem_used])}], 'bytes');
    const note = document.getElementById('samples-note');
    if (note) note.dataset.samples = String(samples.length);
  }

  // ---- polling ----
  let refresh = REFRESH0, timer = null, busy = false;
  const status = document.getElementById('status');
  async function poll() {
    if (busy) return;
    busy = true;
    try {
      const r = await fetch(location.pathname + '?action=stats', {cache: 'no-store', credentials: 'same-origin'});
      if (!r.ok) throw new Error('HTTP ' + r.status);
      const stats = await r.json();
      apply(stats); addSample(stats); drawCharts();
      if (status) { status.textContent = 'updated ' + new Date().toLocaleTimeString(); status.dataset.polls = String(Number(status.dataset.polls || 0) + 1); }
    } catch (e) {
      if (status) status.textContent = 'update failed: ' + e.message;
    } finally { busy = false; }
  }
  function schedule() {
    if (timer) clearInterval(timer);
    timer = refresh > 0 ? setInterval(poll, refresh * 1000) : null;
  }
  const sel = document.getElementById('refresh');
  if (sel) sel.addEventListener('change', () => {
    refresh = Number(sel.value);
    const u = new URL(location.href); u.searchParams.set('refresh', String(refresh)); history.replaceState(null, '', u);
    schedule(); if (refresh > 0) poll();
  });

  // ---- confirmations ----
  const clear = document.getElementById('clear-form');
  if (clear) clear.addEventListener('submit', e => { if (!confirm('Clear the whole cache? Every entry of every shard is removed.')) e.preventDefault(); });
  document.querySelectorAll('form.delete-form').forEach(f => f.addEventListener('submit', e => {
    // The key travels as hex (any bytes); shown here as text.
    const hex = f.querySelector('input[name=key_hex]').value;
    const k = new TextDecoder().decode(new Uint8Array((hex.match(/../g) || []).map(h => parseInt(h, 16))));
    if (!confirm('Delete key ' + JSON.stringify(k) + '?')) e.preventDefault();
  }));

  let resizeTimer = null;
  window.addEventListener('resize', () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(drawCharts, 150); });

  // ---- start ----
  try {
    const initial = JSON.parse(document.getElementById('initial-stats').textContent);
    addSample(initial);
  } catch (e) { /* no initial figures */ }
  drawCharts();
  schedule();
})();
</script>
</body>
</html>
