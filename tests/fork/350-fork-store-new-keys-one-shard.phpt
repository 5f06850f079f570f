--TEST--
Fork, one shard: racing stores of new keys never store twice, lose or misplace
--DESCRIPTION--
Two writers store the same new keys at once (values of different lengths)
while a third stores and deletes keys of its own (tombstones, free slots
that move) and a fourth adds thousands of keys (the table grows again and
again). Every store's look before the lock is used under it only while the
shard is unchanged, so no key is ever stored twice, lost or given a slot
another key holds.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=32M
apc.entries_hint=16
shardcache.shards=1
--FILE--
<?php
define('ROUNDS', getenv('SHARDCACHE_VALGRIND') ? 3 : 40);
const PER_ROUND = 250;   // new keys both twins store in each round
const CHURN = 64;        // keys the churner stores and deletes, over and over
define('GROW', getenv('SHARDCACHE_VALGRIND') ? 600 : 12000);

/* Twin w's value of key k: its own text, a length that differs between the
 * twins for most keys (so most overwrites take the locked path, and some
 * the lockless one). */
function twin_val(int $w, string $k): string
{
    $len = 12 + (crc32($k) + 37 * $w) % 70;
    return substr(str_repeat("$w|$k|", 20), 0, $len);
}
function twin_ok(string $k, $v): bool
{
    return $v === twin_val(0, $k) || $v === twin_val(1, $k);
}
function grow_val(int $i): array
{
    return [$i, "g$i"];
}

apcu_store('start', 0);
$pids = [];
$spawn = function (callable $fn) use (&$pids) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        while (apcu_fetch('start') !== 1) {
            usleep(100);     // start together (only a barrier; nothing depends on timing)
        }
        $errors = $fn();
        apcu_store('err_' . getmypid(), $errors);
        exit($errors === 0 ? 0 : 1);
    }
    $pids[] = $pid;
};

// The twins: every key new when the round begins; both store it, and
// what either reads back is one of the two values.
for ($w = 0; $w < 2; $w++) {
    $spawn(function () use ($w) {
        $errors = 0;
        for ($r = 0; $r < ROUNDS; $r++) {
            for ($i = 0; $i < PER_ROUND; $i++) {
                $k = "k{$r}_$i";
                if (!apcu_store($k, twin_val($w, $k))) {
                    $errors++;
                }
                $v = apcu_fetch($k);
                if (!twin_ok($k, $v)) {
                    $errors++;
                    fwrite(STDERR, "twin $w: $k read " . var_export($v, true) . "\n");
                }
            }
        }
        apcu_inc('done');
        return $errors;
    });
}
// The churner: its own keys only, so every store and delete succeeds and
// none is left afterwards.
$spawn(function () {
    $errors = 0;
    $n = 0;
    while (apcu_fetch('done') !== 3 && $n < 5000000) {
        $k = 'c' . ($n++ % CHURN);
        if (!apcu_store($k, str_repeat('c', 10 + $n % 40)) || !apcu_delete($k)) {
            $errors++;
        }
    }
    return $errors;
});
// The grower: new keys of its own, every one read back at once.
$spawn(function () {
    $errors = 0;
    for ($i = 0; $i < GROW; $i++) {
        if (!apcu_store("g$i", grow_val($i)) || apcu_fetch("g$i") !== grow_val($i)) {
            $errors++;
        }
    }
    apcu_inc('done');
    return $errors;
});
apcu_store('done', 0);
apcu_store('start', 1);

$failed = 0;
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $st);
    if (!pcntl_wifexited($st) || pcntl_wexitstatus($st) !== 0) {
        $failed++;
        echo "process failed: ", var_export(apcu_fetch("err_$pid"), true), " errors\n";
    }
}
echo "failed processes: $failed\n";

// Every key once, with a right value; no churn key left; nothing else.
$seen = [];
$wrong = 0;
foreach (new APCUIterator(null, APC_ITER_KEY | APC_ITER_VALUE) as $e) {
    $k = $e['key'];
    $seen[$k] = ($seen[$k] ?? 0) + 1;
    if ($k[0] === 'k' ? !twin_ok($k, $e['value']) : ($k[0] === 'g' && $e['value'] !== grow_val((int)substr($k, 1)))) {
        $wrong++;
    }
}
$twice = count(array_filter($seen, fn ($n) => $n !== 1));
$missing = 0;
for ($r = 0; $r < ROUNDS; $r++) {
    for ($i = 0; $i < PER_ROUND; $i++) {
        if (!isset($seen["k{$r}_$i"]) || !twin_ok("k{$r}_$i", apcu_fetch("k{$r}_$i"))) {
            $missing++;
        }
    }
}
for ($i = 0; $i < GROW; $i++) {
    if (!isset($seen["g$i"]) || apcu_fetch("g$i") !== grow_val($i)) {
        $missing++;
    }
}
$churn = count(array_filter(array_keys($seen), fn ($k) => $k[0] === 'c'));
$expected = ROUNDS * PER_ROUND + GROW + 2 + count($pids);   // + 'start', 'done' and one err_ key per process
echo "keys listed more than once: $twice\n";
echo "wrong values: $wrong\n";
echo "missing or wrong keys: $missing\n";
echo "churn keys left: $churn\n";
echo "entries as expected: ", var_export(count($seen) === $expected && apcu_cache_info(true)['num_entries'] === $expected, true), "\n";
?>
--EXPECT--
failed processes: 0
keys listed more than once: 0
wrong values: 0
missing or wrong keys: 0
churn keys left: 0
entries as expected: true
