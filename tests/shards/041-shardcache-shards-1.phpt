--TEST--
shardcache.shards=1: store/fetch/delete/add/clear and two forked writers work
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache not loaded');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--INI--
apc.enable_cli=1
shardcache.shards=1
--FILE--
<?php
require __DIR__ . '/../lib/shards.inc';
shards_check(1);
?>
--EXPECT--
shardcache.shards=1
bool(true)
bool(true)
errors: 0
