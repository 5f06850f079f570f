--TEST--
shardcache.segment refusals: a file owned by another user is refused (warning, cache disabled, nothing changed); with shardcache.segment_mode=0660 a group-shared file (group rw, one of our groups) of another owner is accepted, with 0600 it is not
--SKIPIF--
<?php if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: many child PHP processes, each traced (288 runs a named segment under valgrind)'); ?>
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
<?php if (!function_exists('exec') || trim((string) shell_exec('id -u')) !== '0') die('skip needs root (chown to another user)'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
$nobody = (int) trim((string) shell_exec('id -u nobody 2>/dev/null')) ?: 65534;
$nogroup = (int) trim((string) shell_exec('getent group nogroup | cut -d: -f3')) ?: 65534;
echo seg_php("$d/seg", 'var_dump(apcu_store("k", "mine"));'), "\n";
chown("$d/seg", $nobody);
clearstatcache();
$use = 'var_dump(apcu_enabled(), apcu_fetch("k"), apcu_store("k", "changed"));';
echo preg_replace('/uid \d+/', 'uid N', seg_php("$d/seg", $use)), "\n";
// Group-shared: owned by nobody, group root (ours), mode 0660.
chgrp("$d/seg", 0);
chmod("$d/seg", 0660);
echo preg_replace('/uid \d+/', 'uid N', seg_php("$d/seg", $use)), "\n";
echo seg_php("$d/seg", $use, ['shardcache.segment_mode' => '0660']), "\n";
// A group we are not in: refused even with 0660.
chgrp("$d/seg", $nogroup);
echo preg_replace('/uid \d+/', 'uid N', seg_php("$d/seg", $use, ['shardcache.segment_mode' => '0660'])), "\n";
?>
--EXPECT--
bool(true)
Warning: PHP Startup: shardcache: SEG is owned by uid N, not by this process's user (uid N); the cache is disabled in this process in Unknown on line 0
bool(false)
bool(false)
bool(false)
Warning: PHP Startup: shardcache: SEG is owned by uid N, not by this process's user (uid N); the cache is disabled in this process in Unknown on line 0
bool(false)
bool(false)
bool(false)
bool(true)
string(4) "mine"
bool(true)
Warning: PHP Startup: shardcache: SEG is owned by uid N, not by this process's user (uid N); the cache is disabled in this process in Unknown on line 0
bool(false)
bool(false)
bool(false)
