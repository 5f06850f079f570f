--TEST--
apcu_entry, 64 shards: a slow callback for one key delays no other key
--DESCRIPTION--
With shardcache.shards=64, a slow callback for one key delays neither
fetches, stores, updates nor apcu_entry of other keys; a waiter for the same
key gets its value.
--SKIPIF--
<?php
require __DIR__ . '/../lib/fork-update.inc';
fu_skip();
if (!extension_loaded('shardcache')) die('skip shardcache-specific: APCu holds its global write lock while the callback runs, so every other key waits');
?>
--INI--
apc.enable_cli=1
shardcache.shards=64
--FILE--
<?php
require __DIR__ . '/../lib/fork-entry-slow.inc';
?>
--EXPECT--
A: in callback
C: calling
B: done 0 (before A was told to finish)
A got: 'slow value for slow'
B errors: []
C got: {"value":"slow value for slow","own callback ran":false}
stored: 'slow value for slow'
errors: 0
