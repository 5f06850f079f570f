<?php
/*
 * Side-by-side comparison of shardcache and APCu using bench.php.
 *
 *   php benchmarks/compare.php [--workloads=a,b] [--procs=1,2,4,8,16] [--seconds=2]
 *       [--pairs=3] [--shardcache=PATH.so] [--apcu=apcu.so] [--out=file.md]
 *       [--php=/usr/bin/php8.2] [--shm-size=128M] [--ini=k=v,k=v] [--raw=file.jsonl]
 *       [--shardcache-ini=k=v,k=v]   (extra -d settings for the shardcache runs only,
 *                                     e.g. shardcache.zero_copy=1)
 *       [--yac=PATH/yac.so|none] [--apcu-note=TEXT]
 *
 * --apcu-note=TEXT: where the APCu build came from (e.g. "built from Debian
 * sid's php-apcu 5.1.24-1 source"), shown beside its version in the header
 * and in the verdict.
 *
 * yac (a lockless shared-memory cache with get/set/add/delete only) is a
 * third column where its API allows (not inc_hot, entry_10k): by default
 * scripts/provision/yac.sh puts Debian's yac.so in
 * ${SHARDCACHE_CACHE_DIR:-/opt/shardcache}/yac (never installed
 * system-wide); --yac=none leaves it out. Within a pair the three
 * caches run back to back, the order rotating from pair to pair; the
 * shardcache/yac ratio is the median of the per-pair ratios, as for APCu.
 *
 * For every workload x procs cell it runs bench.php `pairs` times for each
 * cache, in pairs whose order alternates (shardcache,APCu / APCu,shardcache /
 * ...) so that slow drift of the machine cancels out, and reports the median
 * ops/s of each cache and the median of the per-pair ratios shardcache/APCu
 * as a Markdown table (stdout, and --out if given), then a short verdict
 * (per process count: the range and geometric mean of the ratios; the
 * cells where every pair agrees that one cache is faster, and those where
 * the pairs disagree; the baseline_* rows only as the noise level).
 * Progress goes to stderr.
 *
 * Each bench.php run is a fresh `php -n` process that loads exactly one of
 * the two extensions, so both run with the same INI settings. The shardcache
 * build is copied to a private temporary file first, so a rebuild of
 * modules/shardcache.so during the comparison (make rewrites the file in
 * place: running processes would die of SIGBUS) neither crashes runs nor
 * mixes two builds in one table.
 *
 * Exit status: 0 = all runs ok, 1 = some run failed or reported errors,
 * 2 = usage problem or no cache available.
 */

declare(strict_types=1);

require_once __DIR__ . '/lib.inc';
require_once __DIR__ . '/driver.inc';

const ALL_WORKLOADS = [
    'baseline_local_array',
    'baseline_empty_call',
    'fetch_int_hot16',
    'fetch_str_1k',
    'fetch_arr_100',
    'fetch_obj_small',
    'fetch_obj_list100',
    'fetch_obj_bigarr',
    'fetch_obj_datetime',
    'fetch_miss',
    'store_int_own',
    'store_int_parent',
    'store_int_child',
    'store_arr_100',
    'store_obj_small',
    'store_obj_list100',
    'store_obj_bigarr',
    'store_obj_datetime',
    'store_delete',
    'mixed_90_10',
    'mixed_zipf',
    'inc_hot',
    'entry_10k',
];
const DEFAULT_PROCS = '1,2,4,8,16';
// The workloads yac's API can run (no inc, entry or cas): bench.php's YAC_WORKLOADS.
const YAC_WORKLOADS_CMP = [
    'baseline_local_array', 'baseline_empty_call',
    'fetch_int_hot16', 'fetch_str_1k', 'fetch_arr_100', 'fetch_obj_small', 'fetch_miss',
    'store_int_own', 'store_int_parent', 'store_int_child', 'store_arr_100', 'store_delete', 'mixed_90_10', 'mixed_zipf',
];

