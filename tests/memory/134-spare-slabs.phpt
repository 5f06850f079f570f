--TEST--
Spare slabs: an emptied slab stays with its shard and is reused before evicting
--DESCRIPTION--
An emptied slab stays with its shard and serves the next slab of any class
without the page pool (a longer spare is split: the rest stays a spare).
Spares go back to the pool before a store that needs them would evict (own
shard and other shards), and count as available memory.
--SKIPIF--
<?php if (!function_exists('shardcache_info')) die('skip shardcache_info not available'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.shards=2
--FILE--
<?php
function shard_of(string $key): int {
    $before = array_column(shardcache_info()['per_shard'], 'entries');
    apcu_store($key, 1);
    $after = array_column(shardcache_info()['per_shard'], 'entries');
    apcu_delete($key);
    foreach ($after as $i => $n) if ($n !== $before[$i]) return $i;
    return -1;
}
function key_in(int $shard, string $prefix): string {
    for ($n = 0; ; $n++) if (shard_of("$prefix$n") === $shard) return "$prefix$n";
}
function show(string $label): array {
    static $base = 0;             // spare reuses before 'start' (the setup's)
    $i = shardcache_info();
    if ($label === 'start') $base = $i['spare_reuses'];
    if ($label === 'cleared') $base = 0;
    $i['spare_reuses'] -= $base;
    $sma = apcu_sma_info();
    $blocks = array_sum(array_column($sma['block_lists'][0], 'size'));
    printf("%s: spare_runs %d, mem_spare %d pages, spare_reuses %d, evicted %d, expunges %d, avail ok %s\n", $label,
           $i['spare_runs'], $i['mem_spare'] / 4096, $i['spare_reuses'], $i['evicted'], $i['expunges'],
           var_export($sma['avail_mem'] == $i['mem_free'] + $i['mem_spare'] && $blocks == $sma['avail_mem'], true));
    return $i;
}
$a = key_in(0, 'a');
$b = key_in(0, 'b');
$big0 = key_in(0, 'big');
$big1 = key_in(1, 'big');
$keep = key_in(0, 'keep');    // with a, b and big0: its slab is shard 0's
apcu_clear_cache();           // forget what the probes above left (counters too)
apcu_store($keep, 'kept');    // an entry that must never be evicted below
apcu_store($b, 0);            // shard 0's table exists from here on
apcu_delete($b);
apcu_store(key_in(1, 'k'), 0); // shard 1's too
show('start');

// A 13000-byte value: class 14336, slabs of 7 pages holding 2 objects.
apcu_store($a, str_repeat('a', 13000));
apcu_delete($a);
show('after store+delete');
// A small value of another class: its one-page slab is cut from the spare,
// the other 6 pages stay a spare. (Each
// shardcache_info() call takes the pool lock once, after reading the count.)
$locks = shardcache_info()['pool_lock_acquisitions'];
// (With a TTL: a delete of a small value without one keeps its entry for
// the key's next store, sc_lockless.c; this one must free it at once.)
apcu_store($b, str_repeat('b', 100), 100000);
echo "pool locks taken by the store: ", shardcache_info()['pool_lock_acquisitions'] - $locks - 1, "\n";
show('small store');
apcu_delete($b);
show('small delete');

// Large runs never become spares.
apcu_store($a, str_repeat('L', 40000));
apcu_delete($a);
show('large store+delete');

// A value that fits only if the spare goes back to the pool: same shard.
$i = shardcache_info();
$len = $i['mem_free'] + $i['mem_spare'] - 5 * 4096;
var_dump(apcu_store($big0, str_repeat('x', $len)));
show('big in the same shard');
var_dump(strlen(apcu_fetch($big0)) === $len, apcu_fetch($keep));
apcu_delete($big0);

// Again with the spare in shard 0 and the value in shard 1.
apcu_store($a, str_repeat('a', 13000));
apcu_delete($a);
$i = show('spare again');
$len = $i['mem_free'] + $i['mem_spare'] - 5 * 4096;
var_dump(apcu_store($big1, str_repeat('y', $len)));
show('big in the other shard');
var_dump(strlen(apcu_fetch($big1)) === $len, apcu_fetch($keep));

apcu_clear_cache();
show('cleared');
?>
--EXPECT--
start: spare_runs 0, mem_spare 0 pages, spare_reuses 0, evicted 0, expunges 0, avail ok true
after store+delete: spare_runs 1, mem_spare 7 pages, spare_reuses 0, evicted 0, expunges 0, avail ok true
pool locks taken by the store: 0
small store: spare_runs 1, mem_spare 6 pages, spare_reuses 1, evicted 0, expunges 0, avail ok true
small delete: spare_runs 2, mem_spare 7 pages, spare_reuses 1, evicted 0, expunges 0, avail ok true
large store+delete: spare_runs 2, mem_spare 7 pages, spare_reuses 1, evicted 0, expunges 0, avail ok true
bool(true)
big in the same shard: spare_runs 0, mem_spare 0 pages, spare_reuses 2, evicted 0, expunges 0, avail ok true
bool(true)
string(4) "kept"
spare again: spare_runs 1, mem_spare 7 pages, spare_reuses 2, evicted 0, expunges 0, avail ok true
bool(true)
big in the other shard: spare_runs 0, mem_spare 0 pages, spare_reuses 2, evicted 0, expunges 0, avail ok true
bool(true)
string(4) "kept"
cleared: spare_runs 0, mem_spare 0 pages, spare_reuses 0, evicted 0, expunges 0, avail ok true