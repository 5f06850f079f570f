<?php
/*
 * Hit-ratio benchmark: shardcache vs APCu on a Zipf key stream whose working
 * set is larger than the segment, with the get-or-set pattern (fetch; on a
 * miss, store).
 *
 * Driver (runs every cell in fresh `php -n -d extension=...` processes,
 * alternating which cache goes first):
 *
 *   php -n benchmarks/hitratio.php [--s=0.9,1.0] [--procs=1,4] [--requests=1000000]
 *       [--warmup=200000] [--shm-size=32M] [--ws=2] [--min-size=1024] [--max-size=4096]
 *       [--seed=1] [--shardcache=PATH.so] [--apcu=apcu.so] [--php=BINARY] [--ini=k=v,k=v]
 *       [--out=file.md] [--raw=file.jsonl] [--timeout=600] [--quick]
 *
 * Worker (the cache to measure is loaded; prints ONE JSON line):
 *
 *   php -n -d extension=... -d apc.enable_cli=1 -d apc.shm_size=32M \
 *       benchmarks/hitratio.php --worker --s=0.9 --procs=1 --requests=1000000
 *
 * Workload: keys "h{r}", r = 0..N-1, where rank r is requested with
 * probability proportional to 1/(r+1)^s. Key r's value is a string of
 * size(r) bytes, size(r) = min + crc32("h{r}") mod (max - min + 1) (uniform
 * 1..4 KiB by default, independent of the rank), starting with an 8-byte
 * header (r, size) followed by bytes of a random blob. N is chosen so that
 * the values add up to --ws times apc.shm_size (default: twice the segment),
 * so at most about half of them fit.
 *
 * Protocol: the parent clears the cache and runs --warmup requests alone
 * (untimed, not counted), then reads the cache's counters and forks --procs
 * children that share --requests requests, each with its own mt_rand seed.
 * Per request: apcu_fetch(key, $found); a hit must have the key's length
 * and header (every 64th hit: every byte); on a miss the value is stored
 * (a false return is a failed store).
 *
 * Reported: hit ratio of the measured requests; failed stores; expunges (the
 * cache's own counter, read by the parent around the measured phase: for
 * APCu each is a whole-cache wipe, for shardcache a cross-shard eviction
 * pass); entry-count drops: child 0 reads the cache's entry count every 5000
 * requests and counts readings below half the previous one (a wipe seen
 * from outside, whatever the cache calls it); and, for reference, the best
 * hit ratio any cache holding a fixed set of values with at most
 * apc.shm_size payload bytes could reach on this distribution ("static
 * best": greedy by probability per byte, no per-entry overhead).
 *
 * Exit status: 0 = ok, 1 = errors or a failed run, 2 = usage / environment.
 */

declare(strict_types=1);

require_once __DIR__ . '/lib.inc';
require_once __DIR__ . '/driver.inc';

const HDR = 8;                   // pack('NN', rank, size)
const BLOB_BYTES = 131072;
const ENTRY_CHECK_EVERY = 5000;  // child 0: requests between entry-count reads

function usage(string $msg = ''): never
{
    if ($msg !== '') {
        say("hitratio.php: $msg");
    }
    say("usage: php -n hitratio.php [--s=0.9,1.0] [--procs=1,4] [--requests=1000000] [--warmup=200000]\n"
        . "         [--shm-size=32M] [--ws=2] [--min-size=1024] [--max-size=4096] [--seed=1]\n"
        . "         [--shardcache=PATH.so] [--apcu=apcu.so] [--php=BINARY] [--ini=k=v,k=v]\n"
        . "         [--out=file.md] [--raw=file.jsonl] [--timeout=600] [--quick]\n"
        . "       php -n -d extension=... -d apc.enable_cli=1 hitratio.php --worker [--s=0.9] [--procs=1]\n"
        . "         [--requests=N] [--warmup=N] [--ws=2] [--min-size=N] [--max-size=N] [--seed=N]");
    exit(2);
}

function fail_env(string $msg): never
{
    say("hitratio.php: $msg");
    exit(2);
}

