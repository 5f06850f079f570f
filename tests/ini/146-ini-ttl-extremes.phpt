--TEST--
apc.ttl=-5 and apc.gc_ttl=-1: taken as 0, the cache works
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache only: APCu treats its INI settings its own way'); ?>
--INI--
apc.enable_cli=1
apc.ttl=-5
apc.gc_ttl=-1
--FILE--
<?php
require __DIR__ . '/../lib/ini-extreme.inc';
?>
--EXPECT--
enabled: true
[true,"v",false,true,[],true,5,3,true,10,"computed e",true,true,true,false,true,false]
many: ok