function usage(string $msg = ''): never
{
    if ($msg !== '') {
        say("compare.php: $msg");
    }
    say("usage: php compare.php [--workloads=a,b] [--procs=1,2,4,8,16] [--seconds=2] [--pairs=3]\n"
        . "         [--shardcache=PATH.so] [--apcu=apcu.so] [--out=file.md]\n"
        . "         [--php=BINARY] [--shm-size=128M] [--ini=k=v,k=v] [--raw=file.jsonl]\n"
        . "         [--shardcache-ini=k=v,k=v] [--yac=PATH|none] [--apcu-note=TEXT]\n"
        . "workloads: " . implode(', ', ALL_WORKLOADS));
    exit(2);
}

/** The bench.php process currently running, for the signal handler. */
$current = null;

function fmt_rate(?float $r): string
{
    if ($r === null) {
        return 'n/a';
    }
    if ($r >= 1e6) {
        return sprintf('%.2f M', $r / 1e6);
    }
    if ($r >= 1e3) {
        return sprintf('%.1f k', $r / 1e3);
    }
    return sprintf('%.0f', $r);
}

/* ------------------------------------------------------------------ */

$opt = getopt('', ['workloads:', 'procs:', 'seconds:', 'pairs:', 'shardcache:', 'apcu:',
    'out:', 'php:', 'shm-size:', 'ini:', 'raw:', 'shardcache-ini:', 'yac:', 'apcu-note:', 'help']);
if (isset($opt['help'])) {
    usage();
}
foreach ($opt as $k => $v) {
    if (is_array($v)) {
        usage("--$k given more than once");
    }
}

$workloads = csv_list($opt['workloads'] ?? implode(',', ALL_WORKLOADS));
foreach ($workloads as $w) {
    if (!in_array($w, ALL_WORKLOADS, true)) {
        usage("unknown workload '$w'");
    }
}
$procsList = [];
foreach (csv_list($opt['procs'] ?? DEFAULT_PROCS) as $p) {
    $n = filter_var($p, FILTER_VALIDATE_INT, ['options' => ['min_range' => 1, 'max_range' => 256]]);
    if ($n === false) {
        usage("bad --procs value '$p'");
    }
    $procsList[] = $n;
}
$seconds = filter_var($opt['seconds'] ?? '2', FILTER_VALIDATE_INT, ['options' => ['min_range' => 1, 'max_range' => 600]]);
$pairs = filter_var($opt['pairs'] ?? '3', FILTER_VALIDATE_INT, ['options' => ['min_range' => 1, 'max_range' => 100]]);
if ($seconds === false || $pairs === false || !$workloads || !$procsList) {
    usage('bad --seconds / --pairs / --workloads / --procs');
}
$php = $opt['php'] ?? PHP_BINARY;
$shm = $opt['shm-size'] ?? '128M';
$extraIni = ini_list($opt['ini'] ?? '');
$scIni = ini_list($opt['shardcache-ini'] ?? '');
$bench = __DIR__ . '/bench.php';
$out = $opt['out'] ?? null;
$rawFile = $opt['raw'] ?? null;
$apcuNote = trim((string)($opt['apcu-note'] ?? ''));

// On SIGINT/SIGTERM/SIGHUP pass SIGTERM on to the running bench.php (which
// kills its own children) and stop.
stop_on_signals();

$caches = find_caches($php, $opt, $shm, $extraIni, [
    'shardcache' => ' (build it with phpize && ./configure && make, or pass --shardcache=PATH.so)',
    'apcu' => ' (apt-get install -y php8.2-apcu, or pass --apcu=PATH.so)',
]);
$both = isset($caches['shardcache'], $caches['apcu']);
$yac = find_yac($php, $opt, $shm, $extraIni);
if ($yac !== null) {
    $caches['yac'] = $yac;
}

$runsTotal = 0;
foreach ($workloads as $w) {
    $runsTotal += count($procsList) * $pairs * count(cell_caches($caches, $w));
}
say(sprintf('compare.php: %d runs of %ds (about %ds); caches: %s',
    $runsTotal, $seconds, (int)ceil($runsTotal * ($seconds + 0.3)),
    implode(', ', array_map(fn($c) => "{$c['label']} {$c['version']} ({$c['path']})", $caches))));

