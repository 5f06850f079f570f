--TEST--
A key deleted without the lock is absent everywhere and can come back
--DESCRIPTION--
Keys deleted without the shard lock stay in their slot as SC_TTL_GONE. They
are absent for fetch, exists, key_info, cache_info (list and num_entries),
APCUIterator, add, inc, dec, cas, entry and delete (single and array forms).

A store of the same type and length brings the key back (a lockless insert);
any other store replaces it under the lock. shardcache_info's
lockless_deletes, lockless_inserts, entries, inserts and deletes agree, and
a clear starts them over.
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
// Answers that APCu gives for the same script are marked "(APCu: same)" in
// the comments below; the figures (shardcache_info) are shardcache's own.
function info(): array {
    $i = shardcache_info();
    return ['ld' => $i['lockless_deletes'], 'li' => $i['lockless_inserts'], 'lu' => $i['lockless_updates'],
            'entries' => $i['entries'], 'inserts' => $i['inserts'], 'deletes' => $i['deletes'],
            'updates' => $i['updates']];
}
function delta(array $a, array $b): string {
    $out = [];
    foreach ($b as $k => $v) {
        if ($v !== $a[$k]) {
            $out[] = "$k" . ($v - $a[$k] > 0 ? '+' : '') . ($v - $a[$k]);
        }
    }
    return $out ? implode(' ', $out) : 'no change';
}
// Stores $v under $k, deletes it, and says whether the delete was lockless
// (a kept entry: lockless_deletes + 1 and one entry fewer than the slots).
function make_gone(string $k, $v): void {
    apcu_store($k, $v);
    $a = info();
    $r = apcu_delete($k);
    $b = info();
    echo "delete $k: ", var_export($r, true), ", ", delta($a, $b), "\n";
}
function listed(string $k): int {
    $n = 0;
    foreach (apcu_cache_info()['cache_list'] as $e) {
        if ($e['info'] === $k) $n++;
    }
    return $n;
}

echo "-- the gone key is absent for every reader\n";
apcu_store('other', 'stays');
make_gone('k', 41);
var_dump(apcu_fetch('k', $ok), $ok);                   // (APCu: same)
var_dump(apcu_fetch(['k', 'other']));                  // (APCu: same)
var_dump(apcu_exists('k'), apcu_exists(['k', 'other'])); // (APCu: same)
var_dump(apcu_key_info('k'));                          // (APCu: same)
$ci = apcu_cache_info();
echo "num_entries ", $ci['num_entries'], ", listed k ", listed('k'), ", listed ", count($ci['cache_list']), "\n";
echo "limited num_entries ", apcu_cache_info(true)['num_entries'], "\n";
$it = new APCUIterator('/^k$/');
echo "iterator: ", iterator_count($it), " listed, total count ", $it->getTotalCount(), "\n";
$it = new APCUIterator(null, APC_ITER_KEY);
echo "iterator over all: ", implode(',', array_keys(iterator_to_array($it))), ", total count ", $it->getTotalCount(), "\n";
$it = new APCUIterator(['k', 'other'], APC_ITER_KEY);
echo "iterator by key list: ", implode(',', array_keys(iterator_to_array($it))), "\n";
$i = shardcache_info();
echo "entries ", $i['entries'], ", per_shard entries ", array_sum(array_column($i['per_shard'], 'entries')), "\n";

echo "-- delete twice, and the array form\n";
$a = info();
var_dump(apcu_delete('k'));                            // (APCu: same)
echo delta($a, info()), "\n";
apcu_store(['d1' => 1, 'd2' => 'two', 'd3' => [3]]);
var_dump(apcu_delete(['d1']));                         // (APCu: same)
$a = info();
var_dump(apcu_delete(['d1', 'd2', 'missing', 'd3', 'd2'])); // (APCu: same: the keys not deleted)
echo delta($a, info()), "\n";
var_dump(apcu_exists(['d1', 'd2', 'd3']));

echo "-- add\n";
make_gone('k', 41);
$a = info();
var_dump(apcu_add('k', 42), apcu_fetch('k'));          // (APCu: same)
echo delta($a, info()), "\n";
var_dump(apcu_add('k', 43), apcu_fetch('k'));          // (APCu: same)
make_gone('k', 41);
var_dump(apcu_add(['k' => 44, 'other' => 1]), apcu_fetch('k'), apcu_fetch('other')); // (APCu: same)

echo "-- inc and dec create from 0\n";
make_gone('k', 41);
$a = info();
var_dump(apcu_inc('k', 5, $ok), $ok, apcu_fetch('k'));  // (APCu: same)
echo delta($a, info()), "\n";
make_gone('k', 41);
var_dump(apcu_dec('k', 3, $ok), $ok, apcu_fetch('k'));  // (APCu: same)
make_gone('ks', 'abc');
var_dump(apcu_inc('ks'), apcu_fetch('ks'));            // (APCu: same)

