--TEST--
shardcache.segment refusals: permission bits beyond segment_mode are refused
--DESCRIPTION--
A file with permission bits beyond shardcache.segment_mode (0644, 0606, 0660
and 0640 under 0600, setuid) is refused and left as it is; the process uses
a private segment instead. Bits within the mode are accepted.
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
echo seg_php("$d/seg", 'var_dump(apcu_store("k", "v"));'), "\n";
$use = 'var_dump(apcu_fetch("k"));';
foreach ([[0644, '0600'], [0606, '0600'], [0660, '0600'], [0640, '0600'], [04600, '0600'],
          [0640, '0660'], [0600, '0660']] as [$mode, $conf]) {
    chmod("$d/seg", $mode);
    clearstatcache();
    printf("file %04o, segment_mode %s: %s\n", $mode, $conf, seg_php("$d/seg", $use, ['shardcache.segment_mode' => $conf]));
    clearstatcache();
    printf("  still %04o\n", fileperms("$d/seg") & 07777);
}
?>
--EXPECT--
bool(true)
file 0644, segment_mode 0600: Warning: PHP Startup: shardcache: SEG has mode 0644, wider than shardcache.segment_mode 0600; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(false)
  still 0644
file 0606, segment_mode 0600: Warning: PHP Startup: shardcache: SEG has mode 0606, wider than shardcache.segment_mode 0600; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(false)
  still 0606
file 0660, segment_mode 0600: Warning: PHP Startup: shardcache: SEG has mode 0660, wider than shardcache.segment_mode 0600; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(false)
  still 0660
file 0640, segment_mode 0600: Warning: PHP Startup: shardcache: SEG has mode 0640, wider than shardcache.segment_mode 0600; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(false)
  still 0640
file 4600, segment_mode 0600: Warning: PHP Startup: shardcache: SEG has mode 4600, wider than shardcache.segment_mode 0600; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(false)
  still 4600
file 0640, segment_mode 0660: string(1) "v"
  still 0640
file 0600, segment_mode 0660: string(1) "v"
  still 0600