function parse_size(string $s): int
{
    if (!preg_match('/^\s*(\d+)\s*([kKmMgG]?)\s*$/', $s, $m)) {
        return 0;
    }
    return (int)$m[1] * ['' => 1, 'k' => 1024, 'm' => 1048576, 'g' => 1073741824][strtolower($m[2])];
}

/* ================================================================== */
/* worker                                                              */

/** [entries, expunges] as the loaded cache reports them (null: not reported). */
function read_stats(): array
{
    $entries = $expunges = null;
    try {
        $srcs = [];
        if (cache_name() === 'shardcache' && function_exists('shardcache_info')) {
            $srcs[] = @shardcache_info();
        }
        if (function_exists('apcu_cache_info')) {
            $srcs[] = @apcu_cache_info(true);
        }
        foreach ($srcs as $a) {
            if (!is_array($a)) {
                continue;
            }
            foreach (['num_entries', 'entries'] as $k) {
                if ($entries === null && isset($a[$k]) && is_numeric($a[$k])) {
                    $entries = (int)$a[$k];
                }
            }
            if ($expunges === null && isset($a['expunges']) && is_numeric($a['expunges'])) {
                $expunges = (int)$a['expunges'];
            }
        }
    } catch (Throwable $e) {
        // a half-implemented info function: report what we have
    }
    return [$entries, $expunges];
}

/** The workload: key names, value sizes, headers, and the Zipf CDF. */
final class Workload
{
    public array $keys = [];
    public array $size = [];
    public array $hdr = [];
    public array $cdf = [];
    public float $total = 0.0;
    public int $n = 0;
    public int $wsBytes = 0;
    public string $blob;

    public function __construct(public float $s, int $shm, float $ws, public int $min, public int $max)
    {
        $this->n = max(1, (int)round($ws * $shm / (($min + $max) / 2)));
        $sum = 0.0;
        for ($r = 0; $r < $this->n; $r++) {
            $key = "h$r";
            $sz = $min + crc32($key) % ($max - $min + 1);
            $this->keys[] = $key;
            $this->size[] = $sz;
            $this->hdr[] = pack('NN', $r, $sz);
            $this->wsBytes += $sz;
            $sum += 1.0 / (($r + 1) ** $s);
            $this->cdf[] = $sum;
        }
        $this->total = $sum;
        $this->blob = random_bytes(BLOB_BYTES);
    }

    public function value(int $r): string
    {
        return $this->hdr[$r] . substr($this->blob, ($r * 131) & 0xFFFF, $this->size[$r] - HDR);
    }

    /** A rank drawn from the Zipf distribution (mt_rand; seed it first). */
    public function draw(): int
    {
        static $max = null;
        $max ??= mt_getrandmax() + 1.0;
        $u = (mt_rand() + mt_rand() / $max) / $max * $this->total;
        $lo = 0;
        $hi = $this->n - 1;
        $cdf = $this->cdf;
        while ($lo < $hi) {
            $mid = ($lo + $hi) >> 1;
            if ($cdf[$mid] > $u) {
                $hi = $mid;
            } else {
                $lo = $mid + 1;
            }
        }
        return $lo;
    }

    /** Best hit ratio of a fixed set of values with at most $cap payload bytes. */
    public function staticBest(int $cap): float
    {
        $order = range(0, $this->n - 1);
        $dens = [];
        foreach ($order as $r) {
            $dens[$r] = ($this->cdf[$r] - ($r ? $this->cdf[$r - 1] : 0.0)) / $this->size[$r];
        }
        arsort($dens);
        $bytes = 0;
        $p = 0.0;
        foreach ($dens as $r => $d) {
            if ($bytes + $this->size[$r] > $cap) {
                continue;
            }
            $bytes += $this->size[$r];
            $p += $d * $this->size[$r];
        }
        return $p / $this->total;
    }
}

