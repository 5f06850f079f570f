--TEST--
apcu_sma_info: full and limited forms; available memory follows the cache
--DESCRIPTION--
Keys and types of the full and limited forms; free blocks; available memory
follows stores and deletes.
--SKIPIF--
<?php if (!function_exists('apcu_sma_info')) die('skip apcu_sma_info not available'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
--FILE--
<?php
$sma = apcu_sma_info();
foreach ($sma as $k => $v) {
    echo "$k: ", gettype($v), "\n";
}
var_dump($sma['num_seg'], count($sma['block_lists']), array_keys($sma['block_lists']));
var_dump($sma['seg_size'] > 15 * 1024 * 1024, $sma['seg_size'] <= 16 * 1024 * 1024, $sma['avail_mem'] <= $sma['seg_size']);
$blocks = $sma['block_lists'][0];
var_dump(count($blocks) >= 1, array_is_list($blocks));
foreach ($blocks[0] as $k => $v) {
    echo "block $k: ", gettype($v), "\n";
}
function check_blocks(array $sma) {
    // blocks lie inside the segment and do not overlap
    $end = 0;
    $sum = 0;
    $blocks = $sma['block_lists'][0];
    usort($blocks, fn($a, $b) => $a['offset'] <=> $b['offset']);
    foreach ($blocks as $b) {
        if ($b['offset'] < $end || $b['size'] <= 0 || $b['offset'] + $b['size'] > 16 * 1024 * 1024) {
            return 'bad block ' . json_encode($b);
        }
        $end = $b['offset'] + $b['size'];
        $sum += $b['size'];
    }
    return $sum <= $sma['avail_mem'] + 1024 && $sum >= $sma['avail_mem'] - 1024 ? 'ok' : "sum $sum, avail {$sma['avail_mem']}";
}
echo check_blocks($sma), "\n";
$limited = apcu_sma_info(true);
var_dump(array_keys($limited), $limited['avail_mem'] === $sma['avail_mem'], $limited['seg_size'] === $sma['seg_size']);

echo "-- a 1 MB value takes at least 1 MB, deleting it gives it back\n";
$before = apcu_sma_info(true)['avail_mem'];
var_dump(apcu_store('big', str_repeat('x', 1 << 20)));
$with = apcu_sma_info();
var_dump($before - $with['avail_mem'] >= (1 << 20), $before - $with['avail_mem'] < (1 << 20) + 65536);
echo check_blocks($with), "\n";
var_dump(apcu_delete('big'));
$after = apcu_sma_info();
var_dump($after['avail_mem'] >= $with['avail_mem'] + (1 << 20));
echo check_blocks($after), "\n";

echo "-- many small values, then some deleted: several free blocks are possible, all consistent\n";
for ($i = 0; $i < 3000; $i++) {
    apcu_store("s$i", str_repeat('y', 3000 + $i));
}
for ($i = 0; $i < 3000; $i += 2) {
    apcu_delete("s$i");
}
echo check_blocks(apcu_sma_info()), "\n";
apcu_clear_cache();
$cleared = apcu_sma_info();
echo check_blocks($cleared), "\n";
var_dump($cleared['avail_mem'] >= $sma['avail_mem']);
try {
    apcu_sma_info([]);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
num_seg: integer
seg_size: double
avail_mem: double
block_lists: array
int(1)
int(1)
array(1) {
  [0]=>
  int(0)
}
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
block size: integer
block offset: integer
ok
array(3) {
  [0]=>
  string(7) "num_seg"
  [1]=>
  string(8) "seg_size"
  [2]=>
  string(9) "avail_mem"
}
bool(true)
bool(true)
-- a 1 MB value takes at least 1 MB, deleting it gives it back
bool(true)
bool(true)
bool(true)
ok
bool(true)
bool(true)
ok
-- many small values, then some deleted: several free blocks are possible, all consistent
ok
ok
bool(true)
apcu_sma_info(): Argument #1 ($limited) must be of type bool, array given
