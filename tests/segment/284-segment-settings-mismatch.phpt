--TEST--
shardcache.segment: different settings map the segment as is, with one warning
--DESCRIPTION--
A process whose apc.shm_size / shardcache.shards / apc.entries_hint differ
from the existing segment's maps it as it is, says so once (one warning),
and changes nothing. The same settings give no warning.
--SKIPIF--
<?php if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: many child PHP processes, each traced (288 runs a named segment under valgrind)'); ?>
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
$made = ['apc.shm_size' => '8M', 'shardcache.shards' => '4', 'apc.entries_hint' => '1000'];
$show = 'for ($i = 0; $i < 3; $i++) apcu_store("k$i", $i); $i = shardcache_info(); '
      . 'echo "shards ", $i["shards"], ", entries ", apcu_cache_info()["num_entries"], ", size ", filesize(str_replace("%p", "", ini_get("shardcache.segment"))), "\n";';
echo seg_php("$d/seg", 'apcu_store("first", 1);' . $show, $made), "\n";
foreach ([['apc.shm_size' => '16M'] + $made, ['shardcache.shards' => '8'] + $made, ['apc.entries_hint' => '5'] + $made, $made] as $ini) {
    echo seg_php("$d/seg", 'var_dump(apcu_fetch("first"));' . $show, $ini), "\n";
}
echo filesize("$d/seg"), "\n";
?>
--EXPECT--
shards 4, entries 4, size 8388608
Warning: PHP Startup: shardcache: SEG was made with apc.shm_size=8388608, shardcache.shards=4, apc.entries_hint=1000; this process asks for 16777216, 4, 1000: using the segment as it is in Unknown on line 0
int(1)
shards 4, entries 4, size 8388608
Warning: PHP Startup: shardcache: SEG was made with apc.shm_size=8388608, shardcache.shards=4, apc.entries_hint=1000; this process asks for 8388608, 8, 1000: using the segment as it is in Unknown on line 0
int(1)
shards 4, entries 4, size 8388608
Warning: PHP Startup: shardcache: SEG was made with apc.shm_size=8388608, shardcache.shards=4, apc.entries_hint=1000; this process asks for 8388608, 4, 5: using the segment as it is in Unknown on line 0
int(1)
shards 4, entries 4, size 8388608
int(1)
shards 4, entries 4, size 8388608
8388608
