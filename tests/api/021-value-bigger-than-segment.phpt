--TEST--
A value bigger than the segment is refused cleanly; the cache keeps working
--DESCRIPTION--
The store returns false, with no warning.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=1M
--FILE--
<?php
$names = [E_WARNING => 'Warning', E_NOTICE => 'Notice', E_DEPRECATED => 'Deprecated'];
set_error_handler(function ($no, $str) use ($names) { echo $names[$no] ?? $no, ': ', $str, "\n"; return true; });
$big = str_repeat('x', 2 * 1024 * 1024);
var_dump(apcu_store('small', 'before'));
var_dump(apcu_store('big', $big));
var_dump(apcu_exists('big'), apcu_fetch('big', $ok), $ok);
var_dump(apcu_add('big', $big));
var_dump(apcu_store('small', $big));            // a failed overwrite keeps the old value
var_dump(apcu_fetch('small'));
var_dump(apcu_store(['big1' => $big, 'fits' => 'yes', 'big2' => [$big]]));
var_dump(apcu_fetch(['big1', 'fits', 'big2']));
var_dump(apcu_add(['big3' => $big]));
var_dump(apcu_store('bigarray', array_fill(0, 4, str_repeat('y', 512 * 1024))));
var_dump(apcu_store('bigkey' . str_repeat('k', 2 * 1024 * 1024), 1));
var_dump(apcu_store('after', 'still works'), apcu_fetch('after'), apcu_fetch('small'));
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
string(6) "before"
array(2) {
  ["big1"]=>
  int(-1)
  ["big2"]=>
  int(-1)
}
array(1) {
  ["fits"]=>
  string(3) "yes"
}
array(1) {
  ["big3"]=>
  int(-1)
}
bool(false)
bool(false)
bool(true)
string(11) "still works"
string(6) "before"
