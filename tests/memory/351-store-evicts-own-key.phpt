--TEST--
One full shard: a store that evicts the key it overwrites still stores it whole
--DESCRIPTION--
Every store makes room by evicting, often the very key it overwrites (the
store's earlier look is stale then, and the key is looked up again). Each
value stored is fetched back whole, every key is listed at most once, and
the figures agree with the listing.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=1M
apc.entries_hint=16
shardcache.shards=1
--FILE--
<?php
/* Value i of key k: its length changes with i (so an overwrite never fits
 * the old entry: no lockless or in-place store), its bytes name k and i. */
function val(int $k, int $i): string
{
    return substr(str_repeat("$k:$i;", 400), 0, 300 + ($i * 97 + $k * 31) % 2500);
}

$keys = 701;
$bad = 0;
$stored = 0;
for ($i = 0; $i < 8000; $i++) {
    $k = ($i * 7) % $keys;   // every key, each overwritten about 11 times
    if (!apcu_store("k$k", val($k, $i))) {
        continue;     // a store may find no room: then the key is gone or old
    }
    $stored++;
    $v = apcu_fetch("k$k");
    if ($v !== val($k, $i)) {
        $bad++;
    }
    if ($i % 500 === 0) {
        // a few keys with a ttl and of other types, evicted or not
        apcu_store("t$i", [$i, "x$i"], 100);
        apcu_store("n$i", $i);
    }
}
$seen = [];
$wrong = 0;
foreach (new APCUIterator(null, APC_ITER_KEY | APC_ITER_VALUE) as $e) {
    $seen[$e['key']] = ($seen[$e['key']] ?? 0) + 1;
    $n = (int)substr($e['key'], 1);
    if ($e['key'][0] === 'k' && !preg_match('/^' . $n . ':(\d+);/', $e['value'])) {
        $wrong++;
    }
}
$info = apcu_cache_info(true);
$sma = apcu_sma_info(true);
echo "stored: ", $stored > 7000 ? "most" : $stored, "\n";
echo "wrong values read back: $bad\n";
echo "keys listed twice: ", count(array_filter($seen, fn ($n) => $n > 1)), "\n";
echo "wrong values listed: $wrong\n";
echo "entries as listed: ", var_export($info['num_entries'] === count($seen), true), "\n";
echo "evicted some: ", var_export(shardcache_info()['evicted'] > 0, true), "\n";
echo "memory sane: ", var_export($sma['avail_mem'] >= 0 && $sma['avail_mem'] <= $sma['seg_size'], true), "\n";
?>
--EXPECT--
stored: most
wrong values read back: 0
keys listed twice: 0
wrong values listed: 0
entries as listed: true
evicted some: true
memory sane: true
