--TEST--
zero-copy, segment shared by builds of one array shape: every function reads it
--DESCRIPTION--
The named segment is shared by two PHP builds whose arrays have the same
shape (8.2 and 8.4, NTS and ZTS, debug). An array laid out by the other
build is read (copied) by every function: fetch, exists, add, the iterator,
apcu_key_info and apcu_entry (which does not call its callback) agree.
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
// The other build: a process that writes another PHP ABI into its layouts
// (test-only knob, php/zc.c), the shape of its arrays unchanged.
putenv('SHARDCACHE_TEST_ZC_ABI=' . (PHP_VERSION_ID * 4 + 3));
echo seg_php($seg, '
    foreach (["a", "b", "c", "d"] as $k) { var_dump(apcu_store($k, ["key" => $k, "list" => [1, 2.5, "three", null, true], "n" => ["x" => ["y" => $k]]])); }', $ini), "\n";
putenv('SHARDCACHE_TEST_ZC_ABI');
echo seg_php($seg, '
    $want = fn($k) => ["key" => $k, "list" => [1, 2.5, "three", null, true], "n" => ["x" => ["y" => $k]]];
    $v = apcu_fetch("a", $ok);
    echo "fetch: ", var_export($v === $want("a"), true), ", success ", var_export($ok, true), "\n";
    echo "exists: ", var_export(apcu_exists("b"), true), "\n";
    echo "add: ", var_export(apcu_add("b", "other"), true), ", then ", var_export(apcu_fetch("b") === $want("b"), true), "\n";
    $seen = [];
    foreach (new APCUIterator("/^[a-d]$/") as $k => $e) { $seen[$k] = $e["value"] === $want($k); }
    ksort($seen);
    echo "iterator: ", json_encode($seen), "\n";
    echo "key info: ", var_export(is_array(apcu_key_info("c")), true), "\n";
    $called = 0;
    $v = apcu_entry("d", function () use (&$called) { $called++; return "computed"; });
    echo "entry: ", var_export($v === $want("d"), true), ", callback called ", $called, " times\n";
    $zc = shardcache_info()["zero_copy"];
    echo "foreign: {$zc["foreign"]}, copied: ", $zc["copied"] > 0 ? "yes" : "no", "\n";', $ini), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
fetch: true, success true
exists: true
add: false, then true
iterator: {"a":true,"b":true,"c":true,"d":true}
key info: true
entry: true, callback called 0 times
foreign: 0, copied: yes
