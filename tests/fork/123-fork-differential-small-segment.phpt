--TEST--
Differential fork stress in a 4 MB segment: every value read is its writer's
--DESCRIPTION--
The small segment means constant eviction. 4 processes x 12000 random
store/add/fetch/delete/inc/dec/cas/entry/exists/clear. Every value read was
written for its key by its writer, and is never older than one read before.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
apc.shm_size=4M
--FILE--
<?php
require __DIR__ . '/../lib/differential.inc';
?>
--EXPECT--
errors: 0
values checked: many
every kind of operation ran: true
