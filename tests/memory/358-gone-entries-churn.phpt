--TEST--
A 55%-full cache under churn: kept deleted entries push out no live key
--DESCRIPTION--
The cache is kept 55% full of live data under stores of new keys, overwrites
and deletes (values from 16 bytes to 64 KiB, most deleted without the lock).
Deleted keys' kept entries must not push live keys out: no live key lost and
no eviction, as at commit f20eead, where every delete freed its memory at
once. The test is a small copy of benchmarks/churn.php. 55% of the value
bytes fill most of the segment (entry headers, keys, size classes, the
pages of large values, each shard's partly used slabs); at 60% whether a
shard's new slab finds pages depends on where the keys fall, which the
segment's random hash secret decides.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
--FILE--
<?php
// One process, a fixed random sequence: the live set (key => [size,
// version]) holds at most 55% of the segment's bytes (counting value bytes
// only); before a store that would pass that, random live keys are deleted.
// Each step: 50% a store of a new key, 30% an overwrite of a live key (a new
// size), 20% a delete of a live key. Every 500 steps and at the end, every
// live key must be there with its value.
mt_srand(7);
$budget = (int)(16 * 1024 * 1024 * 0.55);
$live = [];
$bytes = 0;
$next = 0;
$lost = 0;
$wrong = 0;
$failed = 0;
$deletes_false = 0;
function size_of(): int { return (int)round(exp(log(16) + (log(65536) - log(16)) * mt_rand() / mt_getrandmax())); }
function val(int $id, int $ver, int $size): string { return substr(str_repeat("$id.$ver;", intdiv($size, 4) + 4), 0, $size); }
function audit(array &$live, int &$bytes, int &$lost, int &$wrong): void {
    foreach ($live as $id => [$size, $ver]) {
        $v = apcu_fetch("c$id", $ok);
        if (!$ok) {
            $lost++;
            $bytes -= $size;
            unset($live[$id]);
        } elseif ($v !== val($id, $ver, $size)) {
            $wrong++;
        }
    }
}
$drop = function (int $except) use (&$live, &$bytes, &$deletes_false): void {
    $ids = array_keys($live);
    if (count($ids) < 2) return;
    do {
        $id = $ids[mt_rand(0, count($ids) - 1)];
    } while ($id === $except);
    if (!apcu_delete("c$id")) $deletes_false++;
    $bytes -= $live[$id][0];
    unset($live[$id]);
};
for ($step = 0; $step < 30000; $step++) {
    $r = mt_rand(0, 99);
    if ($r < 50 || count($live) < 2) {
        $id = $next++;
        $size = size_of();
        while ($bytes + $size > $budget && count($live) > 1) $drop(-1);
        if (apcu_store("c$id", val($id, 0, $size))) {
            $live[$id] = [$size, 0];
            $bytes += $size;
        } else {
            $failed++;
        }
    } elseif ($r < 80) {
        $ids = array_keys($live);
        $id = $ids[mt_rand(0, count($ids) - 1)];
        $size = size_of();
        $bytes -= $live[$id][0];
        while ($bytes + $size > $budget && count($live) > 2) $drop($id);
        $ver = $live[$id][1] + 1;
        if (apcu_store("c$id", val($id, $ver, $size))) {
            $live[$id] = [$size, $ver];
            $bytes += $size;
        } else {
            $failed++;
            unset($live[$id]);
            apcu_delete("c$id");
        }
    } else {
        $drop(-1);
    }
    if ($step % 500 === 499) {
        audit($live, $bytes, $lost, $wrong);
    }
}
audit($live, $bytes, $lost, $wrong);
$i = shardcache_info();
echo "stores failed: $failed, live keys lost: $lost, wrong values: $wrong, deletes of live keys that said false: $deletes_false\n";
echo "evicted ", $i['evicted'], ", expunges ", $i['expunges'], "\n";
echo "deletes without the lock: ", $i['lockless_deletes'] > 0 ? 'some' : 'none', "\n";
?>
--EXPECT--
stores failed: 0, live keys lost: 0, wrong values: 0, deletes of live keys that said false: 0
evicted 0, expunges 0
deletes without the lock: some
