--TEST--
Fetch paths: strings near the zero-copy minimum, colliding keys, crowded shards
--DESCRIPTION--
Strings around the zero-copy minimum (64 bytes) are in place or copied, and
changes after the fetch separate. Keys of every length from 2 to 80 bytes
(and longer) with the same hash are found only by an exact match, wherever
they differ. Many keys per shard (keys away from their home slot). Ints,
non-string keys, arrays of keys and $success.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
?>
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.zero_copy=1
shardcache.shards=1
--FILE--
<?php
function in_place($v): bool {
    ob_start();
    debug_zval_dump($v);
    return str_contains(strtok(ob_get_clean(), "\n"), ' interned');
}

echo "-- strings around the minimum\n";
foreach ([0, 1, 62, 63, 64, 65, 100, 4096] as $n) {
    $s = substr(str_repeat("abcdefghij\0", 400), 0, $n);
    apcu_store("s$n", $s);
    $f = apcu_fetch("s$n");
    $g = apcu_fetch("s$n");
    $ok = $f === $s && $g === $s;
    $inPlace = in_place($f);
    if ($n > 0) {
        $f[0] = 'Z';                      // separates: the cache keeps its value
        $ok = $ok && $f[0] === 'Z' && $g === $s && apcu_fetch("s$n") === $s;
    }
    $f .= 'tail';
    $ok = $ok && apcu_fetch("s$n") === $s;
    printf("%4d bytes: equal %s, in place %s\n", $n, json_encode($ok), json_encode($inPlace));
}
// Overwritten with a short string, then a long one, then an int: each
// fetch returns the value of the moment, and what was held stays.
apcu_store('w', str_repeat('L', 100));
$held = apcu_fetch('w');
apcu_store('w', 'short');
$short = apcu_fetch('w');
apcu_store('w', str_repeat('M', 200));
$long = apcu_fetch('w');
apcu_store('w', 12);
var_dump($held === str_repeat('L', 100), $short, $long === str_repeat('M', 200), apcu_fetch('w'));

echo "-- keys of every length with the same hash, differing in two bytes\n";
// PHP's string hash (DJBX33A) gives "Ez" and "FY" the same value, so two
// keys that differ only by one of them in place of the other have the same
// hash: same shard, same tag, same home slot. Only the comparison of the
// key bytes tells them apart.
$bad = 0;
$checked = 0;
$lengths = array_merge(range(2, 80), [127, 128, 129, 255, 1000]);
foreach ($lengths as $len) {
    $base = '';
    for ($i = 0; $i < $len; $i++) {
        $base .= chr(33 + ($i * 7 + $len) % 90);
    }
    $positions = $len <= 80 ? range(0, $len - 2) : [0, 1, 6, 7, 8, 9, 62, 63, 64, intdiv($len, 2), $len - 10, $len - 9, $len - 8, $len - 2];
    foreach ($positions as $p) {
        $a = substr_replace($base, 'Ez', $p, 2);
        $b = substr_replace($base, 'FY', $p, 2);
        apcu_store($a, "a$len.$p");
        $checked++;
        if (apcu_fetch($b) !== false) {
            $bad++;
            echo "len $len: the key with FY at $p finds the one with Ez\n";
        }
        apcu_store($b, "b$len.$p");
        if (apcu_fetch($a) !== "a$len.$p" || apcu_fetch($b) !== "b$len.$p") {
            $bad++;
            echo "len $len: Ez/FY at $p: wrong values\n";
        }
        apcu_delete($a);
        if (apcu_fetch($a) !== false || apcu_fetch($b) !== "b$len.$p") {
            $bad++;
            echo "len $len: Ez/FY at $p: wrong after the delete\n";
        }
        apcu_delete($b);
    }
}
echo "lengths: ", count($lengths), ", pairs checked: ", $checked > 3000 ? "> 3000" : $checked, ", wrong: $bad\n";

echo "-- many keys in one shard\n";
// One shard: 3000 keys fill its table well past its first size, so many
// keys sit away from their home slot and lookups probe.
$bad = 0;
for ($i = 0; $i < 3000; $i++) {
    apcu_store("k$i", $i % 3 ? $i : str_repeat(chr(65 + $i % 26), 64 + $i % 50));
}
for ($i = 0; $i < 3000; $i++) {
    $want = $i % 3 ? $i : str_repeat(chr(65 + $i % 26), 64 + $i % 50);
    if (apcu_fetch("k$i") !== $want) {
        $bad++;
    }
    if (apcu_fetch("k{$i}x") !== false) {
        $bad++;
    }
}
for ($i = 0; $i < 3000; $i += 2) {
    apcu_delete("k$i");
}
for ($i = 0; $i < 3000; $i++) {
    $want = $i % 2 ? ($i % 3 ? $i : str_repeat(chr(65 + $i % 26), 64 + $i % 50)) : false;
    if (apcu_fetch("k$i") !== $want) {
        $bad++;
    }
}
echo "wrong: $bad\n";

echo "-- other ways in\n";
apcu_store('5', 'five');
apcu_store('1.5', str_repeat('f', 70));
var_dump(apcu_fetch(5), apcu_fetch(1.5) === str_repeat('f', 70));
$ok = null;
var_dump(apcu_fetch('s64', $ok) === substr(str_repeat("abcdefghij\0", 400), 0, 64), $ok);
var_dump(apcu_fetch('nope', $ok), $ok);
$many = apcu_fetch(['k1', 'k3', 'nope', 's100', '5'], $ok);
var_dump(array_keys($many), $many['k1'], $many['k3'] === str_repeat('D', 67), $ok);
?>
--EXPECT--
-- strings around the minimum
   0 bytes: equal true, in place false
   1 bytes: equal true, in place false
  62 bytes: equal true, in place false
  63 bytes: equal true, in place false
  64 bytes: equal true, in place true
  65 bytes: equal true, in place true
 100 bytes: equal true, in place true
4096 bytes: equal true, in place true
bool(true)
string(5) "short"
bool(true)
int(12)
-- keys of every length with the same hash, differing in two bytes
lengths: 84, pairs checked: > 3000, wrong: 0
-- many keys in one shard
wrong: 0
-- other ways in
string(4) "five"
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
array(4) {
  [0]=>
  string(2) "k1"
  [1]=>
  string(2) "k3"
  [2]=>
  string(4) "s100"
  [3]=>
  string(1) "5"
}
int(1)
bool(true)
bool(true)
