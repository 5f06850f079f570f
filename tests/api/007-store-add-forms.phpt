--TEST--
apcu_store/apcu_add: string-key and array forms, exact return values and shapes
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
echo "-- string form\n";
var_dump(apcu_store('a', 'A'));
var_dump(apcu_store('a', 'A2'));          // overwrite
var_dump(apcu_fetch('a'));
var_dump(apcu_add('a', 'A3'));            // exists: no overwrite
var_dump(apcu_fetch('a'));
var_dump(apcu_add('b', 'B'));             // new
var_dump(apcu_fetch('b'));
var_dump(apcu_add('b', 'B2'), apcu_fetch('b'));
var_dump(apcu_store('n', null), apcu_exists('n'), apcu_add('n', 'x'), apcu_fetch('n'));
var_dump(apcu_add('f', false), apcu_add('f', true), apcu_fetch('f'));

echo "-- string form without a value stores nothing\n";
var_dump(apcu_store('novalue'));
var_dump(apcu_add('novalue'));
var_dump(apcu_exists('novalue'));
var_dump(apcu_store('a'));                // does not touch the existing entry
var_dump(apcu_fetch('a'));

echo "-- array form: success is an empty array\n";
var_dump(apcu_store(['k1' => 1, 'k2' => [2], 'k3' => 'three']));
var_dump(apcu_fetch(['k1', 'k2', 'k3']));
var_dump(apcu_store([]));
var_dump(apcu_add([]));

echo "-- array form: the value argument is ignored, the third argument is the ttl\n";
var_dump(apcu_store(['k4' => 'four'], 'ignored'));
var_dump(apcu_fetch('k4'));
var_dump(apcu_store(['k5' => 'five'], null, 3600));
var_dump(apcu_fetch('k5'));

echo "-- array form: integer keys are stored as strings\n";
var_dump(apcu_store([7 => 'seven', '8' => 'eight', '08' => 'zero-eight', -1 => 'minus one']));
var_dump(apcu_fetch('7'), apcu_fetch(7), apcu_fetch('8'), apcu_fetch('08'), apcu_fetch('-1'));

echo "-- array form of add: only the keys that were not added, with value -1\n";
var_dump(apcu_add(['k1' => 'x', 'new1' => 'N1', 'k3' => 'x', 'new2' => 'N2']));
var_dump(apcu_fetch(['k1', 'new1', 'k3', 'new2']));
var_dump(apcu_add([7 => 'x', '08' => 'x', 9 => 'nine']));
var_dump(apcu_fetch('7'), apcu_fetch('9'));
var_dump(apcu_add(['new1' => 1, 'new2' => 2]));
var_dump(apcu_add(['fresh' => 1]));

echo "-- array form: a referenced value is stored by value\n";
$v = 'ref';
$in = ['byref' => &$v];
var_dump(apcu_store($in));
$v = 'changed';
var_dump(apcu_fetch('byref'));

echo "-- array form: nested values are stored whole\n";
var_dump(apcu_store(['outer' => ['inner' => ['x' => 1]]]));
var_dump(apcu_fetch('outer'), apcu_exists('inner'));
?>
--EXPECT--
-- string form
bool(true)
bool(true)
string(2) "A2"
bool(false)
string(2) "A2"
bool(true)
string(1) "B"
bool(false)
string(1) "B"
bool(true)
bool(true)
bool(false)
NULL
bool(true)
bool(false)
bool(false)
-- string form without a value stores nothing
bool(false)
bool(false)
bool(false)
bool(false)
string(2) "A2"
-- array form: success is an empty array
array(0) {
}
array(3) {
  ["k1"]=>
  int(1)
  ["k2"]=>
  array(1) {
    [0]=>
    int(2)
  }
  ["k3"]=>
  string(5) "three"
}
array(0) {
}
array(0) {
}
-- array form: the value argument is ignored, the third argument is the ttl
array(0) {
}
string(4) "four"
array(0) {
}
string(4) "five"
-- array form: integer keys are stored as strings
array(0) {
}
string(5) "seven"
string(5) "seven"
string(5) "eight"
string(10) "zero-eight"
string(9) "minus one"
-- array form of add: only the keys that were not added, with value -1
array(2) {
  ["k1"]=>
  int(-1)
  ["k3"]=>
  int(-1)
}
array(4) {
  ["k1"]=>
  int(1)
  ["new1"]=>
  string(2) "N1"
  ["k3"]=>
  string(5) "three"
  ["new2"]=>
  string(2) "N2"
}
array(2) {
  [7]=>
  int(-1)
  ["08"]=>
  int(-1)
}
string(5) "seven"
string(4) "nine"
array(2) {
  ["new1"]=>
  int(-1)
  ["new2"]=>
  int(-1)
}
array(0) {
}
-- array form: a referenced value is stored by value
array(0) {
}
string(3) "ref"
-- array form: nested values are stored whole
array(0) {
}
array(1) {
  ["inner"]=>
  array(1) {
    ["x"]=>
    int(1)
  }
}
bool(false)
