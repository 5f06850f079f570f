--TEST--
shardcache.segment directories: unsafe parent directories are refused
--DESCRIPTION--
Every directory above the file must be owned by root or this user and
writable by nobody else unless sticky (group-writable: this process's group
only). Otherwise a warning and a private segment, and nothing is created
there.
--SKIPIF--
<?php if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: many child PHP processes, each traced (288 runs a named segment under valgrind)'); ?>
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open') || !function_exists('symlink')) die('skip needs proc_open and symlink'); ?>
<?php if (!function_exists('exec') || trim((string) shell_exec('id -u')) !== '0') die('skip needs root (chown to another user)'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
$use = 'var_dump(apcu_store("k", "v"), apcu_fetch("k"));' . SEG_INFO;
function try_dir(string $label, string $dir, int $mode, ?int $uid = null, ?int $gid = null): void
{
    global $d, $use;
    is_dir($dir) || mkdir($dir);
    chmod($dir, $mode);
    $uid === null || chown($dir, $uid);
    $gid === null || chgrp($dir, $gid);
    $out = seg_php("$dir/seg", $use);
    $out = str_replace($d, 'D', preg_replace('/uid \d+/', 'uid N', $out));
    clearstatcache();
    printf("%s (%04o): %s\n  files: %s\n", $label, $mode, $out, implode(' ', array_map('basename', glob("$dir/*"))) ?: '-');
    @unlink("$dir/seg");
}
try_dir('private', "$d/private", 0700);
try_dir('sticky, world-writable', "$d/sticky", 01777);
try_dir('group-writable, our group', "$d/ourgroup", 0770, 0, 0);
try_dir('world-writable', "$d/open", 0777);
try_dir('world-writable, below a good one', "$d/open/sub", 0700);
chmod("$d/open", 0755);
try_dir('group-writable, another group', "$d/othergroup", 0770, 0, 65534);
try_dir('another owner', "$d/theirs", 0755, 65534, 0);
// A symbolic link on the way is followed to the directory it names, which
// is the one checked.
mkdir("$d/real", 0777);
chmod("$d/real", 0777);
symlink("$d/real", "$d/link");
try_dir('a link to a world-writable one', "$d/link", 0777);
symlink("$d/private", "$d/good-link");
try_dir('a link to a private one', "$d/good-link", 0700);
?>
--EXPECT--
private (0700): bool(true)
string(1) "v"
segment: SEG (file, 1 boots)
  files: seg
sticky, world-writable (1777): bool(true)
string(1) "v"
segment: SEG (file, 1 boots)
  files: seg
group-writable, our group (0770): bool(true)
string(1) "v"
segment: SEG (file, 1 boots)
  files: seg
world-writable (0777): Warning: PHP Startup: shardcache: the directory D/open is writable by other users (mode 0777) and not sticky: they could replace the segment; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
string(1) "v"
segment: anonymous, private to this process: shardcache.segment refused: the directory D/open is writable by other users (mode 0777) and not sticky: they could replace the segment
  files: -
world-writable, below a good one (0700): Warning: PHP Startup: shardcache: the directory D/open is writable by other users (mode 0777) and not sticky: they could replace the segment; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
string(1) "v"
segment: anonymous, private to this process: shardcache.segment refused: the directory D/open is writable by other users (mode 0777) and not sticky: they could replace the segment
  files: -
group-writable, another group (0770): Warning: PHP Startup: shardcache: the directory D/othergroup is writable by other users (mode 0770) and not sticky: they could replace the segment; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
string(1) "v"
segment: anonymous, private to this process: shardcache.segment refused: the directory D/othergroup is writable by other users (mode 0770) and not sticky: they could replace the segment
  files: -
another owner (0755): Warning: PHP Startup: shardcache: the directory D/theirs is owned by uid N, not by root or this process's user (uid N): its owner could take the segment's path away; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
string(1) "v"
segment: anonymous, private to this process: shardcache.segment refused: the directory D/theirs is owned by uid N, not by root or this process's user (uid N): its owner could take the segment's path away
  files: -
a link to a world-writable one (0777): Warning: PHP Startup: shardcache: the directory D/real is writable by other users (mode 0777) and not sticky: they could replace the segment; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
string(1) "v"
segment: anonymous, private to this process: shardcache.segment refused: the directory D/real is writable by other users (mode 0777) and not sticky: they could replace the segment
  files: -
a link to a private one (0700): bool(true)
string(1) "v"
segment: SEG (file, 1 boots)
  files: seg
