--TEST--
shardcache: apcu_compat=0 turns the APCu identity off, apc.* still read
--DESCRIPTION--
shardcache.apcu_compat=0 turns the APCu identity off (no apcu_* functions,
no "apcu" extension, no APCUIterator) while the apc.* settings are still
read.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache not loaded'); ?>
--INI--
apc.enable_cli=1
shardcache.apcu_compat=0
apc.shm_size=16M
apc.entries_hint=100
--FILE--
<?php
require __DIR__ . '/../lib/serializer.inc';
var_dump(extension_loaded('apcu'), phpversion('apcu'), function_exists('apcu_fetch'), function_exists('apcu_store'),
         class_exists('APCUIterator'), get_extension_funcs('apcu'));
var_dump(ini_get('apc.enabled'), ini_get('apc.shm_size'), ini_get('shardcache.apcu_compat'));
echo implode(' ', array_keys(ini_get_all('shardcache'))), "\n";
var_dump(shardcache_enabled(), shardcache_store('k', [1, 'two']), shardcache_fetch('k'));
echo shardcache_info_row('APCu names'), "\n";
echo shardcache_info_row('Shared memory bytes'), "\n";
?>
--EXPECT--
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
string(1) "1"
string(3) "16M"
string(1) "0"
apc.coredump_unmap apc.enable_cli apc.enabled apc.entries_hint apc.expunge_threshold apc.gc_ttl apc.mmap_file_mask apc.mmap_hugepage_size apc.preload_path apc.serializer apc.shm_size apc.slam_defense apc.smart apc.ttl apc.use_request_time shardcache.apcu_compat shardcache.isolation shardcache.segment shardcache.segment_mode shardcache.shards shardcache.zero_copy shardcache.zero_copy_max
bool(true)
bool(true)
array(2) {
  [0]=>
  int(1)
  [1]=>
  string(3) "two"
}
not registered (shardcache.apcu_compat=0): use shardcache_*
16777216
