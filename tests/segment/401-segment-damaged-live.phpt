--TEST--
shardcache.segment, damaged while mapped: a later process replaces the file
--DESCRIPTION--
A damaged segment that another process maps: a later process checks the
shard constants and the locks before it uses the segment. A changed head
offset or a lock that is no longer a robust mutex makes it replace the file
(a warning), never crash or hang. The next processes map the replacement.
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
function run(string $seg, string $code, array $ini): string {
    $cmd = array_merge(['timeout', '20'], seg_cmd(['shardcache.segment' => $seg] + $ini, $code));
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
    $out = stream_get_contents($pipes[1]); fclose($pipes[1]);
    $st = proc_close($p);
    $out = preg_replace('/^\s*$\n?/m', '', str_replace($seg, 'SEG', $out));
    return trim($out) . ($st ? " [exit $st]" : '');
}
$use = '$ok = true; for ($i = 0; $i < 100; $i++) $ok = $ok && apcu_store("k$i", $i) && apcu_fetch("k$i") === $i; '
     . '$info = apcu_cache_info(); echo $ok ? "ok" : "WRONG", ", entries ", $info["num_entries"], ", held ", var_export(apcu_fetch("held"), true), "\n";';
$cases = [
    // shard 2's head_rel (sc_shard is 64-byte aligned; its size from the header's offsets)
    'head offset' => fn($f, $sz) => patch($f, u64($f, 104) + 2 * $sz + 2912, pack('P', 7 << 30)),
    // shard 3's lock: its kind (offset 16 in glibc's pthread_mutex_t) made a plain mutex
    'lock kind' => fn($f, $sz) => patch($f, u64($f, 104) + 3 * $sz + 16, "\0\0\0\0"),
];
foreach ($cases as $name => $spoil) {
    @unlink($seg);
    $holder = proc_open(seg_cmd(['shardcache.segment' => $seg] + $ini, 'apcu_store("held", "by holder"); echo "ready\n"; fgets(STDIN); echo "holder done\n";'),
                        [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
    echo "$name: ", fgets($pipes[1]);
    $nshards = unpack('V', file_get_contents($seg, false, null, 80, 4))[1];
    $sz = intdiv(u64($seg, 112) - u64($seg, 104), $nshards);
    $spoil($seg, $sz);
    echo "  later: ", run($seg, $use, $ini), "\n";
    echo "  next: ", run($seg, $use, $ini), "\n";
    fwrite($pipes[0], "go\n"); fclose($pipes[0]);
    echo "  ", trim(stream_get_contents($pipes[1])), "; exit ", proc_close($holder), "\n";
}
?>
--EXPECT--
head offset: ready
  later: Warning: PHP Startup: shardcache: SEG was replaced by a new segment: the constants of its shard 2 are damaged in Unknown on line 0
ok, entries 100, held false
  next: ok, entries 100, held false
  holder done; exit 0
lock kind: ready
  later: Warning: PHP Startup: shardcache: SEG was replaced by a new segment: the lock of its shard 3 is damaged in Unknown on line 0
ok, entries 100, held false
  next: ok, entries 100, held false
  holder done; exit 0
