--TEST--
Same-type, same-length overwrites without TTL skip the lock, counted per thread
--DESCRIPTION--
Scalars overwritten with a scalar of the same type, and strings, arrays and
objects overwritten with one of the same type and length, all with no TTL,
are written into the entry without the shard lock.

Checked: values, TTLs, apcu_key_info times, APCUIterator order, num_inserts,
and shardcache_info counting those stores per thread (lockless_updates), not
in the shard rows. Other stores keep the locked path.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.shards=4
--FILE--
<?php
$initial = ['i' => 1, 'f' => 1.5, 't' => true, 'fa' => false, 'n' => null, 'neg' => -7, 'big' => PHP_INT_MAX];
$next = ['i' => 2, 'f' => -0.25, 't' => true, 'fa' => false, 'n' => null, 'neg' => PHP_INT_MIN, 'big' => 0];
// The cache stamps with APCu's coarse clock, which can be one tick behind
// time() just after a second turns (php_sc_now in shardcache.c): one second of slack.
$t0 = time() - 1;
foreach ($initial as $k => $v) {
    apcu_store($k, $v);
}
$before = shardcache_info();
foreach ($next as $k => $v) {
    var_dump(apcu_store($k, $v));
}
$ok = true;
foreach ($next as $k => $v) {
    if (apcu_fetch($k) !== $v) {
        echo "$k: wrong value ", var_export(apcu_fetch($k), true), "\n";
        $ok = false;
    }
    $ki = apcu_key_info($k);
    if ($ki['ttl'] !== 0 || $ki['creation_time'] < $t0 || $ki['creation_time'] > time()
        || $ki['mtime'] !== $ki['creation_time'] || $ki['hits'] !== 0) {
        echo "$k: key info ", json_encode($ki), "\n";
        $ok = false;
    }
}
echo "values and key info: ", $ok ? 'right' : 'WRONG', "\n";

$after = shardcache_info();
$shard_updates = fn($i) => array_sum(array_column($i['per_shard'], 'updates'));
echo "lockless updates: ", $after['lockless_updates'] - $before['lockless_updates'], "\n";
echo "updates in the shard rows: ", $shard_updates($after) - $shard_updates($before), "\n";
echo "updates in total: ", $after['updates'] - $before['updates'], "\n";
$ci = apcu_cache_info(true);
echo "num_inserts: ", $ci['num_inserts'], ", num_entries: ", $ci['num_entries'], "\n";

// The locked path: a type change, a TTL, a string, add.
var_dump(apcu_store('i', 2.5));          // int -> float
var_dump(apcu_store('f', 3.5, 100));     // a TTL
var_dump(apcu_store('f', 4.5));          // over an entry with a TTL
var_dump(apcu_store('t', 'str'));        // bool -> string
var_dump(apcu_add('neg', 5));            // exists
var_dump(apcu_fetch('i'), apcu_fetch('f'), apcu_fetch('t'), apcu_fetch('neg'));
echo "ttl of f: ", apcu_key_info('f')['ttl'], "\n";
$last = shardcache_info();
echo "lockless updates: ", $last['lockless_updates'] - $after['lockless_updates'], "\n";
echo "updates in the shard rows: ", $shard_updates($last) - $shard_updates($after), "\n";

// apcu_inc on an int rewritten without the lock, then a store over it.
apcu_store('c', 10);
apcu_store('c', 20);
var_dump(apcu_inc('c', 5), apcu_fetch('c'));
apcu_store('c', 1);
var_dump(apcu_inc('c'), apcu_fetch('c'));

// Values with bytes: same type and same length -> written in the entry;
// another length, or a TTL -> the locked path.
$b = shardcache_info();
apcu_store('str', 'abcdef');
apcu_store('arr', [1, 'x' => 2.5, [true]]);
apcu_store('obj', new ArrayObject([1, 2]));
apcu_store('str', 'uvwxyz');                       // same length
apcu_store('arr', [7, 'x' => 8.5, [false]]);       // same shape and length
apcu_store('obj', new ArrayObject([3, 4]));        // same length
$m = shardcache_info();
echo "lockless updates: ", $m['lockless_updates'] - $b['lockless_updates'], "\n";
var_dump(apcu_fetch('str'), apcu_fetch('arr'), apcu_fetch('obj')->getArrayCopy());
apcu_store('str', 'longer value');                 // another length
apcu_store('arr', [7, 'x' => 8.5, [false]], 50);   // a TTL
$l = shardcache_info();
echo "lockless updates: ", $l['lockless_updates'] - $m['lockless_updates'], "\n";
var_dump(apcu_fetch('str'), apcu_key_info('arr')['ttl']);

// APCUIterator's order follows the stores (stamps), whichever path they took.
apcu_clear_cache();
foreach (['a', 'b', 'c', 'd'] as $k) {
    apcu_store($k, 0);
}
apcu_store('b', 1);      // lockless
apcu_store('a', 1);      // lockless
apcu_store('d', 'x');    // locked
apcu_store('c', 1);      // lockless
$order = [];
foreach (new APCUIterator(null, APC_ITER_KEY | APC_ITER_VALUE) as $e) {
    $order[] = $e['key'] . '=' . var_export($e['value'], true);
}
echo implode(' ', $order), "\n";
$ci = apcu_cache_info(true);
echo "after clear: num_inserts ", $ci['num_inserts'], ", lockless_updates ", shardcache_info()['lockless_updates'], "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
values and key info: right
lockless updates: 7
updates in the shard rows: 0
updates in total: 7
num_inserts: 14, num_entries: 7
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
float(2.5)
float(4.5)
string(3) "str"
int(-9223372036854775808)
ttl of f: 0
lockless updates: 0
updates in the shard rows: 4
int(25)
int(25)
int(2)
int(2)
lockless updates: 3
string(6) "uvwxyz"
array(3) {
  [0]=>
  int(7)
  ["x"]=>
  float(8.5)
  [1]=>
  array(1) {
    [0]=>
    bool(false)
  }
}
array(2) {
  [0]=>
  int(3)
  [1]=>
  int(4)
}
lockless updates: 0
string(12) "longer value"
int(50)
b=1 a=1 d='x' c=1
after clear: num_inserts 8, lockless_updates 3
