--TEST--
Fork stress: 4 processes x 20000 mixed ops on 200 shared keys, reads checked
--DESCRIPTION--
The mixed ops are store, fetch, delete and add; every read is verified.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
apc.shm_size=64M
--FILE--
<?php
require __DIR__ . '/../lib/fork-stress.inc';
?>
--EXPECT--
errors: 0
reads hit: yes
ops >= 80000: yes
entries left: yes
