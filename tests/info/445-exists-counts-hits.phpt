--TEST--
apcu_exists() counts as a fetch (APCu 5.1.25+): hits, misses, access time
--DESCRIPTION--
num_hits and num_misses grow by one per key found or missing (string and
array forms). After 32 hits (one sampled hit) the entry's num_hits and
access time are recorded as a fetch's.
--SKIPIF--
<?php if (!function_exists('apcu_exists')) die('skip apcu_exists not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
function counts() { $i = apcu_cache_info(true); return [$i['num_hits'], $i['num_misses']]; }
apcu_store('a', 1);
apcu_store('b', 2);
[$h0, $m0] = counts();
var_dump(apcu_exists('a'), apcu_exists('nope'));
[$h1, $m1] = counts();
var_dump($h1 - $h0, $m1 - $m0);
var_dump(apcu_exists(['a', 'b', 'x', 'y', 'z']));
[$h2, $m2] = counts();
var_dump($h2 - $h1, $m2 - $m1);
for ($i = 0; $i < 64; $i++) {
    apcu_exists('b');
}
$k = apcu_key_info('b');
var_dump($k['hits'] > 0, $k['access_time'] >= $k['creation_time']);
?>
--EXPECT--
bool(true)
bool(false)
float(1)
float(1)
array(2) {
  ["a"]=>
  bool(true)
  ["b"]=>
  bool(true)
}
float(2)
float(3)
bool(true)
bool(true)
