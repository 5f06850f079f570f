<?php
/*
 * How many of store_delete's stores and deletes stay lockless at N
 * processes, and what the locked rest costs the page pool: the workload
 * of benchmarks/bench.php's store_delete (each process its own 512 keys,
 * a 200-byte string stored and deleted in turn) for one second, then the
 * cache's own figures (shardcache_info). A figure, not a speed: run it
 * where the processes really run at once (one core each).
 *
 *   php -n -d extension=modules/shardcache.so -d apc.enable_cli=1 -d apc.shm_size=128M \
 *       benchmarks/lockless_share.php PROCS [sd|s|si]
 *
 * sd: store and delete a string (default); s: store a string only;
 * si: store and delete an int. Prints one line: ops, inserts and the
 * lockless ones, deletes and the lockless ones, lock waits, pool lock
 * acquisitions, slab refills and returns.
 */
declare(strict_types=1);

if (!function_exists('shardcache_info') || !function_exists('pcntl_fork')) {
    fwrite(STDERR, "lockless_share.php: needs shardcache and pcntl\n");
    exit(2);
}
$n = max(1, (int)($argv[1] ?? 2));
$mode = $argv[2] ?? 'sd';
$dir = sys_get_temp_dir() . '/lockless_share.' . getmypid();
@mkdir($dir);
$start = microtime(true) + 0.3;
$pids = [];
for ($c = 0; $c < $n; $c++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $me = getmypid();
        $keys = [];
        for ($i = 0; $i < 512; $i++) {
            $keys[] = "d{$me}_$i";
        }
        $val = substr(str_repeat("churn $me ", 40), 0, 200);
        while (microtime(true) < $start) {
        }
        $end = $start + 1.0;
        $ops = 0;
        do {
            for ($i = 0; $i < 512; $i++) {
                if ($mode === 's') {
                    apcu_store($keys[$i], $val);
                } else {
                    apcu_store($keys[$i], $mode === 'si' ? $i : $val);
                    apcu_delete($keys[$i]);
                }
            }
            $ops += $mode === 's' ? 512 : 1024;
        } while (microtime(true) < $end);
        file_put_contents("$dir/$c", (string)$ops);
        exit(0);
    }
    $pids[] = $pid;
}
foreach ($pids as $p) {
    pcntl_waitpid($p, $st);
}
$ops = 0;
for ($c = 0; $c < $n; $c++) {
    $ops += (int)@file_get_contents("$dir/$c");
    @unlink("$dir/$c");
}
@rmdir($dir);
$i = shardcache_info();
$waits = array_sum(array_column($i['per_shard'], 'lock_waits'));
printf("%s procs=%d ops=%.2fM inserts=%d lockless=%d deletes=%d lockless=%d lock_waits=%d pool_lock=%d refills=%d returns=%d\n",
    $mode, $n, $ops / 1e6, $i['inserts'], $i['lockless_inserts'], $i['deletes'], $i['lockless_deletes'], $waits,
    $i['pool_lock_acquisitions'], $i['slab_refills'], $i['slab_returns']);
