--TEST--
shardcache.segment refusals: a symbolic link, a directory, a FIFO
--DESCRIPTION--
The link may point to a good segment or dangle. Each gives a warning and a
private anonymous segment in that process instead (it works); nothing is
mapped or created through the link, and the target is untouched.
--SKIPIF--
<?php if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: many child PHP processes, each traced (288 runs a named segment under valgrind)'); ?>
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open') || !function_exists('symlink') || !function_exists('exec')) die('skip needs proc_open, exec and symlink'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
echo seg_php("$d/real", 'var_dump(apcu_store("k", "real"));'), "\n";
symlink("$d/real", "$d/link");
$use = 'var_dump(apcu_enabled(), apcu_store("k", "via link"), apcu_fetch("k"));';
echo str_replace($d, 'DIR', seg_php("$d/link", $use)), "\n";
echo seg_php("$d/real", 'var_dump(apcu_fetch("k"));'), "\n";
// A dangling link: the target must not be created through it.
symlink("$d/planted-target", "$d/dangling");
echo seg_php("$d/dangling", $use), "\n";
var_dump(file_exists("$d/planted-target"));
// A link in the middle of the path is the directory's business (the
// directory must be trusted); only the last component is checked.
mkdir("$d/dir");
echo seg_php("$d/dir", $use), "\n";
exec('mkfifo -m 0600 ' . escapeshellarg("$d/fifo"), $o, $rc);
echo $rc === 0 ? seg_php("$d/fifo", $use) : "mkfifo failed", "\n";
echo count(glob("$d/*.new")), " temporary files left\n";
?>
--EXPECT--
bool(true)
Warning: PHP Startup: shardcache: SEG is a symbolic link; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
bool(true)
string(8) "via link"
string(4) "real"
Warning: PHP Startup: shardcache: SEG is a symbolic link; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
bool(true)
string(8) "via link"
bool(false)
Warning: PHP Startup: shardcache: cannot open SEG: Is a directory; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
bool(true)
string(8) "via link"
Warning: PHP Startup: shardcache: SEG is not a regular file; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
bool(true)
string(8) "via link"
0 temporary files left