/** Runs $n get-or-set requests; returns the counters. */
function requests(Workload $w, int $n, bool $watchEntries, $sock): array
{
    $r = ['requests' => 0, 'hits' => 0, 'misses' => 0, 'store_failed' => 0, 'errors' => 0, 'error_msgs' => [],
        'entry_reads' => 0, 'entry_drops' => 0, 'entries_min' => null, 'entries_max' => null];
    $keys = $w->keys;
    $size = $w->size;
    $hdr = $w->hdr;
    $prev = null;
    $fullEvery = 0;
    for ($i = 0; $i < $n; $i++) {
        $k = $w->draw();
        $v = apcu_fetch($keys[$k], $found);
        if ($found) {
            $r['hits']++;
            if (!is_string($v) || strlen($v) !== $size[$k] || strncmp($v, $hdr[$k], HDR) !== 0
                || ((++$fullEvery & 63) === 0 && $v !== $w->value($k))) {
                $r['errors']++;
                if (count($r['error_msgs']) < 5) {
                    $r['error_msgs'][] = "{$keys[$k]}: wrong value ("
                        . (is_string($v) ? strlen($v) . ' bytes' : get_debug_type($v)) . ", want {$size[$k]} bytes)";
                }
            }
        } else {
            $r['misses']++;
            if (!apcu_store($keys[$k], $w->value($k))) {
                $r['store_failed']++;
            }
        }
        if ($watchEntries && $i % ENTRY_CHECK_EVERY === ENTRY_CHECK_EVERY - 1) {
            [$e] = read_stats();
            if ($e !== null) {
                $r['entry_reads']++;
                if ($prev !== null && $e < $prev / 2) {
                    $r['entry_drops']++;
                }
                $r['entries_min'] = $r['entries_min'] === null ? $e : min($r['entries_min'], $e);
                $r['entries_max'] = $r['entries_max'] === null ? $e : max($r['entries_max'], $e);
                $prev = $e;
            }
            if ($sock !== null && !parent_alive($sock)) {
                break;
            }
        }
    }
    $r['requests'] = $r['hits'] + $r['misses'];
    return $r;
}

function worker(float $s, int $procs, int $requests, int $warmup, float $ws, int $min, int $max, int $seed,
                int $timeout): int
{
    $shm = parse_size((string)ini_get('apc.shm_size'));
    if ($shm <= 0) {
        fail_env('cannot read apc.shm_size');
    }
    $w = new Workload($s, $shm, $ws, $min, $max);
    apcu_clear_cache();
    [, $x0] = read_stats();
    mt_srand($seed * 1000003 + 7);
    $warm = requests($w, $warmup, false, null);
    [$e1, $x1] = read_stats();
    $per = intdiv($requests, $procs);
    [$res, $failed, $elapsed] = fork_run($procs, $timeout, function (int $i, $sock) use ($w, $per, $requests, $procs, $seed) {
        mt_srand($seed * 1000003 + 7919 * ($i + 1));
        return requests($w, $per + ($i < $requests % $procs ? 1 : 0), $i === 0, $sock);
    });
    [$e2, $x2] = read_stats();
    $sum = fn(string $k) => array_sum(array_column($res, $k));
    $msgs = [];
    foreach ($res as $x) {
        $msgs = array_merge($msgs, $x['error_msgs']);
    }
    $c0 = $res[0] ?? [];
    $req = $sum('requests');
    $out = [
        'cache' => cache_name(),
        'cache_version' => in_array(cache_name(), ['apcu', 'shardcache'], true) ? phpversion(cache_name()) : null,
        'shm_size' => $shm,
        's' => $s,
        'procs' => $procs,
        'keys' => $w->n,
        'ws_bytes' => $w->wsBytes,
        'value_sizes' => [$min, $max],
        'warmup' => $warmup,
        'warmup_hit_ratio' => $warm['requests'] ? round($warm['hits'] / $warm['requests'], 4) : null,
        'warmup_store_failed' => $warm['store_failed'],
        'warmup_expunges' => ($x0 === null || $x1 === null) ? null : $x1 - $x0,
        'requests' => $req,
        'hits' => $sum('hits'),
        'misses' => $sum('misses'),
        'hit_ratio' => $req ? round($sum('hits') / $req, 4) : null,
        'store_failed' => $sum('store_failed'),
        'expunges' => ($x1 === null || $x2 === null) ? null : $x2 - $x1,
        'entry_reads' => $c0['entry_reads'] ?? 0,
        'entry_drops' => $c0['entry_drops'] ?? 0,
        'entries_after_warmup' => $e1,
        'entries_min' => $c0['entries_min'] ?? null,
        'entries_max' => $c0['entries_max'] ?? null,
        'entries_end' => $e2,
        'static_best' => round($w->staticBest($shm), 4),
        'elapsed' => round($elapsed, 3),
        'requests_per_sec' => $elapsed > 0 ? (int)round($req / $elapsed) : 0,
        'errors' => $sum('errors') + $warm['errors'],
        'error_msgs' => array_slice(array_merge($warm['error_msgs'], $msgs), 0, 5),
        'failed_children' => $failed,
    ];
    echo json_encode($out) . "\n";
    return ($out['errors'] > 0 || $failed > 0) ? 1 : 0;
}

