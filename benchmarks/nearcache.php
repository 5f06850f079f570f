<?php
// Shardcache\NearCache benchmark (run it through benchmarks/nearcache.sh,
// which installs what it needs and passes the PHP command lines).
//
// 1. get() of one hot key, 1 process, in alternating rounds:
//      nearcache   NearCache local hit (shardcache segment, sync running)
//      phpredis    \Redis::get() alone, loopback
//      chain-apcu  Symfony ChainAdapter([ApcuAdapter, RedisAdapter]) getItem()->get(),
//                  with the real APCu extension (a separate PHP process)
//    Reported per mode: median gets/s over the rounds, client CPU per get
//    (getrusage user+sys of the process), redis-server CPU per get (INFO cpu),
//    and the median of the per-round ratios nearcache/phpredis.
// 2. Invalidation delay under load: W processes do NearCache get()s of hot
//    keys without pause; a writer (another connection, same host) sets key
//    "probe" to 1, 2, ... every few ms and notes when each set() returned; a
//    watcher of the same host reads "probe" through NearCache in a loop and notes
//    when it first sees each value. Delay = seen - set() returned; p50/p99/max.
//
//   php ... benchmarks/nearcache.php [--rounds=5] [--seconds=1] [--load=2] [--writes=400]
//   (internal: --child=MODE --port=P --seconds=S)
declare(strict_types=1);

$root = dirname(__DIR__);
require $root . '/tests/nearcache/vendor/autoload.php';

use Shardcache\NearCache;
use Shardcache\NearCache\Sync;
use Shardcache\NearCacheTests\Support\RedisServer;

$opt = getopt('', ['child:', 'port:', 'seconds:', 'rounds:', 'load:', 'writes:']);
$seconds = (float) ($opt['seconds'] ?? 1);

function redis_cpu(Redis $r): float
{
    $i = $r->info('cpu');
    return (float) $i['used_cpu_user'] + (float) $i['used_cpu_sys'];
}

function cpu_now(): float
{
    $u = getrusage();
    return $u['ru_utime.tv_sec'] + $u['ru_utime.tv_usec'] / 1e6 + $u['ru_stime.tv_sec'] + $u['ru_stime.tv_usec'] / 1e6;
}

function connect(int $port): Redis
{
    $r = new Redis();
    $r->connect('127.0.0.1', $port, 1.0);
    return $r;
}

function fork_sync(int $port, string $ns): int
{
    $pid = pcntl_fork();
    if ($pid === 0) {
        $s = new Sync('127.0.0.1', $port, $ns);
        pcntl_async_signals(true);
        pcntl_signal(SIGTERM, static fn () => $s->stop());
        $s->run();
        posix_kill(posix_getpid(), SIGKILL);
    }
    return $pid;
}

function wait_healthy(NearCache $c): void
{
    $deadline = microtime(true) + 10;
    while ($c->localGeneration() === null) {
        if (microtime(true) > $deadline) {
            fwrite(STDERR, "sync never became healthy\n");
            exit(1);
        }
        usleep(2000);
    }
}

/** Runs $get in batches of 1000 for $seconds; returns [gets, client cpu s, wall s]. */
function measure(callable $get, float $seconds): array
{
    for ($i = 0; $i < 2000; $i++) {
        $get();
    }
    $n = 0;
    $c0 = cpu_now();
    $t0 = hrtime(true);
    $end = $t0 + (int) ($seconds * 1e9);
    do {
        for ($i = 0; $i < 1000; $i++) {
            $get();
        }
        $n += 1000;
    } while (hrtime(true) < $end);
    return [$n, cpu_now() - $c0, (hrtime(true) - $t0) / 1e9];
}

