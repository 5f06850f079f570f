--TEST--
shardcache.segment, cold start: the first user maps a few pages, not the file
--DESCRIPTION--
A 128M named segment with 3000 entries is closed by its last user. The next
process to map it (the only user: a restart) fetches one key; the pages of
the segment resident in that process (its mapping's Rss in /proc/self/smaps)
stay under 16M: the metadata is checked at attach (about 36 bytes per page)
and only the pages of the shard the key lives in at its first lock, never
the whole file. A later cold user that reads every key gets every value
exactly, each shard checked once, none emptied (repairs 0).
--SKIPIF--
<?php if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: child PHP processes (612 runs the cold start under valgrind)'); ?>
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
<?php if (!is_readable('/proc/self/smaps')) die('skip needs /proc/self/smaps'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
$seg = "$d/seg";
$ini = ['apc.shm_size' => '128M'];
$val = 'function val($i) { return $i % 5 ? str_repeat(chr(97 + $i % 26), 100 + $i % 4000) : ["i" => $i, "s" => "v$i"]; } ';
// The resident kB of this process's mapping of the segment file.
$rss = 'function seg_rss() { $in = false; foreach (file("/proc/self/smaps") as $l) {'
     . ' if (preg_match("/^[0-9a-f]+-[0-9a-f]+ /", $l)) { $in = str_ends_with(rtrim($l), ini_get("shardcache.segment")); continue; }'
     . ' if ($in && preg_match("/^Rss:\s+(\d+) kB/", $l, $m)) return (int) $m[1]; } return -1; } ';
echo seg_php($seg, $val . 'for ($i = 0; $i < 3000; $i++) apcu_store("k$i", val($i)); echo "stored ", apcu_cache_info()["num_entries"], "\n";', $ini), "\n";
echo seg_php($seg, $val . $rss . 'var_dump(apcu_fetch("k7") === val(7)); $kb = seg_rss();'
    . ' echo $kb > 0 && $kb < 16384 ? "resident: under 16M" : "resident: $kb kB", "\n";', $ini), "\n";
echo seg_php($seg, $val . '$bad = 0; for ($i = 0; $i < 3000; $i++) $bad += apcu_fetch("k$i") !== val($i);'
    . ' echo "wrong or missing: $bad, repairs ", shardcache_info()["repairs"], "\n";', $ini), "\n";
?>
--EXPECT--
stored 3000
bool(true)
resident: under 16M
wrong or missing: 0, repairs 0
