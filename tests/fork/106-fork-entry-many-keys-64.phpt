--TEST--
apcu_entry contention on 1,000 keys, 64 shards: each callback runs once
--DESCRIPTION--
The default 64 shards, 4 processes: each key's callback runs exactly once
and everybody gets its value.
--SKIPIF--
<?php require __DIR__ . '/../lib/fork-update.inc'; fu_skip(); ?>
--INI--
apc.enable_cli=1
shardcache.shards=64
--FILE--
<?php
require __DIR__ . '/../lib/fork-entry-many-keys.inc';
?>
--EXPECT--
errors: 0, processes that saw other values: 0, keys computed more than once: 0
