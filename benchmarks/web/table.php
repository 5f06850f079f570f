<?php
/*
 * benchmarks/web/table.php - turns the raw results of scripts/web-bench.sh
 * (one tab-separated line per wrk run) into the Markdown table.
 *
 *   php -n table.php RAW.tsv
 *
 * RAW.tsv columns: workers page cache pair requests seconds rps p50_us p99_us
 * cpu_us_per_req errors. For every (page, workers) it prints the median over
 * the pairs of each figure for shardcache and APCu, and the median (with the
 * range) of the per-pair ratios shardcache / APCu, each pair being the two
 * runs that ran back to back (req/s: higher is better; p99 and CPU per
 * request: lower is better), then the runs themselves.
 */
if ($argc < 2 || !is_readable($argv[1])) {
    fwrite(STDERR, "usage: php -n table.php RAW.tsv\n");
    exit(2);
}

function median(array $v): float
{
    sort($v);
    $n = count($v);
    if ($n == 0) return NAN;
    return $n % 2 ? $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
}

function fmt(float $x, int $dec = 0): string
{
    return is_nan($x) ? '-' : number_format($x, $dec, '.', '');
}

/* Median and range of the ratios a[pair] / b[pair] over the pairs both have. */
function pair_ratio(array $a, array $b): string
{
    $r = [];
    foreach ($a as $pair => $x) {
        if (isset($b[$pair]) && $b[$pair] > 0) {
            $r[] = $x / $b[$pair];
        }
    }
    if (!$r) return '-';
    return sprintf('%.2fx (%.2f-%.2f)', median($r), min($r), max($r));
}

$rows = [];
$runs = [];
foreach (file($argv[1], FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    $f = explode("\t", $line);
    if (count($f) < 11) continue;
    [$w, $page, $cache, $pair, $req, $sec, $rps, $p50, $p99, $cpu, $err] = $f;
    $k = "$page\t$w";
    foreach (['rps' => $rps, 'p99' => $p99 / 1000, 'cpu' => $cpu] as $m => $x) {
        $rows[$k][$cache][$m][(int) $pair] = (float) $x;
    }
    $rows[$k][$cache]['err'][] = (int) $err;
    $runs[] = $f;
}

$pages = ['fetch_scalar' => '100 fetches of an int', 'fetch_array' => '100 fetches of a 100-element array',
          'store' => '10 stores of a small array'];
uksort($rows, function ($a, $b) use ($pages) {
    [$pa, $wa] = explode("\t", $a);
    [$pb, $wb] = explode("\t", $b);
    $ia = array_search($pa, array_keys($pages));
    $ib = array_search($pb, array_keys($pages));
    return [$ia === false ? 99 : $ia, $pa, (int) $wa] <=> [$ib === false ? 99 : $ib, $pb, (int) $wb];
});

echo "| page | fpm workers | shardcache req/s | APCu req/s | ratio (range) | shardcache p99 ms | APCu p99 ms | ratio (range) | shardcache CPU us/req | APCu CPU us/req | ratio (range) | pairs |\n";
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
foreach ($rows as $k => $c) {
    [$page, $w] = explode("\t", $k);
    $s = $c['shardcache'] ?? [];
    $a = $c['apcu'] ?? [];
    $m = [];
    foreach (['rps', 'p99', 'cpu'] as $x) {
        $m["s$x"] = median($s[$x] ?? []);
        $m["a$x"] = median($a[$x] ?? []);
    }
    $label = isset($pages[$page]) ? "$page ({$pages[$page]})" : $page;
    printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |\n", $label, $w,
           fmt($m['srps']), fmt($m['arps']), pair_ratio($s['rps'] ?? [], $a['rps'] ?? []),
           fmt($m['sp99'], 2), fmt($m['ap99'], 2), pair_ratio($s['p99'] ?? [], $a['p99'] ?? []),
           fmt($m['scpu'], 1), fmt($m['acpu'], 1), pair_ratio($s['cpu'] ?? [], $a['cpu'] ?? []),
           min(count($s['rps'] ?? []), count($a['rps'] ?? [])));
}

echo "\nRuns (in the order they ran):\n\n";
echo "| workers | page | cache | pair | requests | s | req/s | p50 ms | p99 ms | CPU us/req | errors |\n";
echo "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
foreach ($runs as [$w, $page, $cache, $pair, $req, $sec, $rps, $p50, $p99, $cpu, $err]) {
    printf("| %d | %s | %s | %d | %d | %s | %s | %s | %s | %s | %d |\n", $w, $page, $cache, $pair, $req,
           fmt((float) $sec, 1), fmt((float) $rps), fmt($p50 / 1000, 2), fmt($p99 / 1000, 2),
           fmt((float) $cpu, 1), $err);
}
