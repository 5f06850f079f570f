--TEST--
Entries kept by lockless deletes in one shard cost no live data of another
--DESCRIPTION--
Entries kept by deletes without the lock (SC_TTL_GONE) in one shard never
cost live data of another. With one shard full of kept entries, the other
shard's new keys take their memory instead of evicting live keys of their
own (as they could if deletes freed memory at once).
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=1M
shardcache.shards=2
--FILE--
<?php
function val(string $p, int $i): string { return substr(str_repeat("$p$i;", 40), 0, 100); }
// Which shard a key goes to: the one whose entries figure it changes.
function shard_of(string $k): int {
    $before = array_column(shardcache_info()['per_shard'], 'entries');
    apcu_store($k, 0);
    $after = array_column(shardcache_info()['per_shard'], 'entries');
    apcu_delete($k);
    foreach ($after as $s => $n) {
        if ($n !== $before[$s]) return $s;
    }
    return -1;
}
$want = 5000;
$keys = [[], []];
for ($i = 0; count($keys[0]) < $want || count($keys[1]) < $want; $i++) {
    $s = shard_of("k$i");
    if ($s >= 0 && count($keys[$s]) < $want) $keys[$s][] = "k$i";
}
apcu_clear_cache();
// How many 100-byte values shard 1 alone holds: store until the first eviction.
$cap = 0;
while ($cap < $want && shardcache_info()['evicted'] === 0 && apcu_store($keys[1][$cap], val('c', $cap))) {
    $cap++;
}
echo "capacity measured: ", var_export($cap > 2000 && $cap < $want, true), "\n";
apcu_clear_cache();

// 60% of that in shard 0, stored and deleted (kept), then 60% in shard 1, live.
$n = intdiv($cap * 6, 10);
for ($j = 0; $j < $n; $j++) {
    apcu_store($keys[0][$j], val('g', $j));
    apcu_delete($keys[0][$j]);
}
$i = shardcache_info();
echo "kept in shard 0: ", var_export($i['lockless_deletes'] === $n && $i['entries'] === 0, true), "\n";
$failed = 0;
for ($j = 0; $j < $n; $j++) {
    if (!apcu_store($keys[1][$j], val('L', $j))) $failed++;
}
$lost = 0;
for ($j = 0; $j < $n; $j++) {
    if (apcu_fetch($keys[1][$j]) !== val('L', $j)) $lost++;
}
$i = shardcache_info();
echo "stores failed $failed, evicted ", $i['evicted'], ", live keys lost $lost, entries = live keys: ",
     var_export($i['entries'] === $n && count(apcu_cache_info()['cache_list']) === $n, true), "\n";
foreach ($keys[0] as $j => $k) {
    if ($j < $n && apcu_exists($k)) {
        echo "deleted key $k is back\n";
    }
}
?>
--EXPECT--
capacity measured: true
kept in shard 0: true
stores failed 0, evicted 0, live keys lost 0, entries = live keys: true
