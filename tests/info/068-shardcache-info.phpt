--TEST--
shardcache_info(): keys and types, shard rows, and invariants between figures
--DESCRIPTION--
Keys and types, per-shard rows, size classes, and the invariants tying the
figures together.
--SKIPIF--
<?php if (!function_exists('shardcache_info')) die('skip shardcache_info not available'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=8M
shardcache.shards=4
--FILE--
<?php
function shape(array $a, string $indent = '') {
    foreach ($a as $k => $v) {
        echo $indent, $k, ': ', gettype($v), "\n";
    }
}
function check(string $label) {
    $i = shardcache_info();
    $sum = fn(string $list, string $f) => array_sum(array_column($i[$list], $f));
    $class_bytes = $sum('classes', 'bytes_used');
    $slab_pages = $sum('classes', 'slab_pages');
    $problems = [];
    foreach (['entries', 'slots', 'hits', 'misses', 'inserts', 'updates', 'deletes', 'evicted', 'expired', 'nomem', 'mem_used'] as $f) {
        // Stores and deletes made without the shard lock (issue 20) are
        // counted per thread: in the total, not in any shard's row.
        $extra = in_array($f, ['updates', 'inserts', 'deletes'], true) ? $i["lockless_$f"] : 0;
        if ($i[$f] !== $sum('per_shard', $f) + $extra) {
            $problems[] = "$f {$i[$f]} != sum over shards " . $sum('per_shard', $f);
        }
    }
    if ($i['mem_used'] !== $class_bytes + $i['large']['pages'] * 4096) {
        $problems[] = "mem_used {$i['mem_used']} != class bytes $class_bytes + large pages {$i['large']['pages']}";
    }
    if ($i['mem_free'] + $i['mem_spare'] + ($slab_pages + $i['large']['pages']) * 4096 !== $i['mem_total']) {
        $problems[] = "free {$i['mem_free']} + spare {$i['mem_spare']} + slab pages $slab_pages + large pages {$i['large']['pages']} != total {$i['mem_total']}";
    }
    if ($i['mem_spare'] % 4096 || ($i['mem_spare'] > 0) !== ($i['spare_runs'] > 0)) {
        $problems[] = "spares: {$i['mem_spare']} bytes in {$i['spare_runs']} runs";
    }
    if ($i['mem_wasted'] < 0 || $i['mem_wasted'] > $i['mem_entries'] || $i['mem_entries'] > $i['mem_used']
        || $i['mem_wasted'] !== $sum('per_shard', 'mem_wasted')) {
        $problems[] = "mem_wasted {$i['mem_wasted']}, mem_entries {$i['mem_entries']}, mem_used {$i['mem_used']}";
    }
    if ($sum('per_shard', 'pages') !== $slab_pages + $i['large']['pages'] + intdiv($i['mem_spare'], 4096)) {
        $problems[] = 'pages owned by shards != pages in slabs, large runs and spares';
    }
    foreach ($i['classes'] as $c) {
        if ($c['objects_used'] > $c['objects_total'] || $c['bytes_used'] !== $c['objects_used'] * $c['size']
            || ($c['slabs'] === 0) !== ($c['slab_pages'] === 0)) {
            $problems[] = 'class ' . json_encode($c);
        }
    }
    if ($i['largest_free_run'] > $i['mem_free'] || ($i['mem_free'] > 0) !== ($i['free_runs'] > 0)
        || $i['largest_free_run'] % 4096 || $i['mem_free'] % 4096) {
        $problems[] = "free runs: largest {$i['largest_free_run']}, free {$i['mem_free']}, runs {$i['free_runs']}";
    }
    $sma = shardcache_sma_info();
    if ($sma['avail_mem'] != $i['mem_free'] + $i['mem_spare']
        || count($sma['block_lists'][0]) !== $i['free_runs'] + $i['spare_runs']
        || array_sum(array_column($sma['block_lists'][0], 'size')) != $sma['avail_mem']
        || max(array_column($sma['block_lists'][0], 'size') ?: [0]) < $i['largest_free_run']) {
        $problems[] = 'sma_info disagrees';
    }
    echo "$label: entries {$i['entries']}, inserts {$i['inserts']}, updates {$i['updates']}, deletes {$i['deletes']}, ",
         $problems ? implode('; ', $problems) : 'consistent', "\n";
    return $i;
}

$i = shardcache_info();
echo "-- top level\n";
shape($i);
echo "-- local\n";
shape($i['local'], '  ');
echo "-- per_shard rows\n";
var_dump(count($i['per_shard']), array_is_list($i['per_shard']));
shape($i['per_shard'][0], '  ');
echo "-- classes\n";
var_dump(count($i['classes']));
shape($i['classes'][0], '  ');
echo implode(' ', array_column($i['classes'], 'size')), "\n";
echo "-- large\n";
shape($i['large'], '  ');
var_dump($i['enabled'], $i['shards'], $i['hit_sample'], $i['mem_total'] > 7 * 1024 * 1024, $i['mem_total'] <= 8 * 1024 * 1024,
         $i['mem_free'] === $i['mem_total'], $i['largest_free_run'] === $i['mem_total'], $i['free_runs'],
         $i['entries'], $i['mem_used'], $i['start_time'] >= time() - 60 && $i['start_time'] <= time());
check('empty');

for ($n = 0; $n < 500; $n++) {
    apcu_store("small$n", str_repeat('s', $n % 300));
}
for ($n = 0; $n < 20; $n++) {
    apcu_store("large$n", str_repeat('L', 40000 + $n * 5000));
}
check('stored');
for ($n = 0; $n < 100; $n++) {
    apcu_store("small$n", [$n]);
}
check('replaced');
for ($n = 0; $n < 500; $n += 2) {
    apcu_delete("small$n");
}
for ($n = 0; $n < 20; $n += 3) {
    apcu_delete("large$n");
}
$after_delete = check('deleted');
var_dump($after_delete['slab_returns'] >= 0, $after_delete['slab_refills'] > 0, $after_delete['pool_lock_acquisitions'] > 0);

echo "-- hits and misses: this process's exact counts, the shared ones sampled (1 in 32 recorded as 32)\n";
apcu_store('hot', 'value');
for ($n = 0; $n < 70; $n++) {
    apcu_fetch('hot');
}
for ($n = 0; $n < 33; $n++) {
    apcu_fetch("cold$n");
}
$i = check('fetched');
var_dump($i['local']['hits'], $i['local']['misses'], $i['hits'], $i['misses']);
var_dump(apcu_key_info('hot')['hits'], (new APCUIterator(['hot'], APC_ITER_NUM_HITS))->current()['num_hits'],
         (new APCUIterator(['hot']))->getTotalHits());
$ci = apcu_cache_info(true);
var_dump($ci['num_hits'], $ci['num_misses']);

echo "-- clear\n";
apcu_clear_cache();
$i = check('cleared');
var_dump($i['entries'], $i['mem_used'], $i['mem_free'] === $i['mem_total'], $i['free_runs'], $i['clears']);
var_dump(array_sum(array_column($i['classes'], 'slabs')), $i['large']);

echo "-- the shardcache_* names of the APCu info functions\n";
apcu_store('x', 1, 30);
var_dump(shardcache_key_info('x') == apcu_key_info('x'), array_keys(shardcache_cache_info(true)) === array_keys(apcu_cache_info(true)),
         shardcache_sma_info(true) == apcu_sma_info(true));
try {
    shardcache_info(1);
} catch (ArgumentCountError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
-- top level
enabled: boolean
segment_refused: string
view: string
shards: integer
slots: integer
entries: integer
mem_total: integer
mem_used: integer
mem_entries: integer
mem_wasted: integer
mem_free: integer
largest_free_run: integer
free_runs: integer
mem_spare: integer
spare_runs: integer
pool_lock_acquisitions: integer
global_lock_acquisitions: integer
slab_refills: integer
slab_returns: integer
spare_reuses: integer
lane_steals: integer
expunges: integer
evicted: integer
expired: integer
nomem: integer
inserts: integer
updates: integer
deletes: integer
lockless_updates: integer
lockless_inserts: integer
lockless_deletes: integer
hits: integer
misses: integer
hit_sample: integer
clears: integer
repairs: integer
lock_waits: integer
optimistic_retries: integer
resets: integer
start_time: integer
local: array
zero_copy: array
objects: array
isolation: string
owner_uid: integer
users: array
per_shard: array
classes: array
large: array
-- local
  hits: integer
  misses: integer
  optimistic_retries: integer
  locked_reads: integer
  liveness_full_scans: integer
-- per_shard rows
int(4)
bool(true)
  entries: integer
  slots: integer
  hits: integer
  misses: integer
  inserts: integer
  evicted: integer
  pages: integer
  mem_used: integer
  updates: integer
  deletes: integer
  expired: integer
  nomem: integer
  tombstones: integer
  repairs: integer
  lock_waits: integer
  optimistic_retries: integer
  mem_wasted: integer
-- classes
int(37)
  size: integer
  slab_pages: integer
  objects_used: integer
  bytes_used: integer
  slabs: integer
  objects_total: integer
64 80 96 112 128 160 192 224 256 320 384 448 512 640 768 896 1024 1280 1536 1792 2048 2560 3072 3584 4096 5120 6144 7168 8192 10240 12288 14336 16384 20480 24576 28672 32768
-- large
  runs: integer
  pages: integer
bool(true)
int(4)
int(32)
bool(true)
bool(true)
bool(true)
bool(true)
int(1)
int(0)
int(0)
bool(true)
empty: entries 0, inserts 0, updates 0, deletes 0, consistent
stored: entries 520, inserts 520, updates 0, deletes 0, consistent
replaced: entries 520, inserts 520, updates 100, deletes 0, consistent
deleted: entries 263, inserts 520, updates 100, deletes 257, consistent
bool(true)
bool(true)
bool(true)
-- hits and misses: this process's exact counts, the shared ones sampled (1 in 32 recorded as 32)
fetched: entries 264, inserts 521, updates 100, deletes 257, consistent
int(70)
int(33)
int(64)
int(32)
int(64)
int(64)
int(64)
float(70)
float(33)
-- clear
cleared: entries 0, inserts 0, updates 0, deletes 0, consistent
int(0)
int(0)
bool(true)
int(1)
int(1)
int(0)
array(2) {
  ["runs"]=>
  int(0)
  ["pages"]=>
  int(0)
}
-- the shardcache_* names of the APCu info functions
bool(true)
bool(true)
bool(true)
shardcache_info() expects exactly 0 arguments, 1 given
