--TEST--
shardcache.shards=64: store/fetch/delete/add/clear and two forked writers work
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache not loaded');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--INI--
apc.enable_cli=1
shardcache.shards=64
--FILE--
<?php
require __DIR__ . '/../lib/shards.inc';
shards_check(64);
?>
--EXPECT--
shardcache.shards=64
bool(true)
bool(true)
errors: 0
