<?php
// Shardcache\NearCache in front of a Redis Cluster (run it through
// benchmarks/nearcache.sh --cluster, which installs what it needs): a private
// cluster of 3 masters + 3 replicas on 127.0.0.1 (tests/nearcache's
// ClusterServers), a ClusterSync forked from this process, and get() of one
// hot key in 1 process, in alternating rounds:
//      nearcache      NearCache over \RedisCluster, local hit
//      rediscluster   \RedisCluster::get() alone, loopback
// Reported: gets/s per round and mode, client CPU per get, and the median of
// the per-round ratios nearcache/rediscluster.
//
//   php ... benchmarks/nearcache-cluster.php [--rounds=5] [--seconds=1]
declare(strict_types=1);

$root = dirname(__DIR__);
require $root . '/tests/nearcache/vendor/autoload.php';

use Shardcache\NearCache;
use Shardcache\NearCache\ClusterSync;
use Shardcache\NearCacheTests\Support\ClusterServers;

$opt = getopt('', ['rounds:', 'seconds:']);
$rounds = max(1, (int) ($opt['rounds'] ?? 5));
$seconds = (float) ($opt['seconds'] ?? 1);

function cpu_now(): float
{
    $u = getrusage();
    return $u['ru_utime.tv_sec'] + $u['ru_utime.tv_usec'] / 1e6 + $u['ru_stime.tv_sec'] + $u['ru_stime.tv_usec'] / 1e6;
}

/** @return array{per_s: float, cpu_us: float} */
function measure(callable $get, float $seconds): array
{
    $n = 0;
    $c0 = cpu_now();
    $t0 = hrtime(true);
    $end = $t0 + (int) ($seconds * 1e9);
    do {
        for ($i = 0; $i < 200; $i++) {
            $get();
        }
        $n += 200;
    } while (hrtime(true) < $end);
    $dt = (hrtime(true) - $t0) / 1e9;
    return ['per_s' => $n / $dt, 'cpu_us' => (cpu_now() - $c0) / $n * 1e6];
}

$cluster = new ClusterServers();
$ns = 'bench';
$pid = pcntl_fork();
if ($pid === 0) {
    $s = new ClusterSync($cluster->seeds(), $ns);
    pcntl_async_signals(true);
    pcntl_signal(SIGTERM, static fn () => $s->stop());
    $s->run();
    posix_kill(posix_getpid(), SIGKILL);
}
$rc = $cluster->client();
$cache = new NearCache($cluster->client(), $ns);
$cache->set('hot', str_repeat('x', 100));
$deadline = microtime(true) + 10;
while ($cache->localGeneration() === null && microtime(true) < $deadline) {
    usleep(1000);
}
if ($cache->localGeneration() === null) {
    fwrite(STDERR, "the sync never became healthy\n");
    exit(1);
}
$cache->get('hot');         // fills the local copy
$res = ['nearcache' => [], 'rediscluster' => []];
for ($r = 0; $r < $rounds; $r++) {
    $res['nearcache'][] = measure(static fn () => $cache->get('hot'), $seconds);
    $res['rediscluster'][] = measure(static fn () => $rc->get('bench:hot'), $seconds);
}
posix_kill($pid, SIGTERM);
pcntl_waitpid($pid, $st);

$median = static function (array $a): float {
    sort($a);
    $n = count($a);
    return $n % 2 ? $a[intdiv($n, 2)] : ($a[$n / 2 - 1] + $a[$n / 2]) / 2;
};
printf("%-14s %12s %14s\n", 'mode', 'gets/s', 'client us/get');
foreach ($res as $mode => $rs) {
    printf("%-14s %12s %14.2f\n", $mode, number_format($median(array_column($rs, 'per_s'))), $median(array_column($rs, 'cpu_us')));
}
$ratios = [];
foreach ($res['nearcache'] as $i => $r) {
    $ratios[] = $r['per_s'] / $res['rediscluster'][$i]['per_s'];
}
printf("nearcache / rediscluster gets/s, median of %d per-round ratios: %.1fx (rounds: %s)\n", count($ratios), $median($ratios),
    implode(', ', array_map(static fn ($x) => sprintf('%.1f', $x), $ratios)));
