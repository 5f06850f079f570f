--TEST--
shardcache.isolation: posix_seteuid changes whose entries are seen at once
--DESCRIPTION--
The same process sees the other user's entries at once, the fetch memo
included.
--SKIPIF--
<?php
if (!function_exists('pcntl_fork') || !function_exists('posix_setuid')) die('skip pcntl and posix needed');
if (posix_geteuid() !== 0) die('skip needs root (setuid to other users)');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--EXTENSIONS--
posix
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/isolation.inc';
apcu_store('x', 'root');
apcu_store('i', 1);
for ($j = 0; $j < 3; $j++) { apcu_fetch('x'); apcu_fetch('i'); }   // the thread's memo knows both
var_dump(posix_seteuid(ISO_A), apcu_fetch('x'), apcu_fetch('i'), apcu_store('x', 'a'), apcu_fetch('x'),
         shardcache_info()['owner_uid']);
var_dump(posix_seteuid(0), apcu_fetch('x'), apcu_fetch('i'), shardcache_info()['owner_uid']);
var_dump(posix_seteuid(ISO_A), apcu_fetch('x'), posix_seteuid(0));
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(true)
string(1) "a"
int(65534)
bool(true)
string(4) "root"
int(1)
int(0)
bool(true)
string(1) "a"
bool(true)
