--TEST--
shardcache.shards=99999: startup warning, 64 shards are used and the cache works
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache only: APCu treats its INI settings its own way'); ?>
--INI--
apc.enable_cli=1
shardcache.shards=99999
--FILE--
<?php
require __DIR__ . '/../lib/ini-extreme.inc';
?>
--EXPECT--
Warning: PHP Startup: shardcache: shardcache.shards must be 0 (automatic) or a power of two from 1 to 4096; using 64 in Unknown on line 0
enabled: true
[true,"v",false,true,[],true,5,3,true,10,"computed e",true,true,true,false,true,false]
many: ok
