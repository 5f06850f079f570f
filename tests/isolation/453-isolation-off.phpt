--TEST--
shardcache.isolation=off: every user shares one namespace
--DESCRIPTION--
Every user reads, overwrites and clears the one shared namespace (the risk
the README states).
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
shardcache.isolation=off
--FILE--
<?php
require __DIR__ . '/../lib/isolation.inc';
var_dump(ini_get('shardcache.isolation'), shardcache_info()['isolation']);
apcu_store('root-key', 'r');
iso_as(ISO_A, function () { var_dump(apcu_store('shared', 'from-a'), apcu_fetch('root-key')); });
iso_as(ISO_B, function () { var_dump(apcu_fetch('shared'), apcu_store('shared', 'from-b'), iso_listed(), apcu_clear_cache()); });
var_dump(apcu_fetch('shared'), apcu_fetch('root-key'));
?>
--EXPECT--
string(0) ""
string(3) "off"
bool(true)
string(1) "r"
string(6) "from-a"
bool(true)
string(96) "iterator=["root-key","shared"] cache_list=["root-key","shared"] num_entries=2 phpinfo=2 info=2/2"
bool(true)
bool(false)
bool(false)
