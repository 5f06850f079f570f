<?php
/*
 * Store scaling from compare.php's raw runs (issue 35): for each workload
 * and cache, the median ops/s at each process count, the scaling from 1 to
 * N processes (median at N / median at 1), and shardcache against each
 * other cache at each count (median of the per-pair ratios). Runs whose
 * processes all finished count, also those that read wrong values (yac
 * drops some stores by design; compare.php's table counts the errors).
 *
 *   php -n benchmarks/scaling.php RAW.jsonl [RAW.jsonl ...]
 *
 * benchmarks/scaling.sh runs compare.php and then this.
 */

declare(strict_types=1);

function median(array $v): float
{
    sort($v);
    $n = count($v);
    return $n % 2 ? (float)$v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
}

function fmt(float $r): string
{
    return $r >= 1e6 ? sprintf('%.2f M', $r / 1e6) : sprintf('%.0f k', $r / 1e3);
}

if ($argc < 2) {
    fwrite(STDERR, "usage: php scaling.php RAW.jsonl [...]\n");
    exit(2);
}
$rates = [];   // [workload][cache][procs] => [ops/s of each run]
$pairs = [];   // [workload][procs][pair] => [cache => ops/s]
foreach (array_slice($argv, 1) as $file) {
    foreach (file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
        $r = json_decode($line, true);
        // Runs with wrong values count (yac drops some stores by design:
        // compare.php's table shows the errors); crashed ones do not.
        if (!is_array($r) || !isset($r['ops_per_sec']) || ($r['failed_children'] ?? 1) !== 0) {
            continue;
        }
        $rates[$r['workload']][$r['cache']][$r['procs']][] = $r['ops_per_sec'];
        $pairs[$r['workload']][$r['procs']][$file . '#' . $r['pair']][$r['cache']] = $r['ops_per_sec'];
    }
}
foreach ($rates as $w => $byCache) {
    $procs = [];
    foreach ($byCache as $runs) {
        $procs = array_unique(array_merge($procs, array_keys($runs)));
    }
    sort($procs);
    $head = '| cache |';
    $rule = '|---|';
    foreach ($procs as $p) {
        $head .= " $p procs |";
        $rule .= '--:|';
    }
    foreach ($procs as $p) {
        if ($p > 1) {
            $head .= " $p/1 |";
            $rule .= '--:|';
        }
    }
    echo "\n### $w\n\n$head\n$rule\n";
    foreach ($byCache as $cache => $runs) {
        $row = "| $cache |";
        foreach ($procs as $p) {
            $row .= isset($runs[$p]) ? ' ' . fmt(median($runs[$p])) . ' (' . count($runs[$p]) . ') |' : ' |';
        }
        foreach ($procs as $p) {
            if ($p > 1) {
                $row .= isset($runs[$p], $runs[1]) ? sprintf(' %.2f× |', median($runs[$p]) / median($runs[1])) : ' |';
            }
        }
        echo "$row\n";
    }
    foreach (array_keys($byCache) as $other) {
        if ($other === 'shardcache' || !isset($byCache['shardcache'])) {
            continue;
        }
        $row = "| shardcache/$other |";
        foreach ($procs as $p) {
            $ratios = [];
            foreach ($pairs[$w][$p] ?? [] as $pair) {
                if (isset($pair['shardcache'], $pair[$other]) && $pair[$other] > 0) {
                    $ratios[] = $pair['shardcache'] / $pair[$other];
                }
            }
            $row .= $ratios ? sprintf(' %.2f× |', median($ratios)) : ' |';
        }
        echo $row . str_repeat(' |', count($procs) - 1) . "\n";
    }
}