/* ================================================================== */
/* driver                                                              */

$current = null;

function num(mixed $x, string $fmt = '%d'): string
{
    return $x === null ? 'n/a' : sprintf($fmt, $x);
}

function driver(array $opt): int
{
    $quick = isset($opt['quick']);
    $sList = [];
    foreach (csv_list($opt['s'] ?? '0.9,1.0') as $x) {
        $f = filter_var($x, FILTER_VALIDATE_FLOAT);
        if ($f === false || $f <= 0 || $f > 3) {
            usage("bad --s value '$x'");
        }
        $sList[] = (float)$f;
    }
    $procsList = [];
    foreach (csv_list($opt['procs'] ?? '1,4') as $p) {
        $n = filter_var($p, FILTER_VALIDATE_INT, ['options' => ['min_range' => 1, 'max_range' => 64]]);
        if ($n === false) {
            usage("bad --procs value '$p'");
        }
        $procsList[] = $n;
    }
    $requests = filter_var($opt['requests'] ?? ($quick ? '200000' : '1000000'), FILTER_VALIDATE_INT, ['options' => ['min_range' => 1000]]);
    $warmup = filter_var($opt['warmup'] ?? ($quick ? '100000' : '200000'), FILTER_VALIDATE_INT, ['options' => ['min_range' => 0]]);
    $ws = filter_var($opt['ws'] ?? '2', FILTER_VALIDATE_FLOAT);
    $min = filter_var($opt['min-size'] ?? '1024', FILTER_VALIDATE_INT, ['options' => ['min_range' => HDR]]);
    $max = filter_var($opt['max-size'] ?? '4096', FILTER_VALIDATE_INT, ['options' => ['min_range' => HDR, 'max_range' => BLOB_BYTES / 2]]);
    $seed = filter_var($opt['seed'] ?? '1', FILTER_VALIDATE_INT);
    $timeout = filter_var($opt['timeout'] ?? '600', FILTER_VALIDATE_INT, ['options' => ['min_range' => 10]]);
    if ($requests === false || $warmup === false || $ws === false || $ws <= 0 || $min === false || $max === false
        || $min > $max || $seed === false || $timeout === false || !$sList || !$procsList) {
        usage('bad option value');
    }
    $shm = $opt['shm-size'] ?? '32M';
    if (parse_size($shm) < 1048576) {
        usage('--shm-size must be at least 1M');
    }
    $ini = ini_list($opt['ini'] ?? '');
    $php = $opt['php'] ?? PHP_BINARY;
    stop_on_signals();
    $caches = find_caches($php, $opt, $shm, $ini);
    $rawFh = null;
    if (isset($opt['raw']) && ($rawFh = fopen($opt['raw'], 'w')) === false) {
        usage("cannot write {$opt['raw']}");
    }

    $anyBad = false;
    $res = [];
    $cell = 0;
    $cells = count($sList) * count($procsList);
    foreach ($procsList as $p) {
        foreach ($sList as $s) {
            $order = array_keys($caches);
            if ($cell++ % 2 === 1) {
                $order = array_reverse($order);
            }
            foreach ($order as $c) {
                say(sprintf('[%d/%d] hit ratio s=%.2f procs=%d %s (%d requests after %d warm-up, shm %s)',
                    $cell, $cells, $s, $p, $caches[$c]['label'], $requests, $warmup, $shm));
                $args = ["--s=$s", "--procs=$p", "--requests=$requests", "--warmup=$warmup", "--ws=$ws",
                    "--min-size=$min", "--max-size=$max", "--seed=$seed", "--timeout=$timeout"];
                $argv = array_merge(base_args($php, $caches[$c]['run'], $shm, $ini), [__FILE__, '--worker'], $args);
                [$rc, $o, $e] = run_cmd($argv, $timeout + 60);
                $j = null;
                foreach (array_reverse(explode("\n", trim($o))) as $line) {
                    $j = json_decode($line, true);
                    if (is_array($j)) {
                        break;
                    }
                }
                if (!is_array($j) || ($rc !== 0 && $rc !== 1)) {
                    say("    FAILED (exit $rc): " . substr(trim($e . ' ' . $o), 0, 600));
                    $res["$p|$s|$c"] = ['failed' => true, 'exit' => $rc];
                    $anyBad = true;
                    continue;
                }
                if (trim($e) !== '') {
                    say('    stderr: ' . substr(str_replace("\n", "\n    ", trim($e)), 0, 600));
                }
                $j['failed'] = false;
                $j['exit'] = $rc;
                if ($j['errors'] > 0 || $j['failed_children'] > 0) {
                    $anyBad = true;
                }
                if ($rawFh) {
                    fwrite($rawFh, json_encode($j) . "\n");
                }
                say(sprintf('    hit ratio %.4f, failed stores %d, expunges %s, entry drops %d, %.1f s, errors %d%s',
                    $j['hit_ratio'], $j['store_failed'], num($j['expunges']), $j['entry_drops'], $j['elapsed'],
                    $j['errors'], $j['errors'] ? ' ' . implode('; ', $j['error_msgs']) : ''));
                $res["$p|$s|$c"] = $j;
            }
        }
    }
    if ($rawFh) {
        fclose($rawFh);
    }

    $cpu = 'unknown CPU';
    if (is_readable('/proc/cpuinfo') && preg_match('/^model name\s*:\s*(.+)$/m', (string)file_get_contents('/proc/cpuinfo'), $m)) {
        $cpu = trim($m[1]);
    }
    $any = null;
    foreach ($res as $j) {
        if (!$j['failed']) {
            $any = $j;
            break;
        }
    }
    $md = [];
    $md[] = '## Hit ratio: shardcache vs APCu';
    $md[] = '';
    $md[] = sprintf('- date: %s; PHP %s; %s, %d CPUs', date('Y-m-d H:i T'), PHP_VERSION, $cpu,
        (int)preg_match_all('/^processor\s*:/m', (string)@file_get_contents('/proc/cpuinfo')));
    foreach ($caches as $c) {
        $md[] = sprintf('- %s %s: `%s` (md5 %s)', $c['label'], $c['version'], $c['path'],
            is_file($c['run']) ? substr((string)md5_file($c['run']), 0, 12) : '?');
    }
    $md[] = sprintf('- apc.shm_size=%s%s; %s keys, values %d..%d B (uniform), working set %s = %.1fx the segment;'
        . ' Zipf key ranks; get-or-set; %d requests measured after %d warm-up requests, seed %d',
        $shm, $ini ? ', ' . implode(', ', array_map(fn($x) => "`$x`", $ini)) : '', $any ? $any['keys'] : '?', $min, $max,
        $any ? sprintf('%.1f MiB', $any['ws_bytes'] / 1048576) : '?', $ws, $requests, $warmup, $seed);
    $md[] = '- expunges: the cache\'s own counter during the measured requests (APCu: whole-cache wipes;'
        . ' shardcache: cross-shard eviction passes); entry drops: readings of the entry count (every 5000 requests'
        . ' of one process) below half the previous reading; static best: the best a cache holding a fixed set of'
        . ' values with apc.shm_size payload bytes and no overhead could do';
    $md[] = '';
    $md[] = '| s | procs | cache | hit ratio | static best | failed stores | expunges | entry drops | entries min-max | requests/s | errors |';
    $md[] = '|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|---|';
    foreach ($procsList as $p) {
        foreach ($sList as $s) {
            foreach (array_keys($caches) as $c) {
                $j = $res["$p|$s|$c"];
                $label = $caches[$c]['label'];
                if ($j['failed']) {
                    $md[] = sprintf('| %.2f | %d | %s | **FAILED (exit %d)** | | | | | | | |', $s, $p, $label, $j['exit']);
                    continue;
                }
                $md[] = sprintf('| %.2f | %d | %s | %.4f | %.4f | %d | %s | %d | %s | %s | %s |', $s, $p, $label,
                    $j['hit_ratio'], $j['static_best'], $j['store_failed'], num($j['expunges']), $j['entry_drops'],
                    $j['entries_min'] === null ? 'n/a' : "{$j['entries_min']}-{$j['entries_max']}",
                    num($j['requests_per_sec']),
                    ($j['errors'] || $j['failed_children'])
                        ? sprintf('**%d errors, %d failed children**', $j['errors'], $j['failed_children']) : '0');
            }
        }
    }
    $md[] = '';
    $text = implode("\n", $md);
    echo $text;
    if (isset($opt['out'])) {
        if (file_put_contents($opt['out'], $text) === false) {
            say("hitratio.php: cannot write {$opt['out']}");
            return 1;
        }
        say("hitratio.php: table written to {$opt['out']}");
    }
    return $anyBad ? 1 : 0;
}

