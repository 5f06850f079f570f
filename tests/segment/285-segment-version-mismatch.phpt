--TEST--
shardcache.segment: a foreign or inconsistent segment is replaced, not trusted
--DESCRIPTION--
A segment of another shardcache version, another layout, another byte order,
too short, or with a size that does not match its file is never trusted: a
new segment is made and renamed over it (new file, 0600, empty) with a
warning. A process still mapping the old file keeps working on it.
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
$seg = "$d/seg";
$ini = ['apc.shm_size' => '4M'];
function patch(string $f, int $at, string $bytes) { $h = fopen($f, 'r+'); fseek($h, $at); fwrite($h, $bytes); fclose($h); }
function fresh(string $seg, array $ini) {
    @unlink($seg);
    seg_php($seg, 'apcu_store("old", "entry");', $ini);
    clearstatcache();
    return fileinode($seg);
}
$check = 'var_dump(apcu_fetch("old")); apcu_store("new", 1);';
$cases = [
    'version'     => fn($f) => patch($f, 24, "0.0.0-other\0"),
    'layout id'   => fn($f) => patch($f, 16, "\xde\xad\xbe\xef\xde\xad\xbe\xef"),
    'format'      => fn($f) => patch($f, 8, "\x63\x00\x00\x00"),
    'byte order'  => fn($f) => patch($f, 0, strrev(substr(file_get_contents($f, false, null, 0, 8), 0, 8))),
    'too short'   => fn($f) => file_put_contents($f, str_repeat("\0", 100)),
    'size'        => fn($f) => truncate($f, 2 << 20),
];
function truncate($f, $n) { $h = fopen($f, 'r+'); ftruncate($h, $n); fclose($h); }
foreach ($cases as $name => $spoil) {
    $ino = fresh($seg, $ini);
    $spoil($seg);
    echo "$name: ", preg_replace('/layout [0-9a-f]{16}/', 'layout X', seg_php($seg, $check, $ini)), "\n";
    clearstatcache();
    printf("  new file: %s, mode %04o, size %d, temporaries %d\n", var_export(fileinode($seg) !== $ino, true),
           fileperms($seg) & 07777, filesize($seg), count(glob("$seg.*")));
    echo "  next: ", seg_php($seg, 'var_dump(apcu_fetch("new"));', $ini), "\n";
}

// A process that maps the segment while it is replaced is not disturbed.
fresh($seg, $ini);
$holder = proc_open(seg_cmd(['shardcache.segment' => $seg] + $ini,
    'var_dump(apcu_store("held", "by holder")); echo "ready\n"; fgets(STDIN);
     var_dump(apcu_fetch("held"), apcu_store("after", 2), apcu_fetch("after"), apcu_fetch("old"));'),
    [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
echo fgets($pipes[1]), fgets($pipes[1]);
patch($seg, 24, "0.0.0-other\0");
echo "replacer: ", seg_php($seg, 'var_dump(apcu_fetch("held")); apcu_store("new", 3);', $ini), "\n";
fwrite($pipes[0], "go\n");
fclose($pipes[0]);
echo "holder: ", stream_get_contents($pipes[1]);
fclose($pipes[1]);
echo "holder exit ", proc_close($holder), "\n";
echo "next: ", seg_php($seg, 'var_dump(apcu_fetch("new"), apcu_fetch("held"));', $ini), "\n";
?>
--EXPECTF--
version: Warning: PHP Startup: shardcache: SEG was replaced by a new segment: it was made by shardcache 0.0.0-other (this is %s) in Unknown on line 0
bool(false)
  new file: true, mode 0600, size 4194304, temporaries 0
  next: int(1)
layout id: Warning: PHP Startup: shardcache: SEG was replaced by a new segment: it has another layout (format 3, layout X; this build: format 3, layout X) in Unknown on line 0
bool(false)
  new file: true, mode 0600, size 4194304, temporaries 0
  next: int(1)
format: Warning: PHP Startup: shardcache: SEG was replaced by a new segment: it has another layout (format 99, layout X; this build: format 3, layout X) in Unknown on line 0
bool(false)
  new file: true, mode 0600, size 4194304, temporaries 0
  next: int(1)
byte order: Warning: PHP Startup: shardcache: SEG was replaced by a new segment: it is not a shardcache segment, or was made on a machine of another byte order in Unknown on line 0
bool(false)
  new file: true, mode 0600, size 4194304, temporaries 0
  next: int(1)
too short: Warning: PHP Startup: shardcache: SEG was replaced by a new segment: it is too short (100 bytes) in Unknown on line 0
bool(false)
  new file: true, mode 0600, size 4194304, temporaries 0
  next: int(1)
size: Warning: PHP Startup: shardcache: SEG was replaced by a new segment: its geometry is inconsistent (size 4194304, file 2097152 bytes) in Unknown on line 0
bool(false)
  new file: true, mode 0600, size 4194304, temporaries 0
  next: int(1)
bool(true)
ready
replacer: Warning: PHP Startup: shardcache: SEG was replaced by a new segment: it was made by shardcache 0.0.0-other (this is %s) in Unknown on line 0
bool(false)
holder: string(9) "by holder"
bool(true)
int(2)
string(5) "entry"
holder exit 0
next: int(3)
bool(false)