echo "-- cas\n";
make_gone('k', 41);
var_dump(apcu_cas('k', 41, 50), apcu_exists('k'));     // (APCu: same)
var_dump(apcu_cas('k', 0, 50), apcu_exists('k'));      // (APCu: same)

echo "-- entry calls the callback\n";
make_gone('k', 41);
$calls = 0;
var_dump(apcu_entry('k', function ($key) use (&$calls) { $calls++; return "made for $key"; }), $calls); // (APCu: same)
var_dump(apcu_entry('k', function () use (&$calls) { $calls++; return 'again'; }), $calls);        // (APCu: same)
var_dump(apcu_fetch('k'));

echo "-- a store of the same type and length brings the key back without the lock\n";
make_gone('k', 41);
$a = info();
var_dump(apcu_store('k', 99), apcu_fetch('k'));
echo delta($a, info()), "\n";
$ki = apcu_key_info('k');
echo "key info: ttl ", $ki['ttl'], ", hits ", $ki['hits'], ", listed ", listed('k'), "\n";
$a = info();
var_dump(apcu_inc('k', 2), apcu_dec('k', 10), apcu_fetch('k'));
echo "entries ", info()['entries'] - $a['entries'], "\n";
foreach (['string' => ['abcdef', 'uvwxyz'], 'array' => [[1, 'x' => 2.5], [7, 'x' => 8.5]],
          'float' => [1.5, -2.25], 'true' => [true, true], 'null' => [null, null]] as $label => [$v1, $v2]) {
    make_gone("t:$label", $v1);
    $a = info();
    $r = apcu_store("t:$label", $v2);
    echo "$label revived: ", var_export($r, true), ", ", var_export(apcu_fetch("t:$label") === $v2, true), ", ",
         delta($a, info()), "\n";
}

echo "-- other stores replace the gone entry under the lock\n";
make_gone('k', 'abcdef');
$a = info();
var_dump(apcu_store('k', 'longer value'), apcu_fetch('k'));
echo delta($a, info()), "\n";
make_gone('k', 'abcdef');
$a = info();
var_dump(apcu_store('k', 123456), apcu_fetch('k'));   // other type
echo delta($a, info()), "\n";
make_gone('k', 7);
$a = info();
var_dump(apcu_store('k', 8, 100), apcu_fetch('k'), apcu_key_info('k')['ttl']); // a TTL
echo delta($a, info()), "\n";
$a = info();
var_dump(apcu_delete('k'));                           // a value with a TTL: the locked delete
echo delta($a, info()), "\n";
var_dump(apcu_fetch('k', $ok), $ok);

echo "-- a value over 4096 bytes is deleted under the lock\n";
apcu_store('big', str_repeat('b', 5000));
$a = info();
var_dump(apcu_delete('big'), apcu_exists('big'));
echo delta($a, info()), "\n";

echo "-- figures agree\n";
$i = shardcache_info();
$ci = apcu_cache_info();
echo "entries ", $i['entries'], ", num_entries ", $ci['num_entries'], ", listed ", count($ci['cache_list']),
     ", iterator ", (new APCUIterator())->getTotalCount(), "\n";
echo "lockless_deletes ", $i['lockless_deletes'], ", lockless_inserts ", $i['lockless_inserts'], "\n";
echo "deletes in the shard rows + lockless = deletes: ",
     var_export(array_sum(array_column($i['per_shard'], 'deletes')) + $i['lockless_deletes'] === $i['deletes'], true), "\n";
echo "inserts in the shard rows + lockless = inserts: ",
     var_export(array_sum(array_column($i['per_shard'], 'inserts')) + $i['lockless_inserts'] === $i['inserts'], true), "\n";
echo "per_shard entries sum: ", array_sum(array_column($i['per_shard'], 'entries')), "\n";

echo "-- apcu_delete with an APCUIterator skips the gone keys\n";
foreach (range(1, 6) as $j) {
    apcu_store("x$j", "v$j");
}
var_dump(apcu_delete('x2'), apcu_delete('x3'));
$it = new APCUIterator('/^x\d$/');
echo "matching: ", $it->getTotalCount(), "\n";                 // (APCu: same)
$a = info();
var_dump(apcu_delete($it));                                    // (APCu: same)
echo delta($a, info()), "\n";
var_dump(apcu_exists(['x1', 'x2', 'x3', 'x6']));               // (APCu: same)
$a = info();
var_dump(apcu_store('x2', 'v9'), apcu_fetch('x2'));            // brought back
echo delta($a, info()), "\n";

