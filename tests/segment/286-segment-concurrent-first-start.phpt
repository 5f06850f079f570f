--TEST--
shardcache.segment: 8 processes starting at once all end up on one segment
--DESCRIPTION--
The segment is missing at the start. Each process increments a counter in
it; once all 8 have, each reads 8. No temporary file is left; 5 rounds.
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
$n = 8;
for ($round = 1; $round <= 5; $round++) {
    $seg = "$d/seg$round";
    $seen = array_map('trim', seg_count_together($n, ['shardcache.segment' => $seg, 'apc.shm_size' => '2M'],
                                                 ['redirect', 1]));
    echo "round $round: ", implode(' ', $seen), "; files: ", count(glob("$d/seg$round*")), "\n";
}
?>
--EXPECT--
round 1: 8 8 8 8 8 8 8 8; files: 1
round 2: 8 8 8 8 8 8 8 8; files: 1
round 3: 8 8 8 8 8 8 8 8; files: 1
round 4: 8 8 8 8 8 8 8 8; files: 1
round 5: 8 8 8 8 8 8 8 8; files: 1
