--TEST--
shardcache.segment, replacing an untrusted segment that an old process still maps: 10 processes started at once all replace it through one lock, so exactly one replacement wins and all 10 end up on one segment (each increments a counter and waits until it reads 10); 3 rounds
--SKIPIF--
<?php if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: many child PHP processes'); ?>
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
$n = 10;
$ini = ['apc.shm_size' => '2M'];
function patch(string $f, int $at, string $bytes) { $h = fopen($f, 'r+'); fseek($h, $at); fwrite($h, $bytes); fclose($h); }
// The barrier: each process counts itself in the segment it mapped and
// waits (20 s at most) until it sees all n; on split segments none does.
$code = 'apcu_inc("ready"); $end = microtime(true) + 20;
    while (($seen = apcu_fetch("ready")) < ' . $n . ' && microtime(true) < $end) usleep(1000);
    echo $seen, "\n";';
for ($round = 1; $round <= 3; $round++) {
    $seg = "$d/seg$round";
    // The old process: maps the segment and keeps it; then the file is
    // made untrusted (another version) under it.
    $old = proc_open(seg_cmd(['shardcache.segment' => $seg] + $ini, 'apcu_store("x", 1); echo "ready\n"; fgets(STDIN);'),
                     [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $op);
    fgets($op[1]);
    patch($seg, 24, "0.0.0-other\0");
    $procs = $outs = [];
    for ($i = 0; $i < $n; $i++) {
        $procs[] = proc_open(seg_cmd(['shardcache.segment' => $seg] + $ini, $code),
                             [1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $outs[$i] = $pipes[1];
    }
    $seen = [];
    $replaced = 0;
    foreach ($procs as $i => $p) {
        $out = stream_get_contents($outs[$i]);
        $replaced += substr_count($out, 'was replaced by a new segment');
        $seen[] = trim(preg_replace('/^.*Warning.*$/m', '', $out));
        fclose($outs[$i]);
        proc_close($p);
    }
    fwrite($op[0], "go\n"); fclose($op[0]); fclose($op[1]); proc_close($old);
    echo "round $round: ", implode(' ', $seen), "; replacements: $replaced; files: ", count(glob("$seg*")), "\n";
}
?>
--EXPECT--
round 1: 10 10 10 10 10 10 10 10 10 10; replacements: 1; files: 1
round 2: 10 10 10 10 10 10 10 10 10 10; replacements: 1; files: 1
round 3: 10 10 10 10 10 10 10 10 10 10; replacements: 1; files: 1