echo "-- a clear starts over\n";
make_gone('k', 1);
make_gone('k2', 2);
var_dump(apcu_clear_cache());
$i = shardcache_info();
echo "entries ", $i['entries'], ", inserts ", $i['inserts'], ", deletes ", $i['deletes'], ", lockless_deletes ",
     $i['lockless_deletes'], ", lockless_inserts ", $i['lockless_inserts'], ", num_entries ",
     apcu_cache_info()['num_entries'], "\n";
var_dump(apcu_fetch('k'), apcu_add('k', 3), apcu_fetch('k'));
?>
--EXPECT--
-- the gone key is absent for every reader
delete k: true, ld+1 entries-1 deletes+1
bool(false)
bool(false)
array(1) {
  ["other"]=>
  string(5) "stays"
}
bool(false)
array(1) {
  ["other"]=>
  bool(true)
}
NULL
num_entries 1, listed k 0, listed 1
limited num_entries 1
iterator: 0 listed, total count 0
iterator over all: other, total count 1
iterator by key list: other
entries 1, per_shard entries 1
-- delete twice, and the array form
bool(false)
no change
array(0) {
}
array(3) {
  [0]=>
  string(2) "d1"
  [1]=>
  string(7) "missing"
  [2]=>
  string(2) "d2"
}
ld+2 entries-2 deletes+2
array(0) {
}
-- add
delete k: true, ld+1 entries-1 deletes+1
bool(true)
int(42)
entries+1 inserts+1
bool(false)
int(42)
delete k: true, ld+1 entries-1 deletes+1
array(1) {
  ["other"]=>
  int(-1)
}
int(44)
string(5) "stays"
-- inc and dec create from 0
delete k: true, ld+1 entries-1 deletes+1
int(5)
bool(true)
int(5)
entries+1 inserts+1
delete k: true, ld+1 entries-1 deletes+1
int(-3)
bool(true)
int(-3)
delete ks: true, ld+1 entries-1 deletes+1
int(1)
int(1)
-- cas
delete k: true, ld+1 entries-1 deletes+1
bool(false)
bool(false)
bool(false)
bool(false)
-- entry calls the callback
delete k: true, ld+1 entries-1 deletes+1
string(10) "made for k"
int(1)
string(10) "made for k"
int(1)
string(10) "made for k"
-- a store of the same type and length brings the key back without the lock
delete k: true, ld+1 entries-1 deletes+1
bool(true)
int(99)
li+1 entries+1 inserts+1
key info: ttl 0, hits 0, listed 1
int(101)
int(91)
int(91)
entries 0
delete t:string: true, ld+1 entries-1 deletes+1
string revived: true, true, li+1 entries+1 inserts+1
delete t:array: true, ld+1 entries-1 deletes+1
array revived: true, true, li+1 entries+1 inserts+1
delete t:float: true, ld+1 entries-1 deletes+1
float revived: true, true, li+1 entries+1 inserts+1
delete t:true: true, ld+1 entries-1 deletes+1
true revived: true, true, li+1 entries+1 inserts+1
delete t:null: true, ld+1 entries-1 deletes+1
null revived: true, true, li+1 entries+1 inserts+1
-- other stores replace the gone entry under the lock
delete k: true, ld+1 entries-1 deletes+1
bool(true)
string(12) "longer value"
entries+1 inserts+1
delete k: true, ld+1 entries-1 deletes+1
bool(true)
int(123456)
entries+1 inserts+1
delete k: true, ld+1 entries-1 deletes+1
bool(true)
int(8)
int(100)
entries+1 inserts+1
bool(true)
entries-1 deletes+1
bool(false)
bool(false)
-- a value over 4096 bytes is deleted under the lock
bool(true)
bool(false)
entries-1 deletes+1
-- figures agree
entries 7, num_entries 7, listed 7, iterator 7
lockless_deletes 20, lockless_inserts 8
deletes in the shard rows + lockless = deletes: true
inserts in the shard rows + lockless = inserts: true
per_shard entries sum: 7
-- apcu_delete with an APCUIterator skips the gone keys
bool(true)
bool(true)
matching: 4
bool(true)
ld+4 entries-4 deletes+4
array(0) {
}
bool(true)
string(2) "v9"
li+1 entries+1 inserts+1
-- a clear starts over
delete k: true, ld+1 entries-1 deletes+1
delete k2: true, ld+1 entries-1 deletes+1
bool(true)
entries 0, inserts 0, deletes 0, lockless_deletes 0, lockless_inserts 0, num_entries 0
bool(false)
bool(true)
int(3)
