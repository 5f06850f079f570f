--TEST--
shardcache.segment, cold start: a value damaged while closed is never returned
--DESCRIPTION--
One byte of a stored value is changed after the segment's last user closed
it. The metadata still matches, so the next first user keeps the segment;
the damaged shard's pages are checked at its first lock, which empties that
shard (repairs 1): its keys read as false, every other key exactly as
stored, never a wrong value. A shard nobody locked keeps its check pending
across users that close the file (its checksum is not remade over the
damage) and across a user that is killed.
--SKIPIF--
<?php if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: child PHP processes (612 runs the cold start under valgrind)'); ?>
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
$seg = "$d/seg";
$ini = ['apc.shm_size' => '16M', 'shardcache.shards' => '8'];
$val = 'function val($i) { return "value-$i-" . str_repeat(chr(97 + $i % 26), 60 + $i); } ';
$make = $val . 'for ($i = 0; $i < 300; $i++) apcu_store("k$i", val($i)); echo "stored\n";';
$check = $val . '$wrong = $missing = 0; for ($i = 0; $i < 300; $i++) { $v = apcu_fetch("k$i");'
       . ' if ($v === false) $missing++; elseif ($v !== val($i)) $wrong++; }'
       . ' echo "wrong $wrong, some missing: ", var_export($missing > 0 && $missing < 300, true),'
       . ' ", k77: ", var_export(apcu_fetch("k77"), true), ", repairs ", shardcache_info()["repairs"], "\n";';
function spoil(string $seg): void {
    $at = strpos(file_get_contents($seg), 'value-77-');
    $h = fopen($seg, 'r+'); fseek($h, $at + 12); fwrite($h, 'Z'); fclose($h);
}

// Closed, damaged, then users that lock nothing: the check stays pending.
echo seg_php($seg, $make, $ini), "\n";
spoil($seg);
echo seg_php($seg, 'echo "idle\n";', $ini), "\n";
echo seg_php($seg, 'apcu_enabled(); echo "idle\n";', $ini), "\n";
echo seg_php($seg, $check, $ini), "\n";
echo seg_php($seg, $check . 'apcu_store("k77", val(77)); var_dump(apcu_fetch("k77") === val(77));', $ini), "\n";

// The same with a user killed before the damaged shard was locked.
@unlink($seg);
echo seg_php($seg, $make, $ini), "\n";
spoil($seg);
$p = proc_open(seg_cmd(['shardcache.segment' => $seg] + $ini, 'echo "ready\n"; fgets(STDIN);'),
               [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
echo "killed user: ", fgets($pipes[1]);
proc_terminate($p, 9); fclose($pipes[0]); fclose($pipes[1]); proc_close($p);
echo seg_php($seg, $check, $ini), "\n";
?>
--EXPECT--
stored
idle
idle
wrong 0, some missing: true, k77: false, repairs 1
wrong 0, some missing: true, k77: false, repairs 1
bool(true)
stored
killed user: ready
wrong 0, some missing: true, k77: false, repairs 1
