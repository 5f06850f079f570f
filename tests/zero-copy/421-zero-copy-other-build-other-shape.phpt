--TEST--
zero-copy, segment shared with another array shape: its arrays are absent
--DESCRIPTION--
The named segment is shared with a PHP build whose arrays have another
shape. Its arrays, which this process cannot read, are absent for every
function alike: fetch misses, exists is false, add stores, the iterator and
apcu_key_info leave them out, apcu_entry computes and stores, apcu_inc
starts the key over. The other process's strings are read from their bytes.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$seg = seg_dir() . '/seg';
$ini = ['shardcache.zero_copy' => '1', 'apc.shm_size' => '8M'];
// The other build: a process that writes another PHP ABI and another
// array shape into its layouts (test-only knobs, php/zc.c).
putenv('SHARDCACHE_TEST_ZC_ABI=' . (PHP_VERSION_ID * 4 + 3));
putenv('SHARDCACHE_TEST_ZC_SHAPE=12345');
echo seg_php($seg, '
    foreach (["a", "b", "c", "d", "e", "f"] as $k) { apcu_store($k, ["key" => $k, "list" => [1, 2, 3]]); }
    var_dump(apcu_store("s", str_repeat("portable string ", 8)));', $ini), "\n";
putenv('SHARDCACHE_TEST_ZC_ABI');
putenv('SHARDCACHE_TEST_ZC_SHAPE');
echo seg_php($seg, '
    $v = apcu_fetch("a", $ok);
    echo "fetch: ", var_export($v, true), ", success ", var_export($ok, true), "\n";
    echo "exists: ", var_export(apcu_exists("a"), true), "\n";
    echo "exists (array form): ", json_encode(apcu_exists(["a", "b"])), "\n";
    echo "key info: ", var_export(apcu_key_info("a"), true), "\n";
    $seen = [];
    foreach (new APCUIterator("/^[a-f]$/") as $k => $e) { $seen[] = $k; }
    echo "iterator: ", json_encode($seen), "\n";
    echo "add: ", var_export(apcu_add("b", "mine"), true), ", then ", var_export(apcu_fetch("b"), true), "\n";
    $called = 0;
    $v = apcu_entry("c", function () use (&$called) { $called++; return ["computed"]; });
    echo "entry: ", json_encode($v), ", callback called ", $called, " times, then ", json_encode(apcu_fetch("c")), "\n";
    echo "inc: ", var_export(apcu_inc("d", 5), true), ", then ", var_export(apcu_fetch("d"), true), "\n";
    echo "store: ", var_export(apcu_store("e", [7]), true), ", then ", json_encode(apcu_fetch("e")), "\n";
    echo "delete: ", var_export(apcu_delete("f"), true), ", then exists ", var_export(apcu_exists("f"), true), "\n";
    echo "string: ", var_export(apcu_fetch("s") === str_repeat("portable string ", 8), true), "\n";
    echo "foreign: ", shardcache_info()["zero_copy"]["foreign"], "\n";', $ini), "\n";
?>
--EXPECT--
bool(true)
fetch: false, success false
exists: false
exists (array form): []
key info: NULL
iterator: []
add: true, then 'mine'
entry: ["computed"], callback called 1 times, then ["computed"]
inc: 5, then 5
store: true, then [7]
delete: true, then exists false
string: true
foreign: 1
