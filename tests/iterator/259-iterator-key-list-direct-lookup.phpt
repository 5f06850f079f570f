--TEST--
APCUIterator over a list of keys looks the keys up without copying the rest
--DESCRIPTION--
3 keys of a shard holding 48 MiB are read without copying the rest (peak
RSS), for the items and for getTotalCount.
--INI--
apc.enable_cli=1
apc.shm_size=128M
shardcache.shards=1
--FILE--
<?php
// 48 values of 1 MiB in one shard; an iterator over a list of 3 keys (with
// values) and its totals must not copy the other 45 MiB into the process.
$v = str_repeat('x', 1 << 20);
for ($i = 0; $i < 48; $i++) {
    apcu_store("big$i", $v . $i);
}
$before = getrusage()['ru_maxrss'];
$it = new APCUIterator(['big3', 'missing', 'big40', 'big7']);
$got = [];
foreach ($it as $k => $item) {
    $got[$k] = strlen($item['value']);
}
ksort($got);
echo json_encode($got), " count ", $it->getTotalCount(), "\n";
$grown = getrusage()['ru_maxrss'] - $before;
echo $grown < 16 * 1024 ? "peak RSS grew by less than 16 MiB\n" : "peak RSS grew by $grown KiB\n";
?>
--EXPECT--
{"big3":1048577,"big40":1048578,"big7":1048577} count 3
peak RSS grew by less than 16 MiB
