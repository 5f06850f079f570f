--TEST--
shardcache.isolation=user: no figure a user reads moves with another's key
--DESCRIPTION--
Issue 43, figures. User B stores its own keys, then snapshots every figure
it can read: shardcache_info(), apcu_cache_info() and apcu_sma_info() (full
and limited), APCUIterator's totals and rows, apcu_key_info() of each of
its keys, phpinfo's shardcache rows, tools/metrics.php's output and
tools/dashboard.php's page and stats JSON (rendered as B; its nonce, CSRF
token, clock and uptime masked). User A then stores reset_token:alice and a
40,000-byte value, fetches the first 64 times (two sampled hits), misses 64
times (two sampled misses) and deletes it. B's second snapshot must be
identical, while root sees A's activity (per-shard inserts, hits, misses,
deletes). B's own store moves B's figures (the snapshot is not blind).
Free memory is the one segment-wide figure a user reads that others' stores
move: it comes in steps of 1/64 of the data area, checked against root's
exact figure. Root first puts free memory in the middle of a step (a filler
of its own) so that A's few pages cannot cross one.
--SKIPIF--
<?php
if (!function_exists('pcntl_fork') || !function_exists('posix_setuid')) die('skip pcntl and posix needed');
if (!function_exists('stream_socket_pair')) die('skip socket pairs needed');
if (posix_geteuid() !== 0) die('skip needs root (setuid to other users)');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--EXTENSIONS--
posix
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.shards=4
--FILE--
<?php
require __DIR__ . '/../lib/isolation.inc';
const B_KEYS = 200;

/* Runs $f in a child as $uid (effective ids: see iso_as) and returns what
 * it printed on a pipe, read to its end before the child is reaped. */
function as_user(int $uid, callable $f): string
{
    [$r, $w] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($r);
        if (!posix_setegid($uid) || !posix_seteuid($uid)) {
            exit(1);
        }
        fwrite($w, $f());
        fclose($w);
        posix_seteuid(0);
        posix_setegid(0);
        exit(0);
    }
    fclose($w);
    $out = stream_get_contents($r);
    fclose($r);
    pcntl_waitpid($pid, $st);
    return pcntl_wifexited($st) && pcntl_wexitstatus($st) === 0 ? $out : "child as $uid failed";
}

/* tools/dashboard.php rendered in a child of the caller (same user): the
 * page with its key list, and its stats JSON; what differs between two
 * renders of one state (nonce, CSRF token, clock, uptime) masked. */
function dashboard(string $action): string
{
    [$r, $w] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($r);
        putenv('SHARDCACHE_DASHBOARD_PASSWORD=figures-test-password');
        putenv('SHARDCACHE_DASHBOARD_AUTH=0');
        $_SERVER['REQUEST_METHOD'] = 'GET';
        $_GET = $action === 'stats' ? ['action' => 'stats'] : ['list' => '1'];
        ob_start(function (string $buf) use ($w) { fwrite($w, $buf); return ''; }, 65536);
        register_shutdown_function(function () use ($w) {
            while (ob_get_level()) {
                ob_end_flush();
            }
            fclose($w);
        });
        include __DIR__ . '/../../tools/dashboard.php';
        exit(0);
    }
    fclose($w);
    $html = stream_get_contents($r);
    fclose($r);
    pcntl_waitpid($pid, $st);
    $html = preg_replace('/nonce="[^"]*"/', 'nonce="N"', $html);
    $html = preg_replace('/name="csrf" value="[^"]*"/', 'name="csrf" value="C"', $html);
    $html = preg_replace('/"time":[0-9.e+]+/', '"time":T', $html);
    return preg_replace('/(id="uptime"[^>]*>)[^<]*</', '$1U<', $html);
}

/* Every figure the caller can read, by path. */
function snapshot(): array
{
    require_once __DIR__ . '/../../tools/metrics.php';
    $s = ['shardcache_info' => shardcache_info(), 'cache_info' => apcu_cache_info(),
          'cache_info_limited' => apcu_cache_info(true), 'sma_info' => apcu_sma_info(),
          'sma_info_limited' => apcu_sma_info(true)];
    $it = new APCUIterator(null, APC_ITER_ALL);
    $s['iterator_totals'] = [$it->getTotalCount(), $it->getTotalHits(), $it->getTotalSize()];
    foreach ($it as $k => $row) {
        $s['iterator'][$k] = $row;
    }
    for ($i = 0; $i < B_KEYS; $i++) {
        $s['key_info']["b$i"] = apcu_key_info("b$i");
    }
    ob_start();
    phpinfo(INFO_MODULES);
    preg_match_all('/^(Shards|Shared memory bytes|Data area bytes|Memory used bytes|Memory free bytes|Entries|Hits|Misses|Inserts|Evictions) => .*$/m',
                   ob_get_clean(), $m);
    $s['phpinfo'] = $m[0];
    $s['metrics'] = shardcache_prometheus();
    $s['dashboard'] = dashboard('page');
    $s['dashboard_stats'] = dashboard('stats');
    return $s;
}

