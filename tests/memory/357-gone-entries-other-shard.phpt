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
// In batches of 1,000 keys: the cache lists its entries shard by shard, and
// shard 0's entry count says where shard 1's begin (a sample of each side
// checked one key at a time below).
for ($i = 0; count($keys[0]) < $want || count($keys[1]) < $want; ) {
    apcu_clear_cache();
    for ($b = 0; $b < 1000; $b++, $i++) apcu_store("k$i", 0);
    $n0 = shardcache_info()['per_shard'][0]['entries'];
    $listed = array_column(apcu_cache_info()['cache_list'], 'info');
    if (count($listed) !== 1000) { echo "a batch lost keys\n"; break; }
    foreach ($listed as $pos => $k) {
        $s = $pos < $n0 ? 0 : 1;
        if (count($keys[$s]) < $want) $keys[$s][] = $k;
    }
}
apcu_clear_cache();
$wrong = 0;
foreach ([0, 1] as $s) {
    foreach (array_merge(array_slice($keys[$s], 0, 10), array_slice($keys[$s], -10)) as $k) $wrong += shard_of($k) !== $s;
}
echo "keys by shard, sample checked: $wrong wrong\n";
apcu_clear_cache();
// How many 100-byte values shard 1 alone holds: store until the first
// eviction (looked at every 16 stores).
$cap = 0;
while ($cap < $want && ($cap % 16 || shardcache_info()['evicted'] === 0) && apcu_store($keys[1][$cap], val('c', $cap))) {
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
keys by shard, sample checked: 0 wrong
capacity measured: true
kept in shard 0: true
stores failed 0, evicted 0, live keys lost 0, entries = live keys: true
