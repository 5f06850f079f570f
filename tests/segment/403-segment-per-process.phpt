--TEST--
shardcache.segment with %p: a per-process segment leaves no file behind
--DESCRIPTION--
No file is left whether its process ends or is killed. A file left at the
path by a dead process with the same pid (a recycled pid) is never read, and
is removed.
--SKIPIF--
<?php if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: many child PHP processes'); ?>
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
<?php if (!function_exists('pcntl_exec')) die('skip needs pcntl_exec'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
$ini = ['apc.shm_size' => '2M'];
// Five processes that end, and one killed while it maps its segment.
for ($i = 0; $i < 5; $i++) {
    echo seg_php("$d/seg-%p", 'var_dump(apcu_store("k", 1), apcu_fetch("k"));', $ini), "\n";
}
$p = proc_open(seg_cmd(['shardcache.segment' => "$d/seg-%p"] + $ini, 'apcu_store("k", 1); echo "ready\n"; fgets(STDIN);'),
               [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
echo "killed: ", fgets($pipes[1]);
proc_terminate($p, 9); fclose($pipes[0]); fclose($pipes[1]); proc_close($p);
echo "files left: ", count(glob("$d/*")) + count(glob("$d/.*.new")), "\n";

// A dead process's segment, with an entry in it.
echo seg_php("$d/dead", 'var_dump(apcu_store("secret", "of the dead"));', $ini), "\n";
// A process (cache off) puts it at the name of its own pid, then becomes
// a PHP with shardcache.segment=seg-%p: the same pid.
$args = array_slice(seg_cmd(['shardcache.segment' => "$d/seg-%p"] + $ini,
        'var_dump(apcu_fetch("secret")); apcu_store("mine", 1); var_dump(file_exists("' . $d . '/seg-" . getmypid()));'), 1);
$code = '$f = "' . $d . '/seg-" . getmypid(); copy("' . $d . '/dead", $f); chmod($f, 0600); pcntl_exec(' . var_export(PHP_BINARY, true) . ', ' . var_export($args, true) . ');';
$p = proc_open([PHP_BINARY, '-n', '-r', $code], [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
echo "reused pid: ", trim(stream_get_contents($pipes[1])), "\n";
fclose($pipes[1]); proc_close($p);
echo "files left: ", implode(' ', array_map('basename', glob("$d/*"))), "\n";
?>
--EXPECT--
bool(true)
int(1)
bool(true)
int(1)
bool(true)
int(1)
bool(true)
int(1)
bool(true)
int(1)
killed: ready
files left: 0
bool(true)
reused pid: bool(false)
bool(false)
files left: dead
