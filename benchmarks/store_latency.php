<?php
/*
 * benchmarks/store_latency.php - latency of the web benchmark's store page
 * without the web server: N forked processes (more than the cores, as
 * php-fpm workers are) each run "10 apcu_store of a 10-element array to a
 * rolling set of its own keys + 1 apcu_fetch" for S seconds and time every
 * iteration with hrtime(). Prints the iteration count, p50 / p99 / p99.9 /
 * max latency over all iterations of all processes, and (for shardcache)
 * how many shard-lock requests found the lock busy. Run it with one cache
 * loaded, alternating the caches, e.g.:
 *
 *   for k in 1 2 3; do
 *     for so in $PWD/modules/shardcache.so apcu.so; do
 *       php -n -d memory_limit=2G -d extension=$so -d apc.enable_cli=1 \
 *           -d apc.shm_size=128M benchmarks/store_latency.php 16 5
 *     done
 *   done
 */
$procs = (int)($argv[1] ?? 16); $secs = (float)($argv[2] ?? 5);
$arr = []; for ($i = 0; $i < 10; $i++) $arr["k$i"] = str_repeat('v', 20) . $i;
$w0 = function_exists('shardcache_info') ? shardcache_info()['lock_waits'] : 0;
$kids = [];
for ($p = 0; $p < $procs; $p++) {
    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($pair[0]);
        $lat = []; $end = hrtime(true) + (int)($secs * 1e9); $n = 0;
        while (($t = hrtime(true)) < $end) {
            for ($i = 0; $i < 10; $i++) apcu_store("w{$p}_" . (($n * 10 + $i) % 50), $arr);
            apcu_fetch("w{$p}_0");
            $lat[] = hrtime(true) - $t; $n++;
        }
        fwrite($pair[1], serialize($lat)); exit(0);
    }
    fclose($pair[1]); $kids[$pid] = $pair[0];
}
$all = [];
foreach ($kids as $pid => $s) { $all = array_merge($all, unserialize(stream_get_contents($s))); pcntl_waitpid($pid, $st); }
sort($all); $c = count($all);
$q = fn($f) => $all[min($c - 1, (int)($f * $c))] / 1000;
$w1 = function_exists('shardcache_info') ? shardcache_info()['lock_waits'] : 0;
printf("%s iters %d p50 %.1f us p99 %.1f us p99.9 %.1f us max %.1f us lock_waits %d\n",
    extension_loaded('shardcache') ? 'shardcache' : 'apcu', $c, $q(0.5), $q(0.99), $q(0.999), $all[$c-1]/1000, $w1 - $w0);
