--TEST--
shardcache.segment, restart: a stale apcu_entry reservation is cleared
--DESCRIPTION--
An apcu_entry reservation left by a process that stopped using the segment
while its pid lives on (it exec'd another program, as when a pid is reused
after a restart) is cleared by the next first user of the segment, whose
apcu_entry then computes at once instead of waiting forever. The boot count
goes up only when no other process maps the segment.
--SKIPIF--
<?php if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: many child PHP processes, each traced (288 runs a named segment under valgrind)'); ?>
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
<?php if (!is_executable('/bin/sh')) die('skip needs /bin/sh'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
$seg = "$d/seg";
$ini = ['apc.shm_size' => '2M', 'shardcache.shards' => '1'];
$boots = 'ob_start(); (new ReflectionExtension("shardcache"))->info(); preg_match("/\((file, (\d+) boots)\)/", ob_get_clean(), $m); echo "boots ", $m[2], "\n";';
echo seg_php($seg, 'apcu_store("x", 1);' . $boots, $ini), "\n";

// A: reserves "k" in apcu_entry, and from its callback becomes /bin/sh
// (same pid; the segment's file is closed on exec) which says so and sleeps.
$a = proc_open(seg_cmd(['shardcache.segment' => $seg] + $ini,
    'apcu_entry("k", function () { pcntl_exec("/bin/sh", ["-c", "echo execd; exec sleep 60"]); });'),
    [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $ap);
echo "A: ", fgets($ap[1]);

// B: the first user now. Its apcu_entry must compute "k" itself, at once.
$b = proc_open(seg_cmd(['shardcache.segment' => $seg] + $ini,
    'var_dump(apcu_entry("k", fn() => "computed by B"));' . $boots),
    [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $bp);
stream_set_blocking($bp[1], false);
$out = '';
$end = microtime(true) + 20;
while (!feof($bp[1]) && microtime(true) < $end) {
    $r = [$bp[1]]; $w = $e = null;
    if (stream_select($r, $w, $e, 0, 100000)) $out .= fread($bp[1], 8192);
}
if (!feof($bp[1])) { echo "B waited 20 s for a reservation nobody holds\n"; proc_terminate($b, 9); }
echo "B: ", $out;
fclose($bp[1]); proc_close($b);

// While C holds the segment, D is not a first user: no boot, no clearing.
$c = proc_open(seg_cmd(['shardcache.segment' => $seg] + $ini, $boots . ' fgets(STDIN);'),
               [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $cp);
echo "C: ", fgets($cp[1]);
echo "D: ", seg_php($seg, $boots, $ini), "\n";
fclose($cp[0]); fclose($cp[1]); proc_close($c);
proc_terminate($a, 9);
fclose($ap[0]); fclose($ap[1]); proc_close($a);
?>
--EXPECT--
boots 1
A: execd
B: string(13) "computed by B"
boots 3
C: boots 4
D: boots 4
