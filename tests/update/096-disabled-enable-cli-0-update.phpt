--TEST--
apc.enable_cli=0: inc/dec/cas return false, apcu_entry null without a callback
--DESCRIPTION--
apcu_inc/apcu_dec/apcu_cas return false; apcu_entry returns null without
calling its callback.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=0
--FILE--
<?php
require __DIR__ . '/../lib/disabled-update.inc';
?>
--EXPECT--
bool(false)
inc: array(2) {
  [0]=>
  bool(false)
  [1]=>
  bool(false)
}
dec: array(2) {
  [0]=>
  bool(false)
  [1]=>
  bool(false)
}
inc defaults: bool(false)
cas: bool(false)
store then inc: array(3) {
  [0]=>
  bool(false)
  [1]=>
  bool(false)
  [2]=>
  bool(false)
}
entry: NULL
entry again: NULL
callback calls: int(0)
entry resource: NULL
entry closure: NULL
entry throwing: NULL
fetch: array(0) {
}
inc array key: TypeError: apcu_inc(): Argument #1 ($key) must be of type string, array given
dec bad step: TypeError: apcu_dec(): Argument #2 ($step) must be of type int, string given
cas bad old: TypeError: apcu_cas(): Argument #2 ($old) must be of type int, string given
cas two args: ArgumentCountError: apcu_cas() expects exactly 3 arguments, 2 given
entry bad callback: TypeError: apcu_entry(): Argument #2 ($callback) must be a valid callback, function "no_such_function" not found or invalid function name
entry no callback: ArgumentCountError: apcu_entry() expects at least 2 arguments, 1 given
