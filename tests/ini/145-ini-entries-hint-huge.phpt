--TEST--
apc.entries_hint=999999999999: the cache still works
--DESCRIPTION--
The hint is far more than the segment can index.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache only: APCu treats its INI settings its own way'); ?>
--INI--
apc.enable_cli=1
apc.entries_hint=999999999999
--FILE--
<?php
require __DIR__ . '/../lib/ini-extreme.inc';
?>
--EXPECT--
enabled: true
[true,"v",false,true,[],true,5,3,true,10,"computed e",true,true,true,false,true,false]
many: ok
