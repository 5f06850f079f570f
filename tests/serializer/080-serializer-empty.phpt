--TEST--
apc.serializer set to an empty string: refused, the default "php" stays
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.serializer=
--FILE--
<?php
var_dump(ini_get('apc.serializer'), apcu_store('o', new ArrayObject([1])), apcu_fetch('o'));
?>
--EXPECT--
string(3) "php"
bool(true)
object(ArrayObject)#1 (1) {
  ["storage":"ArrayObject":private]=>
  array(1) {
    [0]=>
    int(1)
  }
}
