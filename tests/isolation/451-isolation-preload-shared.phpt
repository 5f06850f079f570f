--TEST--
shardcache.isolation=user: preloaded entries are shared, changes are per user
--DESCRIPTION--
Entries loaded by apc.preload_path are read by every user; a user's store,
inc, delete or clear touches only its own copy; only root's clear removes
them.
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
apc.preload_path={PWD}/../preload/plain
--FILE--
<?php
require __DIR__ . '/../lib/isolation.inc';
$keys = ['int', 'str'];
$k = 'str';
echo "preloaded: ", apcu_fetch('int'), "\n";
$orig = serialize(apcu_fetch($k));

iso_as(ISO_A, function () use ($k, $orig, $keys) {
    echo 'A reads: ', serialize(apcu_fetch($k)) === $orig ? 'same' : 'different', ' exists=', var_export(apcu_exists($k), true),
         ' key_info=', apcu_key_info($k) === null ? 'null' : 'array', "\n";
    echo 'A lists all preloaded: ', var_export(str_contains(iso_listed(), '"int","nested-empty","null","str","trail"]'), true), "\n";
    var_dump(apcu_add($k, 'a'), apcu_store($k, 'mine-a'), apcu_fetch($k), apcu_store('cnt', 1));
    var_dump(apcu_inc('int'), apcu_inc('int'), apcu_cas('int', 44, 50), apcu_fetch('int'));
    echo 'A lists it once: ', substr_count(iso_listed(), "\"$k\""), "\n";
    var_dump(apcu_delete($k), serialize(apcu_fetch($k)) === $orig, apcu_delete($k), apcu_clear_cache());
    echo 'A after clear reads: ', serialize(apcu_fetch($k)) === $orig ? 'same' : 'different', "\n";
    var_dump(apcu_store($k, 'mine-a-again'));
});
iso_as(ISO_B, function () use ($k, $orig) {
    echo 'B reads: ', serialize(apcu_fetch($k)) === $orig ? 'same' : 'different', "\n";
    var_dump(apcu_fetch('cnt'), apcu_fetch('int'), apcu_cas('int', 42, 1), apcu_fetch('int'), apcu_dec('int'));
});
iso_as(ISO_A, function () use ($k) {
    var_dump(apcu_fetch($k));
});
var_dump(apcu_clear_cache());
iso_as(ISO_B, function () use ($k) {
    var_dump(apcu_fetch($k), apcu_exists($k), iso_listed());
});
iso_as(ISO_A, function () use ($k) {
    var_dump(apcu_fetch($k));
});
?>
--EXPECTF--
%r(Deprecated: PHP Startup: Unserializing the 'S' format is deprecated in Unknown on line 0\n\n)?%rWarning: PHP Startup: Numerical result out of range in Unknown on line 0
preloaded: 42
A reads: same exists=true key_info=array
A lists all preloaded: true
bool(false)
bool(true)
string(6) "mine-a"
bool(true)
int(43)
int(44)
bool(true)
int(50)
A lists it once: 2
bool(true)
bool(true)
bool(false)
bool(true)
A after clear reads: same
bool(true)
B reads: same
bool(false)
int(42)
bool(true)
int(1)
int(0)
string(12) "mine-a-again"
bool(true)
bool(false)
bool(false)
string(56) "iterator=[] cache_list=[] num_entries=0 phpinfo=0 info=0"
bool(false)
