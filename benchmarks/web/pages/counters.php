<?php
/*
 * benchmarks/web/pages/counters.php - the cache's contention counters as one
 * line "name=value ..." (shardcache only; APCu has none of these: "none").
 * benchmarks/web/run.sh reads it before and after a measured run.
 */
header('Content-Type: text/plain');
if (!function_exists('shardcache_info')) {
    echo "none\n";
    return;
}
$i = shardcache_info();
$out = [];
foreach (['inserts', 'updates', 'lock_waits', 'optimistic_retries', 'pool_lock_acquisitions',
          'slab_refills', 'slab_returns', 'spare_reuses', 'global_lock_acquisitions', 'evicted'] as $k) {
    $out[] = "$k=" . (int) ($i[$k] ?? 0);
}
echo implode(' ', $out), "\n";
