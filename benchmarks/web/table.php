<?php
/*
 * benchmarks/web/table.php - turns the raw results of benchmarks/web/run.sh
 * (one tab-separated line per wrk run) into the Markdown tables.
 *
 *   php -n table.php MAX.tsv [PACED.tsv]
 *   php -n table.php --rate MAX.tsv WORKERS PAGE FRACTION
 *
 * Raw columns: workers page cache pair requests seconds rps p50_us p99_us
 * cpu_us_per_req errors offered_rps (0 for saturating runs)
 * lock_waits_per_1k_req (shardcache's shard lock waits; "-" for APCu). For every
 * (page, workers) the table gives the median over the pairs of each figure
 * for shardcache and APCu, and the median (with the range) of the per-pair
 * ratios shardcache / APCu, each pair being the two runs that ran back to
 * back (req/s: higher is better; p99 and CPU per request: lower is better),
 * then the runs themselves. PACED.tsv (runs at a fixed offered load) gets
 * a table of its own.
 * --rate prints FRACTION times the lower of the two caches' median req/s
 * for (WORKERS, PAGE) in MAX.tsv, rounded: the paced load benchmarks/web/run.sh asks
 * wrk for.
 */
if ($argc >= 2 && $argv[1] === '--rate') {
    if ($argc != 6 || !is_readable($argv[2])) {
        fwrite(STDERR, "usage: php -n table.php --rate MAX.tsv WORKERS PAGE FRACTION\n");
        exit(2);
    }
    $by = [];
    foreach (read_runs($argv[2]) as $f) {
        if ((int) $f[0] === (int) $argv[3] && $f[1] === $argv[4]) {
            $by[$f[2]][] = (float) $f[6];
        }
    }
    if (count($by) < 2) {
        exit(1);
    }
    echo (int) round((float) $argv[5] * min(array_map('median', $by))), "\n";
    exit(0);
}
if ($argc < 2 || !is_readable($argv[1]) || ($argc > 2 && !is_readable($argv[2]))) {
    fwrite(STDERR, "usage: php -n table.php MAX.tsv [PACED.tsv]\n");
    exit(2);
}

/* The runs of a raw file, each the list of its columns. */
function read_runs(string $file): array
{
    $runs = [];
    foreach (file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
        $f = explode("\t", $line);
        if (count($f) >= 11) {
            $runs[] = $f + [11 => '0', 12 => '-'];
        }
    }
    return $runs;
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

$pages = ['fetch_scalar' => '100 fetches of an int', 'fetch_array' => '100 fetches of a 100-element array',
          'store' => '10 stores of a small array',
          'fetch_objects' => '10 fetches of a 50-entity list + 20 of an event with 2 DateTimeImmutable'];

/* Figures of the runs by "page\tworkers", cache and figure, each by pair. */
function collect(array $runs, array $pages): array
{
    $rows = [];
    foreach ($runs as [$w, $page, $cache, $pair, $req, $sec, $rps, $p50, $p99, $cpu, $err, $offered]) {
        $k = "$page\t$w";
        foreach (['rps' => $rps, 'p99' => $p99 / 1000, 'cpu' => $cpu, 'offered' => $offered] as $m => $x) {
            $rows[$k][$cache][$m][(int) $pair] = (float) $x;
        }
    }
    uksort($rows, function ($a, $b) use ($pages) {
        [$pa, $wa] = explode("\t", $a);
        [$pb, $wb] = explode("\t", $b);
        $ia = array_search($pa, array_keys($pages));
        $ib = array_search($pb, array_keys($pages));
        return [$ia === false ? 99 : $ia, $pa, (int) $wa] <=> [$ib === false ? 99 : $ib, $pb, (int) $wb];
    });
    return $rows;
}

function label(string $page, array $pages): string
{
    return isset($pages[$page]) ? "$page ({$pages[$page]})" : $page;
}

function print_runs(array $runs): void
{
    echo "| workers | page | cache | pair | requests | s | req/s | p50 ms | p99 ms | CPU us/req | shard lock waits /1k req | errors |\n";
    echo "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    foreach ($runs as [$w, $page, $cache, $pair, $req, $sec, $rps, $p50, $p99, $cpu, $err, , $waits]) {
        printf("| %d | %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %d |\n", $w, $page, $cache, $pair, $req,
               fmt((float) $sec, 1), fmt((float) $rps), fmt($p50 / 1000, 2), fmt($p99 / 1000, 2),
               fmt((float) $cpu, 1), $waits, $err);
    }
}

/* One Markdown table row. */
function md_row(array $cells): void
{
    echo '| ', implode(' | ', $cells), " |\n";
}

/* A figure's cells: shardcache's median, APCu's median and, unless
 * $ratio is false, the per-pair ratio. */
function figure_cells(array $s, array $a, string $m, int $dec, bool $ratio = true): array
{
    $cells = [fmt(median($s[$m] ?? []), $dec), fmt(median($a[$m] ?? []), $dec)];
    if ($ratio) {
        $cells[] = pair_ratio($s[$m] ?? [], $a[$m] ?? []);
    }
    return $cells;
}

/* The summary of saturating or paced runs: a row per (page, workers). */
function summary_table(array $runs, array $pages, bool $paced): void
{
    echo $paced
        ? "| page | fpm workers | offered req/s | shardcache req/s | APCu req/s | shardcache p99 ms | APCu p99 ms | ratio (range) | shardcache CPU us/req | APCu CPU us/req | ratio (range) | pairs |\n"
        : "| page | fpm workers | shardcache req/s | APCu req/s | ratio (range) | shardcache p99 ms | APCu p99 ms | ratio (range) | shardcache CPU us/req | APCu CPU us/req | ratio (range) | pairs |\n";
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    foreach (collect($runs, $pages) as $k => $c) {
        [$page, $w] = explode("\t", $k);
        $s = $c['shardcache'] ?? [];
        $a = $c['apcu'] ?? [];
        $cells = [label($page, $pages), (int) $w];
        if ($paced) {
            $cells[] = fmt(median(array_merge($s['offered'] ?? [], $a['offered'] ?? [])));
        }
        md_row(array_merge($cells, figure_cells($s, $a, 'rps', 0, !$paced), figure_cells($s, $a, 'p99', 2),
                           figure_cells($s, $a, 'cpu', 1), [min(count($s['rps'] ?? []), count($a['rps'] ?? []))]));
    }
}

$max_runs = read_runs($argv[1]);
$paced_runs = $argc > 2 ? read_runs($argv[2]) : [];

echo "Saturating load:\n\n";
summary_table($max_runs, $pages, false);
if ($paced_runs) {
    echo "\nPaced load (the same offered rate for both caches):\n\n";
    summary_table($paced_runs, $pages, true);
}

echo "\nSaturating runs (in the order they ran):\n\n";
print_runs($max_runs);
if ($paced_runs) {
    echo "\nPaced runs (in the order they ran):\n\n";
    print_runs($paced_runs);
}