// ---- child processes: one mode each ----------------------------------------
if (isset($opt['child'])) {
    $port = (int) $opt['port'];
    $admin = connect($port);
    $mode = $opt['child'];
    $sync = 0;
    switch ($mode) {
        case 'nearcache':
            $sync = fork_sync($port, 'bench');
            $c = new NearCache(connect($port), 'bench');
            wait_healthy($c);
            $c->set('hot', 'value-of-the-hot-key');
            $c->get('hot');
            $get = static function () use ($c) {
                if ($c->get('hot') !== 'value-of-the-hot-key') {
                    throw new RuntimeException('wrong value');
                }
            };
            break;
        case 'phpredis':
            $r = connect($port);
            $r->set('bench:raw', 'value-of-the-hot-key');
            $get = static function () use ($r) {
                if ($r->get('bench:raw') !== 'value-of-the-hot-key') {
                    throw new RuntimeException('wrong value');
                }
            };
            break;
        case 'chain-apcu':
            $chain = new Symfony\Component\Cache\Adapter\ChainAdapter([
                new Symfony\Component\Cache\Adapter\ApcuAdapter('bench'),
                new Symfony\Component\Cache\Adapter\RedisAdapter(connect($port), 'bench'),
            ]);
            $item = $chain->getItem('hot');
            $chain->save($item->set('value-of-the-hot-key'));
            $get = static function () use ($chain) {
                if ($chain->getItem('hot')->get() !== 'value-of-the-hot-key') {
                    throw new RuntimeException('wrong value');
                }
            };
            break;
        default:
            exit(2);
    }
    $s0 = redis_cpu($admin);
    [$n, $cpu, $wall] = measure($get, $seconds);
    $s1 = redis_cpu($admin);
    echo json_encode(['gets' => $n, 'per_s' => $n / $wall, 'cpu_us' => 1e6 * $cpu / $n, 'server_us' => 1e6 * ($s1 - $s0) / $n]), "\n";
    if ($sync) {
        posix_kill($sync, SIGTERM);
        pcntl_waitpid($sync, $st);
    }
    exit(0);
}

// ---- driver ----------------------------------------------------------------
$rounds = (int) ($opt['rounds'] ?? 5);
$load = (int) ($opt['load'] ?? 2);
$writes = (int) ($opt['writes'] ?? 400);
$redis = new RedisServer();
$port = $redis->port;
$childArgs = [
    'nearcache' => json_decode(getenv('NEARCACHE_PHP_ARGS') ?: '[]', true),
    'phpredis' => json_decode(getenv('NEARCACHE_PHP_ARGS') ?: '[]', true),
    'chain-apcu' => json_decode(getenv('NEARCACHE_APCU_ARGS') ?: '[]', true),
];
$res = [];
printf("NearCache benchmark: redis-server on 127.0.0.1:%d, %d rounds of %.1f s per mode (alternating), 1 process\n", $port, $rounds, $seconds);
for ($round = 1; $round <= $rounds; $round++) {
    foreach ($childArgs as $mode => $args) {
        $cmd = array_merge([PHP_BINARY], $args, [__FILE__, "--child=$mode", "--port=$port", "--seconds=$seconds"]);
        $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => STDERR], $pipes);
        $out = stream_get_contents($pipes[1]);
        if (proc_close($p) !== 0 || !($j = json_decode(trim($out), true))) {
            fwrite(STDERR, "mode $mode failed: $out\n");
            exit(1);
        }
        $res[$mode][] = $j;
    }
}
$median = static function (array $a): float {
    sort($a);
    $n = count($a);
    return $n % 2 ? $a[intdiv($n, 2)] : ($a[$n / 2 - 1] + $a[$n / 2]) / 2;
};
printf("\n| mode | gets/s (median) | client CPU us/get | redis-server CPU us/get |\n| --- | ---: | ---: | ---: |\n");
foreach ($res as $mode => $rs) {
    printf("| %s | %s | %.3f | %.3f |\n", $mode, number_format($median(array_column($rs, 'per_s'))),
        $median(array_column($rs, 'cpu_us')), $median(array_column($rs, 'server_us')));
}
$ratios = [];
$ratiosChain = [];
foreach ($res['nearcache'] as $i => $r) {
    $ratios[] = $r['per_s'] / $res['phpredis'][$i]['per_s'];
    $ratiosChain[] = $r['per_s'] / $res['chain-apcu'][$i]['per_s'];
}
printf("\nnearcache / phpredis gets/s, median of %d per-round ratios: %.1fx (rounds: %s)\n", count($ratios), $median($ratios),
    implode(' ', array_map(static fn ($x) => sprintf('%.1f', $x), $ratios)));
