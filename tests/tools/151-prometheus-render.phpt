--TEST--
tools/metrics.php: shardcache_prometheus($info) renders any shardcache_info()
--DESCRIPTION--
Any shardcache_info() shape: missing and unknown keys, odd values, label
escaping.
--SKIPIF--
<?php
if (!is_file(__DIR__ . '/../../tools/metrics.php')) die('skip tools/metrics.php not shipped here');
?>
--FILE--
<?php
require __DIR__ . '/../../tools/metrics.php';
echo shardcache_prometheus([
    'entries' => 3,                  // known
    'mem_used' => 1.5,               // float
    'hits' => '64',                  // numeric string
    'nomem' => 'n/a',                // not a number: left out
    'evicted' => true,               // bool
    'resets' => NAN,
    'largest_free_run' => INF,
    'future thing' => -2,            // unknown key: untyped, name sanitised
    'notes' => ['a' => 1],           // unknown nested array: left out
    'local' => ['misses' => 9, 'new_local' => 1],
    'per_shard' => [
        ['entries' => 2, 'lock_waits' => 5, 'zz' => 7],
        ['entries' => 1],
        'junk',
    ],
    'classes' => [
        ['size' => 64, 'bytes_used' => 128],
        ['size' => "a\"b\\c\nd", 'bytes_used' => 1],
        ['size' => 64, 'bytes_used' => 999],   // same label twice: the first wins
        ['bytes_used' => 5],                    // no size: labelled by position
    ],
]);
echo "--\n";
echo shardcache_prometheus([]) === '' ? "empty info: empty output\n" : "empty info: output\n";
?>
--EXPECT--
# HELP shardcache_entries Entries in the cache (expired entries not yet removed included).
# TYPE shardcache_entries gauge
shardcache_entries 3
# HELP shardcache_memory_used_bytes Bytes handed out to entries and hash tables.
# TYPE shardcache_memory_used_bytes gauge
shardcache_memory_used_bytes 1.5
# HELP shardcache_memory_largest_free_run_bytes Largest run of contiguous free pages in bytes.
# TYPE shardcache_memory_largest_free_run_bytes gauge
shardcache_memory_largest_free_run_bytes +Inf
# HELP shardcache_evictions_total Entries evicted to make room.
# TYPE shardcache_evictions_total counter
shardcache_evictions_total 1
# HELP shardcache_hits_total Fetch hits recorded in the shards (sampled: grows in steps of the sample rate).
# TYPE shardcache_hits_total counter
shardcache_hits_total 64
# HELP shardcache_resets_total Full resets of the cache (a process died leaving the page pool inconsistent).
# TYPE shardcache_resets_total counter
shardcache_resets_total NaN
# HELP shardcache_future_thing shardcache_info() figure ["future thing"].
# TYPE shardcache_future_thing untyped
shardcache_future_thing -2
# HELP shardcache_process_misses Fetch misses of the PHP process that answered this scrape.
# TYPE shardcache_process_misses gauge
shardcache_process_misses 9
# HELP shardcache_process_new_local shardcache_info() figure ['local']["new_local"].
# TYPE shardcache_process_new_local untyped
shardcache_process_new_local 1
# HELP shardcache_shard_entries Entries in the shard.
# TYPE shardcache_shard_entries gauge
shardcache_shard_entries{shard="0"} 2
shardcache_shard_entries{shard="1"} 1
# HELP shardcache_shard_lock_waits_total Times a process had to wait for the shard lock.
# TYPE shardcache_shard_lock_waits_total counter
shardcache_shard_lock_waits_total{shard="0"} 5
# HELP shardcache_shard_zz shardcache_info() figure ['per_shard'][n]["zz"].
# TYPE shardcache_shard_zz untyped
shardcache_shard_zz{shard="0"} 7
# HELP shardcache_class_bytes_used Bytes in use in slabs of this size class.
# TYPE shardcache_class_bytes_used gauge
shardcache_class_bytes_used{size="64"} 128
shardcache_class_bytes_used{size="a\"b\\c\nd"} 1
shardcache_class_bytes_used{size="class3"} 5
--
empty info: empty output
