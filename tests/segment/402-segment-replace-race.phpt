--TEST--
shardcache.segment: 10 processes replacing a segment at once end up on one
--DESCRIPTION--
The untrusted segment is still mapped by an old process. 10 processes
started at once all replace it through one lock, so exactly one replacement
wins and all 10 end up on one segment (each increments a counter; once all
10 have, each reads 10). 3 rounds.
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
for ($round = 1; $round <= 3; $round++) {
    $seg = "$d/seg$round";
    // The old process: maps the segment and keeps it; then the file is
    // made untrusted (another version) under it.
    $old = proc_open(seg_cmd(['shardcache.segment' => $seg] + $ini, 'apcu_store("x", 1); echo "ready\n"; fgets(STDIN);'),
                     [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $op);
    fgets($op[1]);
    patch($seg, 24, "0.0.0-other\0");
    // Each counts itself in the segment it mapped; once all have, each
    // reads the count: 10 for all on one segment, less on split ones.
    $seen = [];
    $replaced = 0;
    foreach (seg_count_together($n, ['shardcache.segment' => $seg] + $ini, ['file', '/dev/null', 'w']) as $out) {
        $replaced += substr_count($out, 'was replaced by a new segment');
        $seen[] = trim(preg_replace('/^.*Warning.*$/m', '', $out));
    }
    fwrite($op[0], "go\n"); fclose($op[0]); fclose($op[1]); proc_close($old);
    echo "round $round: ", implode(' ', $seen), "; replacements: $replaced; files: ", count(glob("$seg*")), "\n";
}
?>
--EXPECT--
round 1: 10 10 10 10 10 10 10 10 10 10; replacements: 1; files: 1
round 2: 10 10 10 10 10 10 10 10 10 10; replacements: 1; files: 1
round 3: 10 10 10 10 10 10 10 10 10 10; replacements: 1; files: 1
