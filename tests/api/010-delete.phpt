--TEST--
apcu_delete: string and array forms
--DESCRIPTION--
The array form returns the keys that could not be deleted.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
apcu_store(['a' => 1, 'b' => 2, 'c' => 3, 'd' => 4, '' => 'empty key', "n\0ul" => 5, 'arr' => [1, 2]]);

echo "-- string form\n";
var_dump(apcu_delete('a'));
var_dump(apcu_delete('a'));
var_dump(apcu_exists('a'), apcu_fetch('a'));
var_dump(apcu_delete('missing'));
var_dump(apcu_delete(''), apcu_exists(''));
var_dump(apcu_delete("n\0ul"), apcu_exists("n\0ul"));
var_dump(apcu_delete('arr'), apcu_fetch('arr'));

echo "-- array form: a list of the keys that were not deleted\n";
var_dump(apcu_delete(['b', 'missing', 'c', 'b']));
var_dump(apcu_exists(['b', 'c', 'd']));
var_dump(apcu_delete([]));
var_dump(apcu_delete(['x' => 'd', 'y' => 'missing2']));
var_dump(apcu_exists('d'));

echo "-- delete then store/add again\n";
apcu_store('e', 'first');
var_dump(apcu_delete('e'), apcu_add('e', 'second'), apcu_fetch('e'));
?>
--EXPECT--
-- string form
bool(true)
bool(false)
bool(false)
bool(false)
bool(false)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
bool(false)
-- array form: a list of the keys that were not deleted
array(2) {
  [0]=>
  string(7) "missing"
  [1]=>
  string(1) "b"
}
array(1) {
  ["d"]=>
  bool(true)
}
array(0) {
}
array(1) {
  [0]=>
  string(8) "missing2"
}
bool(false)
-- delete then store/add again
bool(true)
bool(true)
string(6) "second"
