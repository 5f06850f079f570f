--TEST--
apcu_store/apcu_fetch round-trip arrays, keys and their order kept
--DESCRIPTION--
Packed and hash arrays, mixed keys, holes and nesting; the key order is
kept.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
$holes = [0 => 'a', 1 => 'b', 2 => 'c', 3 => 'd'];
unset($holes[1]);
$packedGrow = [];
for ($i = 0; $i < 100; $i++) $packedGrow[] = $i * 3;
$hash100 = [];
for ($i = 0; $i < 100; $i++) $hash100["key$i"] = ($i % 3 == 0) ? $i : (($i % 3 == 1) ? "v$i" : [$i]);
$deep = 'bottom';
for ($i = 0; $i < 64; $i++) $deep = ['level' => $i, 'next' => $deep];

$values = [
    'empty'      => [],
    'packed'     => [1, 2, 3],
    'mixedtypes' => [null, true, false, 0, -1, 1.5, NAN, -0.0, '', 'str', [], [[]]],
    'hash'       => ['a' => 1, 'b' => 'two', 'c' => 3.0],
    'intkeys'    => [5 => 'five', -3 => 'minus three', 0 => 'zero', PHP_INT_MAX => 'max', PHP_INT_MIN => 'min'],
    'mixedkeys'  => ['x' => 1, 10 => 2, 'y' => 3, 11 => 4, '' => 'emptykey', "nul\0key" => 'nul'],
    'numstr'     => ['10' => 'int key from string', '010' => 'string key', '1.5' => 'string key', '-0' => 'string key', '-7' => 'int key'],
    'holes'      => $holes,
    'reverse'    => [3 => 'c', 2 => 'b', 1 => 'a', 0 => 'z'],
    'nested'     => ['list' => [1, [2, [3, [4]]]], 'map' => ['k' => ['k2' => ['k3' => 'deep']]], 'both' => [['a' => 1], ['b' => 2]]],
    'packedgrow' => $packedGrow,
    'hash100'    => $hash100,
    'deep64'     => $deep,
    'bigstr'     => ['s' => str_repeat('x', 100000), 't' => [str_repeat("\0\1", 5000)]],
];
foreach ($values as $k => $v) {
    echo $k, ': ', var_export(apcu_store($k, $v), true), "\n";
}
foreach ($values as $k => $v) {
    $got = apcu_fetch($k, $ok);
    $same = serialize($got) === serialize($v);
    ob_start(); var_dump($v); $d1 = ob_get_clean();
    ob_start(); var_dump($got); $d2 = ob_get_clean();
    echo $k, ': ok=', var_export($ok, true), ' serialize-same=', var_export($same, true),
        ' dump-same=', var_export($d1 === $d2, true), ' count=', count($got),
        ' keys=', implode(',', array_map(fn($x) => var_export($x, true), array_slice(array_keys($got), 0, 6))), "\n";
}
var_dump(apcu_fetch('mixedtypes'));
var_dump(apcu_fetch('intkeys'));
echo bin2hex(serialize(apcu_fetch('mixedkeys'))), "\n";
var_dump(apcu_fetch('numstr'));
var_dump(apcu_fetch('holes'));
var_dump(apcu_fetch('reverse'));
var_dump(apcu_fetch('nested'));
// appending to a fetched array with holes continues after the largest int key
$h = apcu_fetch('holes'); $h[] = 'next'; var_dump(array_key_last($h));
$h = apcu_fetch('reverse'); $h[] = 'next'; var_dump(array_key_last($h));
// the next free index is recomputed from the stored keys (as unserialize(serialize()) does)
$a = [0, 1, 2]; unset($a[2]);
apcu_store('unsetlast', $a); $b = apcu_fetch('unsetlast'); $b[] = 'x'; var_dump(array_key_last($b));
apcu_store('neg', [-5 => 'a']); $b = apcu_fetch('neg'); $b[] = 'x'; var_dump(array_key_last($b));
$h = apcu_fetch('intkeys');
try { $h[] = 'overflow'; } catch (Error $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
// lookups by key work in fetched hashes (key hashes are valid)
$h = apcu_fetch('hash100');
var_dump($h['key0'], $h['key1'], $h['key98'], isset($h['key100']));
$h = apcu_fetch('numstr');
var_dump($h[10], $h['010'], $h[-7], $h['-0']);
$h = apcu_fetch('mixedkeys');
var_dump($h[''], $h["nul\0key"], $h[10]);
?>
--EXPECT--
empty: true
packed: true
mixedtypes: true
hash: true
intkeys: true
mixedkeys: true
numstr: true
holes: true
reverse: true
nested: true
packedgrow: true
hash100: true
deep64: true
bigstr: true
empty: ok=true serialize-same=true dump-same=true count=0 keys=
packed: ok=true serialize-same=true dump-same=true count=3 keys=0,1,2
mixedtypes: ok=true serialize-same=true dump-same=true count=12 keys=0,1,2,3,4,5
hash: ok=true serialize-same=true dump-same=true count=3 keys='a','b','c'
intkeys: ok=true serialize-same=true dump-same=true count=5 keys=5,-3,0,9223372036854775807,-9223372036854775807-1
mixedkeys: ok=true serialize-same=true dump-same=true count=6 keys='x',10,'y',11,'','nul' . "\0" . 'key'
numstr: ok=true serialize-same=true dump-same=true count=5 keys=10,'010','1.5','-0',-7
holes: ok=true serialize-same=true dump-same=true count=3 keys=0,2,3
reverse: ok=true serialize-same=true dump-same=true count=4 keys=3,2,1,0
nested: ok=true serialize-same=true dump-same=true count=3 keys='list','map','both'
packedgrow: ok=true serialize-same=true dump-same=true count=100 keys=0,1,2,3,4,5
hash100: ok=true serialize-same=true dump-same=true count=100 keys='key0','key1','key2','key3','key4','key5'
deep64: ok=true serialize-same=true dump-same=true count=2 keys='level','next'
bigstr: ok=true serialize-same=true dump-same=true count=2 keys='s','t'
array(12) {
  [0]=>
  NULL
  [1]=>
  bool(true)
  [2]=>
  bool(false)
  [3]=>
  int(0)
  [4]=>
  int(-1)
  [5]=>
  float(1.5)
  [6]=>
  float(NAN)
  [7]=>
  float(-0)
  [8]=>
  string(0) ""
  [9]=>
  string(3) "str"
  [10]=>
  array(0) {
  }
  [11]=>
  array(1) {
    [0]=>
    array(0) {
    }
  }
}
array(5) {
  [5]=>
  string(4) "five"
  [-3]=>
  string(11) "minus three"
  [0]=>
  string(4) "zero"
  [9223372036854775807]=>
  string(3) "max"
  [-9223372036854775808]=>
  string(3) "min"
}
613a363a7b733a313a2278223b693a313b693a31303b693a323b733a313a2279223b693a333b693a31313b693a343b733a303a22223b733a383a22656d7074796b6579223b733a373a226e756c006b6579223b733a333a226e756c223b7d
array(5) {
  [10]=>
  string(19) "int key from string"
  ["010"]=>
  string(10) "string key"
  ["1.5"]=>
  string(10) "string key"
  ["-0"]=>
  string(10) "string key"
  [-7]=>
  string(7) "int key"
}
array(3) {
  [0]=>
  string(1) "a"
  [2]=>
  string(1) "c"
  [3]=>
  string(1) "d"
}
array(4) {
  [3]=>
  string(1) "c"
  [2]=>
  string(1) "b"
  [1]=>
  string(1) "a"
  [0]=>
  string(1) "z"
}
array(3) {
  ["list"]=>
  array(2) {
    [0]=>
    int(1)
    [1]=>
    array(2) {
      [0]=>
      int(2)
      [1]=>
      array(2) {
        [0]=>
        int(3)
        [1]=>
        array(1) {
          [0]=>
          int(4)
        }
      }
    }
  }
  ["map"]=>
  array(1) {
    ["k"]=>
    array(1) {
      ["k2"]=>
      array(1) {
        ["k3"]=>
        string(4) "deep"
      }
    }
  }
  ["both"]=>
  array(2) {
    [0]=>
    array(1) {
      ["a"]=>
      int(1)
    }
    [1]=>
    array(1) {
      ["b"]=>
      int(2)
    }
  }
}
int(4)
int(4)
int(2)
int(-4)
Error: Cannot add element to the array as the next element is already occupied
int(0)
string(2) "v1"
array(1) {
  [0]=>
  int(98)
}
bool(false)
string(19) "int key from string"
string(10) "string key"
string(7) "int key"
string(10) "string key"
string(8) "emptykey"
string(3) "nul"
int(2)