printf("nearcache / chain-apcu gets/s, median of %d per-round ratios: %.2fx\n", count($ratiosChain), $median($ratiosChain));
$cpuRatios = [];
foreach ($res['nearcache'] as $i => $r) {
    $p = $res['phpredis'][$i];
    $cpuRatios[] = [$p['cpu_us'] / $r['cpu_us'], ($p['cpu_us'] + $p['server_us']) / ($r['cpu_us'] + $r['server_us'])];
}
printf("phpredis / nearcache CPU per get, median of per-round ratios: client %.1fx, client + redis-server %.1fx\n",
    $median(array_column($cpuRatios, 0)), $median(array_column($cpuRatios, 1)));

// ---- invalidation delay under load ------------------------------------------
// This driver process is the host: it maps the segment (anonymous, shared
// with its forks).
if (!function_exists('shardcache_enabled') || !shardcache_enabled()) {
    fwrite(STDERR, "the driver needs shardcache with apc.enable_cli=1\n");
    exit(1);
}
$sync = fork_sync($port, 'lat');
$c = new NearCache(connect($port), 'lat');
wait_healthy($c);
for ($k = 0; $k < 16; $k++) {
    $c->set("hot$k", str_repeat('x', 100));
}
$c->set('probe', 0);
shardcache_store('bench:stop', 0);
$pids = [];
for ($w = 0; $w < $load; $w++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $cw = new NearCache(connect($port), 'lat');
        $i = 0;
        while (shardcache_fetch('bench:stop') === 0) {
            $cw->get('hot' . ($i++ & 15));
        }
        posix_kill(posix_getpid(), SIGKILL);
    }
    $pids[] = $pid;
}
// The watcher.
$watcher = pcntl_fork();
if ($watcher === 0) {
    $cw = new NearCache(connect($port), 'lat');
    $last = 0;
    while ($last < $writes) {
        $v = $cw->get('probe');
        if (is_int($v) && $v !== $last) {
            if ($v < $last) {
                shardcache_store('bench:stale', $v);
            }
            shardcache_store("bench:seen:$v", hrtime(true));
            $last = $v;
        }
    }
    posix_kill(posix_getpid(), SIGKILL);
}
// The writer (this process).
$cwr = new NearCache(connect($port), 'lat');
for ($v = 1; $v <= $writes; $v++) {
    $cwr->set('probe', $v);
    shardcache_store("bench:ret:$v", hrtime(true));
    usleep(5000);
}
pcntl_waitpid($watcher, $st);
shardcache_store('bench:stop', 1);
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $st);
}
posix_kill($sync, SIGTERM);
pcntl_waitpid($sync, $st);
$d = [];
for ($v = 1; $v <= $writes; $v++) {
    $seen = shardcache_fetch("bench:seen:$v");
    if (is_int($seen)) {            // values overwritten before the watcher read them are skipped
        $d[] = max(0, $seen - shardcache_fetch("bench:ret:$v")) / 1e6;
    }
}
sort($d);
printf("\ninvalidation delay under load (%d get-loop processes, %d writes every ~5 ms, %d seen): p50 %.3f ms, p99 %.3f ms, max %.3f ms%s\n",
    $load, $writes, count($d), $d[intdiv(count($d), 2)], $d[min(count($d) - 1, (int) floor(0.99 * count($d)))], end($d),
    shardcache_fetch('bench:stale') !== false ? ' STALE READ SEEN' : '');
