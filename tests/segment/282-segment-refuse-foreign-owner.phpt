--TEST--
shardcache.segment refusals: a file owned by another user is refused
--DESCRIPTION--
Refused whatever shardcache.segment_mode and the file's group: a warning, a
private segment instead, and the file unchanged.
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
// Group-shared: owned by nobody, group root (ours), mode 0660: the owner
// could read and write every entry through his own mapping.
chgrp("$d/seg", 0);
chmod("$d/seg", 0660);
echo preg_replace('/uid \d+/', 'uid N', seg_php("$d/seg", $use)), "\n";
echo preg_replace('/uid \d+/', 'uid N', seg_php("$d/seg", $use, ['shardcache.segment_mode' => '0660'])), "\n";
// The file is unchanged: its entry is still there for its owner's processes.
chown("$d/seg", 0);
clearstatcache();
echo seg_php("$d/seg", 'var_dump(apcu_fetch("k"));', ['shardcache.segment_mode' => '0660']), "\n";
// A file of a trusted owner, group-shared with another group than ours.
chgrp("$d/seg", $nogroup);
echo preg_replace('/group \d+/', 'group G', seg_php("$d/seg", $use, ['shardcache.segment_mode' => '0660'])), "\n";
?>
--EXPECT--
bool(true)
Warning: PHP Startup: shardcache: SEG is owned by uid N, not by this process's user (uid N) or root; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
bool(false)
bool(true)
Warning: PHP Startup: shardcache: SEG is owned by uid N, not by this process's user (uid N) or root; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
bool(false)
bool(true)
Warning: PHP Startup: shardcache: SEG is owned by uid N, not by this process's user (uid N) or root; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
bool(false)
bool(true)
string(4) "mine"
Warning: PHP Startup: shardcache: SEG is shared with group G, not with this process's group (gid 0); this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
bool(false)
bool(true)