/* The paths whose values differ. */
function differ(array $a, array $b, string $path = ''): array
{
    $out = [];
    foreach (array_unique(array_merge(array_keys($a), array_keys($b))) as $k) {
        $p = $path === '' ? (string)$k : "$path.$k";
        if (!array_key_exists($k, $a) || !array_key_exists($k, $b)) {
            $out[] = "$p (only in one)";
        } elseif (is_array($a[$k]) && is_array($b[$k])) {
            $out = array_merge($out, differ($a[$k], $b[$k], $p));
        } elseif ($a[$k] !== $b[$k]) {
            $out[] = $p;
        }
    }
    return $out;
}

function step(): int
{
    return intdiv(intdiv(shardcache_info()['mem_total'], 64), 4096) * 4096;
}

/* Root: stores a filler so that free memory sits mid-step. */
function center_free(): void
{
    $step = step();
    $r = (int)apcu_sma_info(true)['avail_mem'] % $step;
    $bytes = $r > $step / 2 ? $r - intdiv($step, 2) : $r + intdiv($step, 2);
    if ($bytes > 65536) {
        apcu_store('root-filler', str_repeat('f', $bytes));
    }
}

// B's own keys, in every shard, some of them read.
echo as_user(ISO_B, function () {
    $ok = 0;
    for ($i = 0; $i < B_KEYS; $i++) {
        $ok += apcu_store("b$i", str_repeat(chr(97 + $i % 26), 10 + $i)) ? 1 : 0;
    }
    for ($i = 0; $i < 64; $i++) {
        apcu_fetch('b1');
    }
    return "B stored $ok keys\n";
});
center_free();
$root_before = shardcache_info();
$exact = (int)apcu_sma_info(true)['avail_mem'];
$before = unserialize(as_user(ISO_B, fn() => serialize(snapshot())));
printf("B reads a user's view: %s, no per_shard: %s, free memory rounded from root's: %s\n",
       $before["shardcache_info"]["view"], var_export(!isset($before['shardcache_info']['per_shard']), true),
       var_export($before['sma_info']['avail_mem'] == $exact - $exact % step()
                  && $before['shardcache_info']['mem_free'] === $exact - $exact % step(), true));

echo as_user(ISO_A, function () {
    $hits = $misses = 0;
    $ok = apcu_store('reset_token:alice', str_repeat('t', 60)) && apcu_store('a-blob', str_repeat('z', 40000));
    for ($i = 0; $i < 64; $i++) {
        $hits += apcu_fetch('reset_token:alice') === str_repeat('t', 60) ? 1 : 0;
        $misses += apcu_fetch("a-missing-$i") === false ? 1 : 0;
    }
    $ok = $ok && apcu_delete('reset_token:alice');
    return sprintf("A: stored, %d hits, %d misses, deleted: %s\n", $hits, $misses, var_export($ok, true));
});

$after = unserialize(as_user(ISO_B, fn() => serialize(snapshot())));
$d = differ($before, $after);
echo "B's figures that moved: ", $d ? implode(', ', $d) : 'none', "\n";

$root_after = shardcache_info();
printf("root sees: inserts +%d, deletes +%d, hits +%d, misses +%d, shards moved %d\n",
       $root_after['inserts'] - $root_before['inserts'], $root_after['deletes'] - $root_before['deletes'],
       $root_after['hits'] - $root_before['hits'], $root_after['misses'] - $root_before['misses'],
       count(array_filter(array_keys($root_after['per_shard']),
                          fn($i) => $root_after['per_shard'][$i] !== $root_before['per_shard'][$i])) > 0 ? 1 : 0);

// B's own store moves B's figures.
$own = unserialize(as_user(ISO_B, function () {
    apcu_store('b-new', 'x');
    return serialize(shardcache_info());
}));
printf("B's own store: entries %d -> %d, users %s\n", $before['shardcache_info']['entries'], $own['entries'],
       json_encode(array_keys($own['users'])));
?>
--EXPECT--
B stored 200 keys
B reads a user's view: user, no per_shard: true, free memory rounded from root's: true
A: stored, 64 hits, 64 misses, deleted: true
B's figures that moved: none
root sees: inserts +2, deletes +1, hits +64, misses +64, shards moved 1
B's own store: entries 200 -> 201, users [65533]