$rawFh = null;
if ($rawFile !== null) {
    $rawFh = fopen($rawFile, 'w');
    if ($rawFh === false) {
        usage("cannot write --raw file $rawFile");
    }
}

/** The caches that run workload $w: yac only where its API allows. */
function cell_caches(array $caches, string $w): array
{
    return array_values(array_filter(array_keys($caches),
        fn($c) => $c !== 'yac' || in_array($w, YAC_WORKLOADS_CMP, true)));
}

/**
 * yac's cache entry (or null): --yac=PATH, --yac=none, or by default the
 * build scripts/provision/yac.sh unpacks (fetched on first use). yac's memory
 * gets apc.shm_size for its values, and 16M of key slots (the 100,000 keys
 * of mixed_zipf do not fit the default 4M).
 */
function find_yac(string $php, array $opt, string $shm, array $ini): ?array
{
    $spec = $opt['yac'] ?? '';
    if ($spec === 'none') {
        return null;
    }
    if ($spec === '') {
        [$rc, $o, $e] = run_cmd(['bash', __DIR__ . '/../scripts/provision/yac.sh'], 600);
        $spec = trim($o);
        if ($rc !== 0 || $spec === '') {
            say('compare.php: yac unavailable (' . trim($e) . '); no yac column');
            return null;
        }
    }
    $run = ['-d', 'yac.enable_cli=1', '-d', "yac.values_memory_size=$shm", '-d', 'yac.keys_memory_size=16M'];
    $args = array_merge([$php, '-n', '-d', "extension=$spec"], $run,
        ['-r', 'echo class_exists("Yac", false) ? phpversion("yac") : "";']);
    [$rc, $o, $e] = run_cmd($args, 60);
    if ($rc !== 0 || trim($o) === '') {
        say("compare.php: yac ($spec) does not load with $php: " . trim($e . ' ' . $o) . '; no yac column');
        return null;
    }
    return ['label' => 'yac', 'path' => $spec, 'run' => $spec, 'version' => trim($o), 'ini' => $run];
}

/* ---- run ------------------------------------------------------------ */

