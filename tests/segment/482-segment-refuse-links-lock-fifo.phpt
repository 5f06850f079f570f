--TEST--
shardcache.segment refusals: a hard-linked segment, a FIFO at the lock file
--DESCRIPTION--
A segment with a second hard link, and a FIFO at the replacement lock file
(".NAME.lock") when the segment must be replaced, are refused without
blocking. The private segment used instead is reported (warning, phpinfo's
Segment row, shardcache_info()['segment_refused']), sized by apc.shm_size
and preloaded.
--SKIPIF--
<?php if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: many child PHP processes, each traced (288 runs a named segment under valgrind)'); ?>
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open') || !function_exists('link') || !function_exists('exec')) die('skip needs proc_open, link and exec'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
const INFO = 'echo "segment_refused: ", shardcache_info()["segment_refused"], "\n";' . SEG_INFO;
// Under a time limit: a blocked open shows as exit status 124.
function seg_php_limited(string $path, string $code, array $ini = []): string
{
    $p = proc_open(array_merge(['timeout', '20'], seg_cmd(['shardcache.segment' => $path] + $ini, $code)),
                   [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]);
    fclose($pipes[1]);
    $st = proc_close($p);
    $out = trim(str_replace([$path, dirname($path)], ['SEG', 'D'], $out));
    return $st === 0 ? $out : "$out\n[exit $st]";
}
echo seg_php("$d/seg", 'var_dump(apcu_store("k", "kept"));' . INFO), "\n";
link("$d/seg", "$d/second-name");
echo seg_php("$d/seg", 'var_dump(apcu_fetch("k"), apcu_store("k", "private"), apcu_fetch("k"));' . INFO), "\n";
unlink("$d/second-name");
echo seg_php("$d/seg", 'var_dump(apcu_fetch("k"));'), "\n";

// The segment is damaged (too short: it would be replaced) and another
// user's FIFO waits at the lock file that serialises replacing.
exec('mkfifo -m 0666 ' . escapeshellarg("$d/.seg.lock"), $o, $rc);
var_dump($rc);
$f = fopen("$d/seg", 'r+');
ftruncate($f, 100);
fclose($f);
echo seg_php_limited("$d/seg", 'var_dump(apcu_store("k", 1), apcu_fetch("k"));' . INFO), "\n";
clearstatcache();
printf("segment still %d bytes, lock still a FIFO: %s\n", filesize("$d/seg"), var_export(filetype("$d/.seg.lock") === 'fifo', true));

// The private segment: apc.shm_size, and apc.preload_path loaded into it.
mkdir($pre = "$d/preload");
file_put_contents("$pre/arr.data", serialize([1, 'k' => ['v']]));
echo seg_php_limited("$d/seg", 'var_dump(apcu_sma_info(true)["seg_size"] > 7 << 20, apcu_sma_info(true)["seg_size"] <= 8 << 20, apcu_fetch("arr"));',
                     ['apc.shm_size' => '8M', 'apc.preload_path' => $pre]), "\n";
unlink("$d/.seg.lock");
echo seg_php("$d/seg", 'var_dump(apcu_store("k", 2));' . INFO), "\n";
echo count(glob("$d/*.new")), " temporary files left\n";
?>
--EXPECT--
bool(true)
segment_refused:
segment: SEG (file, 1 boots)
Warning: PHP Startup: shardcache: SEG has 2 hard links (a segment has one); this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(false)
bool(true)
string(7) "private"
segment_refused: SEG has 2 hard links (a segment has one)
segment: anonymous, private to this process: shardcache.segment refused: SEG has 2 hard links (a segment has one)
string(4) "kept"
int(0)
Warning: PHP Startup: shardcache: D/.seg.lock is not a regular file; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
int(1)
segment_refused: D/.seg.lock is not a regular file
segment: anonymous, private to this process: shardcache.segment refused: D/.seg.lock is not a regular file
segment still 100 bytes, lock still a FIFO: true
Warning: PHP Startup: shardcache: D/.seg.lock is not a regular file; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
bool(true)
array(2) {
  [0]=>
  int(1)
  ["k"]=>
  array(1) {
    [0]=>
    string(1) "v"
  }
}
Warning: PHP Startup: shardcache: SEG was replaced by a new segment: it is too short (100 bytes) in Unknown on line 0
bool(true)
segment_refused:
segment: SEG (file, 1 boots)
0 temporary files left
