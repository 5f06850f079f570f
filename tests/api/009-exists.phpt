--TEST--
apcu_exists: string and array forms
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
apcu_store(['a' => 1, 'b' => null, 'c' => false, '' => 'empty key', 'k7' => 7]);

echo "-- string form\n";
var_dump(apcu_exists('a'), apcu_exists('b'), apcu_exists('c'), apcu_exists(''), apcu_exists('missing'), apcu_exists('A'));

echo "-- array form: only the keys that exist, each mapped to true, in request order\n";
var_dump(apcu_exists(['c', 'missing', 'a', 'b', '']));
var_dump(apcu_exists(['missing1', 'missing2']));
var_dump(apcu_exists([]));
var_dump(apcu_exists(['x' => 'k7', 'y' => 'missing']));

echo "-- exists does not change the entry\n";
var_dump(apcu_fetch('a'));
apcu_delete('a');
var_dump(apcu_exists('a'), apcu_exists(['a']));
apcu_store('a', 2);
var_dump(apcu_exists('a'));
?>
--EXPECT--
-- string form
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
-- array form: only the keys that exist, each mapped to true, in request order
array(4) {
  ["c"]=>
  bool(true)
  ["a"]=>
  bool(true)
  ["b"]=>
  bool(true)
  [""]=>
  bool(true)
}
array(0) {
}
array(0) {
}
array(1) {
  ["k7"]=>
  bool(true)
}
-- exists does not change the entry
int(1)
bool(false)
array(0) {
}
bool(true)
