--TEST--
shardcache.segment, cold start: processes starting together read exact values
--DESCRIPTION--
A closed segment with 2000 entries is mapped by 6 processes at once (one of
them the first user, the others joining it); once all have mapped it, each
reads every key, stores keys of its own and increments a shared counter,
while the shards are checked by whichever of them locks each first. Every
value read is exact, none is missing, no shard is emptied (repairs 0), the
counter counts every increment, and a last process reads the same.
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
$ini = ['shardcache.segment' => $seg, 'apc.shm_size' => '32M', 'shardcache.shards' => '16'];
$val = 'function val($i) { return $i % 4 ? str_repeat(chr(97 + $i % 26), 20 + $i % 700) . $i : ["i" => $i]; } ';
$read = '$bad = 0; for ($i = 0; $i < 2000; $i++) $bad += apcu_fetch("k$i") !== val($i); ';
echo seg_php($seg, $val . 'for ($i = 0; $i < 2000; $i++) apcu_store("k$i", val($i)); apcu_store("ctr", 0); echo "stored\n";',
             $ini), "\n";
$code = $val . 'echo "mapped\n"; fgets(STDIN); ' . $read
      . '$me = getmypid(); for ($i = 0; $i < 200; $i++) { apcu_store("p$me-$i", "$me:$i"); apcu_inc("ctr"); }'
      . 'for ($i = 0; $i < 200; $i++) $bad += apcu_fetch("p$me-$i") !== "$me:$i"; ' . $read
      . 'echo "bad $bad\n";';
$procs = $ins = $outs = [];
for ($n = 0; $n < 6; $n++) {
    $procs[$n] = proc_open(seg_cmd($ini, $code), [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
    [$ins[$n], $outs[$n]] = [$pipes[0], $pipes[1]];
}
foreach ($outs as $n => $out) {
    $line = fgets($out);
    if ($line !== "mapped\n") echo "process $n: $line";
}
foreach ($ins as $in) {
    fwrite($in, "go\n");
    fclose($in);
}
$got = [];
foreach ($procs as $n => $p) {
    $got[] = trim(stream_get_contents($outs[$n]));
    fclose($outs[$n]);
    proc_close($p);
}
echo implode(', ', array_count_values($got) === ['bad 0' => 6] ? ['all 6: bad 0'] : $got), "\n";
echo seg_php($seg, $val . $read . 'echo "last: bad $bad, ctr ", apcu_fetch("ctr"), ", repairs ", shardcache_info()["repairs"], "\n";',
             $ini), "\n";
?>
--EXPECT--
stored
all 6: bad 0
last: bad 0, ctr 1200, repairs 0
