--TEST--
shardcache: APCUIterator yields entries in store order across every shard
--DESCRIPTION--
A replaced entry moves to the end. Holds whatever the chunk size or search,
with 1 and 64 shards; an iterator made before the stores sees them.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache-specific: APCu walks its hash slots'); ?>
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
$code = <<<'CODE'
$early = new APCUIterator(null, APC_ITER_KEY);
mt_srand(15);
$keys = [];
for ($i = 0; $i < 300; $i++) {
    $keys[] = "key" . mt_rand(0, 1 << 30) . "-$i";
}
foreach ($keys as $k) {
    apcu_store($k, strlen($k));
}
// replace a few: they move to the end
$moved = [$keys[3], $keys[100], $keys[0]];
foreach ($moved as $k) {
    apcu_store($k, "again");
}
$expect = array_values(array_diff($keys, $moved));
array_push($expect, ...$moved);
$got = [];
foreach ($early as $k => $unused) $got[] = $k;
echo "early iterator: ", $got === $expect ? "store order" : "WRONG ORDER", "\n";
foreach ([0, 1, 7, 1000] as $chunk) {
    $got = [];
    foreach (new APCUIterator(null, APC_ITER_ALL, $chunk) as $k => $item) $got[] = $k;
    echo "chunk $chunk: ", $got === $expect ? "store order" : "WRONG ORDER", "\n";
}
$got = [];
foreach (new APCUIterator('/-1\d$/') as $k => $unused) $got[] = $k;
echo "regex: ", $got === array_values(preg_grep('/-1\d$/', $expect)) ? "store order" : "WRONG ORDER", " (", count($got), ")\n";
$list = [$keys[250], $keys[0], 'missing', $keys[7], $keys[3]];
$got = [];
foreach (new APCUIterator($list) as $k => $unused) $got[] = $k;
echo "key list: ", json_encode($got === [$keys[7], $keys[250], $keys[3], $keys[0]]), "\n";
CODE;
foreach (['1', '64'] as $n) {
    [$out, $status] = sc_run_php(['extension=' . sc_extension_path(), 'apc.enable_cli=1', 'apc.shm_size=64M',
                                  "shardcache.shards=$n", 'pcre.jit=0'], $code);
    echo "-- $n shards\n", $out, "exit $status\n";
}
?>
--EXPECT--
-- 1 shards
early iterator: store order
chunk 0: store order
chunk 1: store order
chunk 7: store order
chunk 1000: store order
regex: store order (10)
key list: true
exit 0
-- 64 shards
early iterator: store order
chunk 0: store order
chunk 1: store order
chunk 7: store order
chunk 1000: store order
regex: store order (10)
key list: true
exit 0