/* ================================================================== */

$opt = getopt('', ['worker', 's:', 'procs:', 'requests:', 'warmup:', 'ws:', 'min-size:', 'max-size:', 'seed:',
    'timeout:', 'shm-size:', 'shardcache:', 'apcu:', 'php:', 'ini:', 'out:', 'raw:', 'quick', 'help']);
if (isset($opt['help'])) {
    usage();
}
foreach ($opt as $k => $v) {
    if (is_array($v)) {
        usage("--$k given more than once");
    }
}
if (!isset($opt['worker'])) {
    exit(driver($opt));
}

if (!function_exists('pcntl_fork')) {
    fail_env('pcntl is required');
}
if (!function_exists('apcu_store')) {
    fail_env('no apcu_* functions: load apcu.so or shardcache.so (php -n -d extension=...)');
}
if (!apcu_enabled()) {
    fail_env('cache not enabled: pass -d apc.enable_cli=1');
}
$s = filter_var($opt['s'] ?? '0.9', FILTER_VALIDATE_FLOAT);
$procs = filter_var($opt['procs'] ?? '1', FILTER_VALIDATE_INT, ['options' => ['min_range' => 1, 'max_range' => 64]]);
$requests = filter_var($opt['requests'] ?? '1000000', FILTER_VALIDATE_INT, ['options' => ['min_range' => 1]]);
$warmup = filter_var($opt['warmup'] ?? '200000', FILTER_VALIDATE_INT, ['options' => ['min_range' => 0]]);
$ws = filter_var($opt['ws'] ?? '2', FILTER_VALIDATE_FLOAT);
$min = filter_var($opt['min-size'] ?? '1024', FILTER_VALIDATE_INT, ['options' => ['min_range' => HDR]]);
$max = filter_var($opt['max-size'] ?? '4096', FILTER_VALIDATE_INT, ['options' => ['min_range' => HDR, 'max_range' => BLOB_BYTES / 2]]);
$seed = filter_var($opt['seed'] ?? '1', FILTER_VALIDATE_INT);
$timeout = filter_var($opt['timeout'] ?? '600', FILTER_VALIDATE_INT, ['options' => ['min_range' => 10]]);
if ($s === false || $s <= 0 || $procs === false || $requests === false || $warmup === false || $ws === false
    || $ws <= 0 || $min === false || $max === false || $min > $max || $seed === false || $timeout === false) {
    usage('bad option value');
}
exit(worker((float)$s, $procs, $requests, $warmup, (float)$ws, $min, $max, $seed, $timeout));
