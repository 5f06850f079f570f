--TEST--
Value sizes around size classes and pages round-trip; model test never wrong
--DESCRIPTION--
Value sizes around size classes, pages and page runs round-trip exactly; a
full cache still takes big values; random operations against a model in a
small segment never return a wrong value.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=4M
--FILE--
<?php
$names = [E_WARNING => 'Warning', E_NOTICE => 'Notice', E_DEPRECATED => 'Deprecated'];
set_error_handler(function ($no, $str) use ($names) { echo $names[$no] ?? $no, ': ', $str, "\n"; return true; });
function val(int $len, int $salt): string {
    return substr(str_repeat(md5("$len.$salt"), intdiv($len, 32) + 1), 0, $len);
}
echo "-- sizes around size classes, pages and large runs round-trip exactly\n";
$sizes = [];
foreach ([0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129] as $s) $sizes[] = $s;
foreach ([256, 1024, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 1048576] as $b) {
    foreach ([-200, -80, -72, -64, -1, 0, 1, 64] as $d) $sizes[] = $b + $d;
}
$bad = 0;
$stored = 0;
foreach ($sizes as $i => $len) {
    foreach (['k', str_repeat('K', 200)] as $kp) {
        $key = "$kp$len";
        $v = val($len, $i);
        if (!apcu_store($key, $v)) { echo "store of $len bytes failed\n"; $bad++; continue; }
        $stored++;
        if (apcu_fetch($key) !== $v) { echo "value of $len bytes came back different\n"; $bad++; }
        $arr = [$v, $len];
        if (!apcu_store("a$key", $arr) || apcu_fetch("a$key") !== $arr) { echo "array with $len bytes failed\n"; $bad++; }
    }
}
echo "stored: $stored of ", 2 * count($sizes), ", bad: $bad\n";

echo "-- a cache full of small entries still takes big values (small ones are evicted)\n";
apcu_clear_cache();
for ($i = 0; $i < 20000; $i++) apcu_store("small$i", str_repeat('a', 300));
foreach ([20000, 40000, 65464, 100000, 200000, 500000] as $len) {
    $v = val($len, 1);
    echo "$len: ", var_export(apcu_store("big$len", $v), true), ' ', var_export(apcu_fetch("big$len") === $v, true), "\n";
}
apcu_clear_cache();
for ($i = 0; $i < 3000; $i++) apcu_store("mid$i", str_repeat('b', 3000));
foreach ([40000, 500000] as $len) {
    $v = val($len, 2);
    echo "$len after 3000-byte entries: ", var_export(apcu_store("big$len", $v), true), "\n";
}
apcu_clear_cache();

echo "-- random operations against a model, far more data than fits: never a wrong value\n";
mt_srand(12345);
$model = [];
$wrong = 0;
$hits = 0;
$misses = 0;
$fails = 0;
for ($op = 0; $op < 30000; $op++) {
    $k = 'm' . mt_rand(0, 499);
    $r = mt_rand(0, 99);
    if ($r < 40) {
        $r2 = mt_rand(0, 99);
        $len = $r2 < 70 ? mt_rand(0, 2000) : ($r2 < 95 ? mt_rand(2000, 40000) : mt_rand(40000, 500000));
        $v = mt_rand(0, 4) ? val($len, $op) : ['op' => $op, 'data' => val($len, $op)];
        // a store that fails leaves the old value, or nothing if it was evicted
        if (apcu_store($k, $v)) { $model[$k] = $v; } else { $fails++; }
    } elseif ($r < 45) {
        $v = "added $op";
        if (apcu_add($k, $v)) {
            if (isset($model[$k])) { /* it may have been evicted */ }
            $model[$k] = $v;
        }
    } elseif ($r < 55) {
        apcu_delete($k);
        unset($model[$k]);
    } elseif ($r < 60) {
        $c = 'c' . mt_rand(0, 49);
        $n = apcu_inc($c, 3, $ok);
        if ($ok) {
            $expect = (isset($model[$c]) ? $model[$c] : 0) + 3;
            // an evicted counter restarts from 0
            if ($n !== $expect && $n !== 3) { echo "inc $c gave $n, expected $expect\n"; $wrong++; }
            $model[$c] = $n;
        } else {
            $fails++;
            unset($model[$c]);
        }
    } else {
        $v = apcu_fetch($k, $ok);
        if ($ok) {
            $hits++;
            if (!array_key_exists($k, $model) || $model[$k] !== $v) {
                if ($wrong++ < 10) echo "fetch $k: wrong value\n";
            }
        } else {
            $misses++;
            unset($model[$k]);    // evicted (or never stored)
        }
    }
}
echo "wrong: $wrong\n";
echo 'hits and misses: ', ($hits > 1000 && $misses > 100) ? 'yes' : "no ($hits, $misses)", "\n";
echo "failed stores: $fails\n";
echo "-- the cache still works\n";
var_dump(apcu_store('after', 'ok'), apcu_fetch('after'));
?>
--EXPECT--
-- sizes around size classes, pages and large runs round-trip exactly
stored: 182 of 182, bad: 0
-- a cache full of small entries still takes big values (small ones are evicted)
20000: true true
40000: true true
65464: true true
100000: true true
200000: true true
500000: true true
40000 after 3000-byte entries: true
500000 after 3000-byte entries: true
-- random operations against a model, far more data than fits: never a wrong value
wrong: 0
hits and misses: yes
failed stores: 0
-- the cache still works
bool(true)
string(2) "ok"
