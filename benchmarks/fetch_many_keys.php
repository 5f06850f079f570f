<?php
/*
 * benchmarks/fetch_many_keys.php - fetch cost when the cache holds many
 * keys: one process stores N integer keys ("key:0".."key:N-1"), then fetches
 * 2^20 keys drawn uniformly at random (seed 1), three passes, and prints the
 * mean time per fetch. Every fetch must hit; a miss is counted and printed.
 * APCu sizes its hash table once from apc.entries_hint (default 4096) and
 * chains beyond it; shardcache's shard tables grow with their keys. Run it
 * with one cache loaded, alternating the caches, e.g.:
 *
 *   for k in 1 2 3; do
 *     for ext in "$PWD/modules/shardcache.so" apcu.so; do
 *       php -n -d extension=$ext -d apc.enable_cli=1 -d apc.shm_size=256M \
 *           benchmarks/fetch_many_keys.php 400000
 *     done
 *   done
 *
 * (add -d apc.entries_hint=524288 to give APCu a table sized for the keys)
 */
$n = max(1, (int)($argv[1] ?? 400000));
for ($i = 0; $i < $n; $i++) {
    if (!apcu_store("key:$i", $i)) {
        fwrite(STDERR, "store of key:$i failed (cache too small?)\n");
        exit(1);
    }
}
mt_srand(1);
$keys = [];
for ($i = 0; $i < 1 << 20; $i++) {
    $keys[] = 'key:' . mt_rand(0, $n - 1);
}
$misses = 0;
$t = hrtime(true);
for ($pass = 0; $pass < 3; $pass++) {
    foreach ($keys as $k) {
        if (apcu_fetch($k) === false) {
            $misses++;
        }
    }
}
$ns = (hrtime(true) - $t) / (3 << 20);
printf("%s keys=%d entries_hint=%s %.1f ns/fetch misses=%d\n",
    extension_loaded('shardcache') ? 'shardcache' : 'apcu', $n, ini_get('apc.entries_hint'), $ns, $misses);
exit($misses ? 1 : 0);
