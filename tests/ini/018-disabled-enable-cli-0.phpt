--TEST--
apc.enable_cli=0 in the CLI: the cache is disabled, as with apc.enabled=0
--DESCRIPTION--
apc.enabled still reads "1"; the functions behave as with apc.enabled=0.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=0
apc.enabled=1
--FILE--
<?php
var_dump(ini_get('apc.enabled'), ini_get('apc.enable_cli'));
require __DIR__ . '/../lib/disabled.inc';
?>
--EXPECT--
string(1) "1"
string(1) "0"
enabled: bool(false)
store: bool(false)
store null: bool(false)
store array: array(3) {
  ["a"]=>
  int(-1)
  ["b"]=>
  int(-1)
  [3]=>
  int(-1)
}
store empty array: array(0) {
}
add: bool(false)
add array: array(2) {
  ["a"]=>
  int(-1)
  ["b"]=>
  int(-1)
}
fetch: bool(false)
fetch array: array(0) {
}
fetch success: bool(false)
fetch array success: bool(true)
exists: bool(false)
exists array: array(0) {
}
delete: bool(false)
delete array: array(2) {
  [0]=>
  string(1) "a"
  [1]=>
  string(1) "b"
}
clear_cache: bool(true)
store resource: bool(false)
store closure: bool(false)
store int key: Warning: apcu_store(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
delete int key: Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance
bool(false)
fetch array with int: Warning: apcu_fetch(): apc_fetch() expects a string or array of strings.
array(0) {
}
exists array with int: Warning: apcu_exists(): apc_exists() expects a string or array of strings.
array(0) {
}
store bad ttl: TypeError: apcu_store(): Argument #3 ($ttl) must be of type int, string given
fetch object key: Error: Object of class stdClass could not be converted to string
store no args: ArgumentCountError: apcu_store() expects at least 1 argument, 0 given