$results = [];   // "$w|$p" => ['shardcache' => [rates by pair], 'apcu' => [...], 'errors' => [...], 'failed' => [...]]
$anyBad = false;
$runNo = 0;
foreach ($workloads as $w) {
    foreach ($procsList as $p) {
        $cell = ['rates' => [], 'errors' => [], 'failed' => []];
        foreach (array_keys($caches) as $c) {   // yac too, even where it cannot run: cells stay empty
            $cell['rates'][$c] = array_fill(0, $pairs, null);
            $cell['errors'][$c] = 0;
            $cell['failed'][$c] = 0;
        }
        for ($pi = 0; $pi < $pairs; $pi++) {
            // A,B then B,A then A,B ... (with yac: A,B,C / C,B,A / B,C,A ...)
            $order = cell_caches($caches, $w);
            if (count($order) === 3) {
                $order = [[0, 1, 2], [2, 1, 0], [1, 2, 0], [0, 2, 1], [2, 0, 1], [1, 0, 2]][$pi % 6];
                $order = array_map(fn($i) => cell_caches($caches, $w)[$i], $order);
            } elseif ($pi % 2 === 1) {
                $order = array_reverse($order);
            }
            foreach ($order as $c) {
                $runNo++;
                // 128M: PHP's own default, which bench.php workers have always run with.
                $argv = array_merge(base_args($php, $caches[$c]['run'], $shm,
                        $c === 'shardcache' ? array_merge($extraIni, $scIni) : $extraIni, '128M'),
                    $caches[$c]['ini'] ?? [], [$bench, "--workload=$w", "--procs=$p", "--seconds=$seconds"]);
                [$rc, $o, $e] = run_cmd($argv);
                $j = null;
                foreach (array_reverse(explode("\n", trim($o))) as $line) {
                    $j = json_decode($line, true);
                    if (is_array($j)) {
                        break;
                    }
                }
                $label = $caches[$c]['label'];
                $prefix = sprintf('[%d/%d] %s procs=%d pair %d/%d %s:', $runNo, $runsTotal, $w, $p, $pi + 1, $pairs, $label);
                if (!is_array($j) || !isset($j['ops_per_sec']) || ($rc !== 0 && $rc !== 1)) {
                    $anyBad = true;
                    $cell['failed'][$c]++;
                    say("$prefix FAILED (exit $rc) " . trim($e));
                    continue;
                }
                if ($j['cache'] !== $c) {
                    $anyBad = true;
                    $cell['failed'][$c]++;
                    say("$prefix FAILED: bench.php measured '{$j['cache']}', not '$c'");
                    continue;
                }
                if ($rawFh) {
                    fwrite($rawFh, json_encode(['pair' => $pi + 1, 'exit' => $rc] + $j) . "\n");
                }
                $bad = $j['errors'] + $j['failed_children'];
                $cell['errors'][$c] += $j['errors'];
                $cell['failed'][$c] += $j['failed_children'] > 0 ? 1 : 0;
                // yac takes no lock at all, and with several processes its reads
                // sometimes return a wrong value: those are shown in the table,
                // but only shardcache's and APCu's make the run fail.
                if ($bad > 0 && ($c !== 'yac' || $j['failed_children'] > 0)) {
                    $anyBad = true;
                }
                if ($j['failed_children'] === 0) {
                    $cell['rates'][$c][$pi] = (float)$j['ops_per_sec'];
                }
                say(sprintf('%s %s ops/s%s', $prefix, fmt_rate((float)$j['ops_per_sec']),
                    $bad > 0 ? " ERRORS={$j['errors']} failed_children={$j['failed_children']}" : ''));
                if ($bad > 0) {
                    // whatever the processes printed besides the result line
                    $noise = trim($e . "\n" . implode("\n", array_filter(explode("\n", $o),
                        fn($l) => trim($l) !== '' && !is_array(json_decode($l, true)))));
                    if ($noise !== '') {
                        say('    ' . substr(str_replace("\n", "\n    ", $noise), 0, 600));
                    }
                }
            }
        }
        $results["$w|$p"] = $cell;
    }
}
if ($rawFh) {
    fclose($rawFh);
}

/* ---- report --------------------------------------------------------- */

$cpu = 'unknown CPU';
if (is_readable('/proc/cpuinfo') && preg_match('/^model name\s*:\s*(.+)$/m', (string)file_get_contents('/proc/cpuinfo'), $m)) {
    $cpu = trim($m[1]);
}
$ncpu = 0;
if (is_readable('/proc/cpuinfo')) {
    $ncpu = preg_match_all('/^processor\s*:/m', (string)file_get_contents('/proc/cpuinfo'));
}
[, $phpVer] = run_cmd([$php, '-n', '-r', 'echo PHP_VERSION, " ", PHP_ZTS ? "ZTS" : "NTS";']);

$md = [];
$md[] = '## shardcache vs APCu' . (isset($caches['apcu']) ? ' ' . $caches['apcu']['version'] : '');
$md[] = '';
if (str_starts_with($apcuNote, '**')) {   // a warning about the peer (speed.sh's fallback)
    $md[] = $apcuNote;
    $md[] = '';
}
$md[] = sprintf('- date: %s; PHP %s; %s, %d CPUs', date('Y-m-d H:i T'), trim($phpVer), $cpu, $ncpu);
foreach ($caches as $k => $c) {
    $md[] = sprintf('- %s %s: `%s` (md5 %s)%s', $c['label'], $c['version'], $c['path'],
        is_file($c['run']) ? substr((string)md5_file($c['run']), 0, 12) : '?',
        $k === 'apcu' && $apcuNote !== '' ? "; $apcuNote" : '');
}
$md[] = sprintf('- %d s per run, %d pair(s) per cell (order alternates A,B / B,A), apc.shm_size=%s%s',
    $seconds, $pairs, $shm, $extraIni ? ', ' . implode(', ', array_map(fn($x) => "`$x`", $extraIni)) : '');
