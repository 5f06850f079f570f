--TEST--
apc.shm_size=1M with shardcache.shards=4096: fewer shards, the cache works
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache only: APCu treats its INI settings its own way'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=1M
shardcache.shards=4096
--FILE--
<?php
require __DIR__ . '/../lib/ini-extreme.inc';
?>
--EXPECT--
enabled: true
[true,"v",false,true,[],true,5,3,true,10,"computed e",true,true,true,false,true,false]
many: ok
