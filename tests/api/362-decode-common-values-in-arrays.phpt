--TEST--
Copied arrays decode identically on both sides of the fast path's limits
--DESCRIPTION--
Arrays copied out of the cache (zero-copy off). Elements that the decoder
reads in place (ints that fit 8 and 32 bits, strings up to 255 bytes) and
the ones it hands to the full decoder (wider ints, longer strings, floats,
bools, null, nested arrays) come back identical at every boundary, in lists
and in hashes with int and string keys, and a fetched array is the caller's
own.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.zero_copy=0
--FILE--
<?php
$elements = [
    0, 1, -1, 127, -128, 128, -129, 255, 256,
    2147483647, -2147483648, 2147483648, -2147483649, PHP_INT_MAX, PHP_INT_MIN,
    '', 'a', '0', 'ab', str_repeat('x', 254), str_repeat('y', 255), str_repeat('z', 256),
    "nul\0inside", 1.5, -0.0, true, false, null, [], [1, 'b'], ['k' => [2, 'c']],
];
$list = $elements;
$hash_int = [];
foreach ($elements as $i => $v) {
    $hash_int[$i * 7 - 50] = $v;
}
$hash_str = [];
foreach ($elements as $i => $v) {
    $hash_str["key$i"] = $v;
}
$mixed = ['list' => $list, 5 => $hash_int, 'deep' => ['h' => $hash_str, 'l' => [$list, $list]]];

$bad = 0;
foreach (['list' => $list, 'hash_int' => $hash_int, 'hash_str' => $hash_str, 'mixed' => $mixed] as $name => $value) {
    var_dump(apcu_store($name, $value));
    $got = apcu_fetch($name);
    if ($got !== $value) {
        $bad++;
        echo "$name differs\n";
    }
    // A byte-exact check as well (=== treats -0.0 and 0.0 alike).
    if (serialize($got) !== serialize($value)) {
        $bad++;
        echo "$name serializes differently\n";
    }
}
echo "bad: $bad\n";

// Every element alone, as the only element of a list and of a hash: the
// in-place read must stop exactly at its end.
$bad = 0;
foreach ($elements as $i => $v) {
    foreach ([[$v], ['only' => $v], [$v, 'after'], [$v, $v, 7]] as $j => $arr) {
        apcu_store("one_{$i}_$j", $arr);
        if (serialize(apcu_fetch("one_{$i}_$j")) !== serialize($arr)) {
            $bad++;
            echo "element $i form $j differs\n";
        }
    }
}
echo "bad: $bad\n";

// The fetched array is the caller's: changing it changes nothing cached.
$got = apcu_fetch('list');
$got[3] = 'changed';
$got[] = 'more';
var_dump(apcu_fetch('list') === $list);
var_dump(count($got), $got[3]);
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bad: 0
bad: 0
bool(true)
int(32)
string(7) "changed"