if ($scIni) {
    $md[] = '- shardcache runs only: ' . implode(', ', array_map(fn($x) => "`$x`", $scIni));
}
$md[] = '- ops/s: sum over processes, median over runs; ratio: median of the per-pair ratios shardcache/APCu (> 1: shardcache faster); range: min-max of those ratios';
$md[] = '';
if (isset($caches['yac'])) {
    $md[] = '- yac: ops/s and the median per-pair ratio shardcache/yac; empty where yac has no API for the workload';
    $md[] = '';
    $md[] = '| workload | procs | shardcache ops/s | APCu ops/s | shardcache/APCu | ratio range | yac ops/s | shardcache/yac | ratio range | errors |';
    $md[] = '|---|--:|--:|--:|--:|--:|--:|--:|--:|---|';
} else {
    $md[] = '| workload | procs | shardcache ops/s | APCu ops/s | shardcache/APCu | ratio range | errors |';
    $md[] = '|---|--:|--:|--:|--:|--:|---|';
}
foreach ($workloads as $w) {
    foreach ($procsList as $p) {
        $cell = $results["$w|$p"];
        $med = [];
        foreach (['shardcache', 'apcu'] as $c) {
            if (!isset($caches[$c])) {
                $med[$c] = 'skipped';
                continue;
            }
            $ok = array_filter($cell['rates'][$c], fn($x) => $x !== null);
            $med[$c] = $ok ? fmt_rate(median($ok)) : 'FAIL';
        }
        $ratio = 'n/a';
        $range = '';
        if ($both) {
            $rs = pair_ratios($cell, $pairs);
            if ($rs) {
                $ratio = sprintf('%.2f', median($rs));
                $range = count($rs) > 1 ? sprintf('%.2f-%.2f', min($rs), max($rs)) : '';
            } else {
                $ratio = 'FAIL';
            }
        }
        $errs = [];
        foreach ($caches as $c => $info) {
            if ($cell['errors'][$c] > 0 || $cell['failed'][$c] > 0) {
                $errs[] = sprintf('%s: %d errors, %d failed runs', $info['label'], $cell['errors'][$c], $cell['failed'][$c]);
            }
        }
        $yacCols = '';
        if (isset($caches['yac'])) {
            $yv = $yr = $yrange = '';
            if (in_array('yac', cell_caches($caches, $w), true)) {
                $ok = array_filter($cell['rates']['yac'], fn($x) => $x !== null);
                $yv = $ok ? fmt_rate(median($ok)) : 'FAIL';
                $rs = [];
                for ($pi = 0; $pi < $pairs; $pi++) {
                    $a = $cell['rates']['shardcache'][$pi] ?? null;
                    $b = $cell['rates']['yac'][$pi];
                    if ($a !== null && $b !== null && $b > 0) {
                        $rs[] = $a / $b;
                    }
                }
                if ($rs) {
                    $yr = sprintf('%.2f', median($rs));
                    $yrange = count($rs) > 1 ? sprintf('%.2f-%.2f', min($rs), max($rs)) : '';
                }
            }
            $yacCols = " $yv | $yr | $yrange |";
        }
        $md[] = sprintf('| %s | %d | %s | %s | %s | %s |%s %s |', $w, $p, $med['shardcache'], $med['apcu'],
            $ratio, $range, $yacCols, $errs ? '**' . implode('; ', $errs) . '**' : '0');
    }
}
$md[] = '';
$md = array_merge($md, verdict($workloads, $procsList, $pairs, $results, $caches, $apcuNote));
$text = implode("\n", $md);
echo $text;
if ($out !== null) {
    if (file_put_contents($out, $text) === false) {
        say("compare.php: cannot write $out");
        exit(1);
    }
    say("compare.php: table written to $out");
}
exit($anyBad ? 1 : 0);

/** shardcache's rate over APCu's in each pair of a cell where both ran. */
function pair_ratios(array $cell, int $pairs): array
{
    $rs = [];
    for ($pi = 0; $pi < $pairs; $pi++) {
        $a = $cell['rates']['shardcache'][$pi];
        $b = $cell['rates']['apcu'][$pi];
        if ($a !== null && $b !== null && $b > 0) {
            $rs[] = $a / $b;
        }
    }
    return $rs;
}

