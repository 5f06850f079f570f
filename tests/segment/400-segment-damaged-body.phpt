--TEST--
shardcache.segment, restart: a damaged body is started afresh, never used
--DESCRIPTION--
A damaged body found by the first user after a restart: a file whose header
survived but whose body is zeros, one whose shard constant (a head's offset)
or shard table (its place, size or count) was changed, and one with bytes
changed after its last user closed it are started afresh (a warning), never
used as they are. Every later process works on them; none crashes or hangs.
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
$seg = "$d/seg";
$ini = ['apc.shm_size' => '4M', 'shardcache.shards' => '4'];
function patch(string $f, int $at, string $bytes) { $h = fopen($f, 'r+'); fseek($h, $at); fwrite($h, $bytes); fclose($h); }
function u64(string $f, int $at): int { return unpack('P', file_get_contents($f, false, null, $at, 8))[1]; }
// Each check runs under timeout: a crash shows as an exit status, a hang as 124.
function run(string $seg, string $code, array $ini): string {
    $cmd = array_merge(['timeout', '20'], seg_cmd(['shardcache.segment' => $seg] + $ini, $code));
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
    $out = stream_get_contents($pipes[1]); fclose($pipes[1]);
    $st = proc_close($p);
    $out = preg_replace('/^\s*$\n?/m', '', str_replace($seg, 'SEG', $out));
    return trim($out) . ($st ? " [exit $st]" : '');
}
$use = '$ok = apcu_store("n", 1) && apcu_fetch("n") === 1; for ($i = 0; $i < 200; $i++) $ok = $ok && apcu_store("k$i", str_repeat("v", $i)); '
     . 'for ($i = 0; $i < 200; $i++) $ok = $ok && apcu_fetch("k$i") === str_repeat("v", $i); '
     . '$c = 0; foreach (new APCUIterator("/^k/") as $v) $c++; $info = apcu_cache_info(); '
     . 'echo $ok ? "ok" : "WRONG", " iterated $c, entries ", $info["num_entries"], ", old ", var_export(apcu_fetch("old"), true), "\n";';
$cases = [
    // Power loss: the header (first 256 bytes) was written back, nothing else.
    'zero body' => fn($f) => patch($f, 256, str_repeat("\0", filesize($f) - 256)),
    // Shard 0's head_rel (at 2912 in sc_shard; shards_off at 104 in the header).
    'head offset' => fn($f) => patch($f, u64($f, 104) + 2912, pack('P', 1 << 40)),
    // A few bytes of the page descriptors changed while nobody had it open.
    'changed bytes' => fn($f) => patch($f, u64($f, 112) + 8, "\xff\xff\xff\xff\x01\x02\x03\x04"),
];
foreach ($cases as $name => $spoil) {
    @unlink($seg);
    echo "$name: made: ", run($seg, 'apcu_store("old", "entry"); for ($i = 0; $i < 300; $i++) apcu_store("f$i", $i); echo "stored\n";', $ini), "\n";
    $spoil($seg);
    echo "  first: ", preg_replace('/started afresh: .*/', 'started afresh: WHY', run($seg, $use, $ini)), "\n";
    echo "  next: ", run($seg, $use, $ini), "\n";
}
// The same after an unclean stop (the last user killed): the shard
// constant and the shard tables (in the heads: heads_off at 96; a head's
// table off at 8, capacity at 16, used at 20) are checked, not trusted.
$killed = [
    'shard constant' => fn($f) => patch($f, u64($f, 104) + 2912, pack('P', 1 << 40)),
    'table offset' => fn($f) => patch($f, u64($f, 96) + 8, pack('P', 1 << 40)),
    'table capacity' => fn($f) => patch($f, u64($f, 96) + 64 + 16, pack('V', 3)),
    'table count' => fn($f) => patch($f, u64($f, 96) + 2 * 64 + 20, pack('V', 0xffffff00)),
];
foreach ($killed as $name => $spoil) {
    @unlink($seg);
    $p = proc_open(seg_cmd(['shardcache.segment' => $seg] + $ini, 'for ($i = 0; $i < 300; $i++) apcu_store("f$i", $i); echo "ready\n"; fgets(STDIN);'),
                   [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
    echo "killed, $name: ", fgets($pipes[1]);
    proc_terminate($p, 9); fclose($pipes[0]); fclose($pipes[1]); proc_close($p);
    $spoil($seg);
    echo "  first: ", run($seg, $use, $ini), "\n";
    echo "  next: ", run($seg, $use, $ini), "\n";
}
?>
--EXPECT--
zero body: made: stored
  first: Warning: PHP Startup: shardcache: SEG was started afresh: WHY
ok iterated 200, entries 201, old false
  next: ok iterated 200, entries 201, old false
head offset: made: stored
  first: Warning: PHP Startup: shardcache: SEG was started afresh: WHY
ok iterated 200, entries 201, old false
  next: ok iterated 200, entries 201, old false
changed bytes: made: stored
  first: Warning: PHP Startup: shardcache: SEG was started afresh: WHY
ok iterated 200, entries 201, old false
  next: ok iterated 200, entries 201, old false
killed, shard constant: ready
  first: Warning: PHP Startup: shardcache: SEG was started afresh: the constants of its shard 0 are damaged in Unknown on line 0
ok iterated 200, entries 201, old false
  next: ok iterated 200, entries 201, old false
killed, table offset: ready
  first: Warning: PHP Startup: shardcache: SEG was started afresh: the table of its shard 0 is damaged in Unknown on line 0
ok iterated 200, entries 201, old false
  next: ok iterated 200, entries 201, old false
killed, table capacity: ready
  first: Warning: PHP Startup: shardcache: SEG was started afresh: the table of its shard 1 is damaged in Unknown on line 0
ok iterated 200, entries 201, old false
  next: ok iterated 200, entries 201, old false
killed, table count: ready
  first: Warning: PHP Startup: shardcache: SEG was started afresh: the table of its shard 2 is damaged in Unknown on line 0
ok iterated 200, entries 201, old false
  next: ok iterated 200, entries 201, old false
