--TEST--
Every apc.* setting given a non-default value: reported, accepted, cache works
--DESCRIPTION--
ini_get reports each value. The settings without meaning for shardcache are
accepted; apc.shm_segments, gone since APCu 5.1.25, is accepted quietly and
not listed. The cache works.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enabled=1
apc.enable_cli=1
apc.shm_segments=1
apc.mmap_hugepage_size=2M
apc.expunge_threshold=10
apc.shm_size=48M
apc.entries_hint=1000
apc.gc_ttl=60
apc.ttl=7200
apc.smart=3
apc.mmap_file_mask=/tmp/apc.XXXXXX
apc.slam_defense=1
apc.preload_path=/nonexistent/shardcache/preload
apc.coredump_unmap=1
apc.use_request_time=1
apc.serializer=php
--FILE--
<?php
foreach (array_keys(ini_get_all()) as $name) {
    if (strncmp($name, 'apc.', 4) === 0) {
        echo $name, ' = ', var_export(ini_get($name), true), "\n";
    }
}
var_dump(apcu_enabled());
var_dump(apcu_store('k', ['a' => 1, 'o' => new ArrayObject([2])]));
var_dump(apcu_store('k', 'again in the same second'), apcu_fetch('k'));
var_dump(apcu_add('n', 1), apcu_inc('n'), apcu_fetch('n'));
?>
--EXPECT--
apc.coredump_unmap = '1'
apc.enable_cli = '1'
apc.enabled = '1'
apc.entries_hint = '1000'
apc.expunge_threshold = '10'
apc.gc_ttl = '60'
apc.mmap_file_mask = '/tmp/apc.XXXXXX'
apc.mmap_hugepage_size = '2M'
apc.preload_path = '/nonexistent/shardcache/preload'
apc.serializer = 'php'
apc.shm_size = '48M'
apc.slam_defense = '1'
apc.smart = '3'
apc.ttl = '7200'
apc.use_request_time = '1'
bool(true)
bool(true)
bool(true)
string(24) "again in the same second"
bool(true)
int(2)
int(2)