/**
 * The verdict under the table, as Markdown lines: shardcache/APCu per
 * process count (range and geometric mean of the cells' median ratios), the
 * cells where every pair has shardcache faster / slower, those where the
 * pairs disagree, the weakest cell, errors. baseline_* rows use neither
 * cache: their ratios are shown as the noise level only.
 */
function verdict(array $workloads, array $procsList, int $pairs, array $results, array $caches, string $note): array
{
    if (!isset($caches['shardcache'], $caches['apcu'])) {
        return ['**Verdict: none** (' . (isset($caches['apcu']) ? 'shardcache' : 'APCu') . ' could not be loaded)', ''];
    }
    $peer = "APCu {$caches['apcu']['version']}" . ($note !== '' ? " ($note)" : '');
    $byProcs = [];
    $faster = $slower = $mixed = [];
    $noise = [];
    $worst = null;
    $errCells = 0;
    foreach ($workloads as $w) {
        foreach ($procsList as $p) {
            $cell = $results["$w|$p"];
            $rs = pair_ratios($cell, $pairs);
            if ($cell['errors']['shardcache'] + $cell['failed']['shardcache']
                + $cell['errors']['apcu'] + $cell['failed']['apcu'] > 0) {
                $errCells++;
            }
            if (!$rs) {
                continue;
            }
            $m = median($rs);
            if (str_starts_with($w, 'baseline_')) {
                $noise[] = $m;
                continue;
            }
            $byProcs[$p][] = $m;
            $name = "$w@$p";
            if (min($rs) > 1) {
                $faster[] = $name;
            } elseif (max($rs) < 1) {
                $slower[] = sprintf('%s %.2fx', $name, $m);
            } else {
                $mixed[] = sprintf('%s %.2fx (%.2f-%.2f)', $name, $m, min($rs), max($rs));
            }
            if ($worst === null || $m < $worst[0]) {
                $worst = [$m, $w, $p];
            }
        }
    }
    $cells = count($faster) + count($slower) + count($mixed);
    $out = ['### Verdict', ''];
    if ($cells === 0) {
        return array_merge($out, ["No verdict: no cell has a shardcache/APCu pair that ran (see the errors above).", '']);
    }
    $out[] = sprintf('shardcache against %s: faster in %d of %d cells (in every pair), slower in %d (in every pair), too close to call in %d (the pairs disagree).',
        $peer, count($faster), $cells, count($slower), count($mixed));
    $out[] = '';
    foreach ($byProcs as $p => $ms) {
        $geo = exp(array_sum(array_map('log', $ms)) / count($ms));
        $out[] = count($ms) === 1
            ? sprintf('- %d process%s: %.2fx', $p, $p === 1 ? '' : 'es', $ms[0])
            : sprintf('- %d process%s: %.2fx to %.2fx, geometric mean %.2fx over %d workloads',
                $p, $p === 1 ? '' : 'es', min($ms), max($ms), $geo, count($ms));
    }
    $out[] = sprintf('- weakest cell: %s at %d process%s, %.2fx', $worst[1], $worst[2], $worst[2] === 1 ? '' : 'es', $worst[0]);
    if ($slower) {
        $out[] = '- slower in every pair: ' . implode(', ', $slower);
    }
    if ($mixed) {
        $out[] = '- pairs disagree (noise, or too close to call): ' . implode(', ', $mixed);
    }
    if ($noise) {
        $out[] = '- noise level (baseline rows, no cache in the loop): ' . (count($noise) === 1
            ? sprintf('ratio %.2f', $noise[0]) : sprintf('ratios %.2f to %.2f', min($noise), max($noise)));
    }
    $out[] = $errCells > 0
        ? sprintf('- **errors or failed runs in %d cell(s): their figures are not valid**', $errCells)
        : '- errors: none (every value read back was right, no process failed)';
    $out[] = '';
    return $out;
}
