--TEST--
shardcache.shards not a power of two (3): warning, 64 shards, the cache works
--DESCRIPTION--
A startup warning, then a fall back to 64 shards.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache not loaded'); ?>
--INI--
apc.enable_cli=1
shardcache.shards=3
--FILE--
<?php
var_dump(apcu_enabled(), apcu_store(['a' => 1, 'b' => [2], 'c' => 'three']), apcu_fetch(['a', 'b', 'c']));
?>
--EXPECT--
Warning: PHP Startup: shardcache: shardcache.shards must be 0 (automatic) or a power of two from 1 to 4096; using 64 in Unknown on line 0
bool(true)
array(0) {
}
array(3) {
  ["a"]=>
  int(1)
  ["b"]=>
  array(1) {
    [0]=>
    int(2)
  }
  ["c"]=>
  string(5) "three"
}
