--TEST--
64 shards in 4M: a store that needs a bigger table or scattered pages evicts
--DESCRIPTION--
Random stores (up to 500,000 bytes), adds, deletes, incs and fetches
over 500 keys in a 4M segment of 64 shards, three times with other key
names. No store or inc may fail: when a shard's table must grow and the
pool has no run for it, the store evicts across the cache and tries again
(it used to fail at once); and each eviction across the cache a store asks
for wants twice the pages of the one before, since free pages scattered in
short runs hold a chained value only with room to spare (it used to ask
for the value's pages three times, which pages already free satisfied
without evicting anything). Where keys land decides when either case
comes: keys were once placed by their PHP hash alone, and then the
prefix "r" here failed a store (as did about one prefix in three).
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache not loaded'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=4M
shardcache.shards=64
--FILE--
<?php
function val(int $len, int $salt): string {
    return substr(str_repeat(md5("$len.$salt"), intdiv($len, 32) + 1), 0, $len);
}
function model(string $p): string {
    apcu_clear_cache();
    mt_srand(12345);
    $fails = $wrong = 0;
    $model = [];
    for ($op = 0; $op < 30000; $op++) {
        $k = $p . mt_rand(0, 499);
        $r = mt_rand(0, 99);
        if ($r < 40) {
            $r2 = mt_rand(0, 99);
            $len = $r2 < 70 ? mt_rand(0, 2000) : ($r2 < 95 ? mt_rand(2000, 40000) : mt_rand(40000, 500000));
            $v = mt_rand(0, 4) ? val($len, $op) : ['op' => $op, 'data' => val($len, $op)];
            if (apcu_store($k, $v)) { $model[$k] = $v; } else { $fails++; }
        } elseif ($r < 45) {
            if (apcu_add($k, "added $op")) { $model[$k] = "added $op"; }
        } elseif ($r < 55) {
            apcu_delete($k);
            unset($model[$k]);
        } elseif ($r < 60) {
            apcu_inc('#' . mt_rand(0, 49), 3, $ok);
            $fails += $ok ? 0 : 1;
        } else {
            $v = apcu_fetch($k, $ok);
            if ($ok && (!array_key_exists($k, $model) || $model[$k] !== $v)) {
                $wrong++;
            }
        }
    }
    return "failed stores $fails, wrong values $wrong";
}
foreach (['a', 'r', 'y'] as $p) {
    echo "$p: ", model($p), "\n";
}
?>
--EXPECT--
a: failed stores 0, wrong values 0
r: failed stores 0, wrong values 0
y: failed stores 0, wrong values 0
