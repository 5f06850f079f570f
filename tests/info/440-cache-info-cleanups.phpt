--TEST--
apcu_cache_info() cleanups and defragmentations as in APCu 5.1.28
--DESCRIPTION--
cleanups and defragmentations (ints) sit between num_entries and expunges,
in the full and limited forms. A store that finds no room sweeps expired
entries and counts a cleanup; nothing is ever defragmented;
apcu_clear_cache() sets cleanups back to 0.
--SKIPIF--
<?php if (!function_exists('apcu_cache_info')) die('skip apcu_cache_info not available'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=1M
shardcache.shards=1
--FILE--
<?php
$keys = array_keys(apcu_cache_info(true));
echo implode(' ', $keys), "\n";
var_dump(array_slice(array_keys(apcu_cache_info()), 0, count($keys)) === $keys);
$i = apcu_cache_info(true);
var_dump($i['cleanups'], $i['defragmentations'], $i['expunges']);

// Store entries that are expired from the start (a negative ttl: stored,
// kept, never fetched) until the segment is full: the first store that
// finds no room sweeps them (a cleanup) and succeeds, without an eviction.
$big = str_repeat('x', 2000);
$n = 0;
$results = [];
do {
    $entries = apcu_cache_info(true)['num_entries'];
    $results[] = apcu_store("dead$n", $big, -1);
    $n++;
    $i = apcu_cache_info(true);
} while ($i['cleanups'] === 0 && $n < 5000);
echo "cleanup after ", $n > 100 ? 'many' : $n, " stores; all stored: ", json_encode(!in_array(false, $results, true)), "\n";
echo "entries before the last store: ", $entries > 100 ? 'many' : $entries, ", after it: ", $i['num_entries'], "\n";
var_dump($i['cleanups'], $i['defragmentations'], $i['expunges']);
var_dump(apcu_store('live', $big), apcu_fetch('live') === $big);
var_dump(apcu_clear_cache());
$i = apcu_cache_info(true);
var_dump($i['cleanups'], $i['defragmentations']);
?>
--EXPECT--
num_slots ttl num_hits num_misses num_inserts num_entries cleanups defragmentations expunges start_time mem_size memory_type
bool(true)
int(0)
int(0)
int(0)
cleanup after many stores; all stored: true
entries before the last store: many, after it: 1
int(1)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
int(0)
int(0)
