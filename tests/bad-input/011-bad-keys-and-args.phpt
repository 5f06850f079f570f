--TEST--
Wrong key and argument types: warnings, errors and key conversions
--DESCRIPTION--
Covers warnings, TypeErrors, ArgumentCountErrors and the conversions applied
to keys.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
$names = [E_WARNING => 'Warning', E_NOTICE => 'Notice', E_DEPRECATED => 'Deprecated'];
set_error_handler(function ($no, $str) use ($names) { echo $names[$no] ?? $no, ': ', $str, "\n"; return true; });
function t(callable $f) {
    try { var_dump($f()); }
    catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
class Str { public function __toString(): string { return 'strkey'; } }

apcu_store(['5' => 'five', '1.5' => 'one.five', '1' => 'one', '' => 'empty', 'strkey' => 'from __toString']);

echo "-- store/add: key must be a string or an array\n";
foreach ([5, 1.5, null, true, false, new stdClass, new Str] as $key) {
    echo get_debug_type($key), ":\n";
    t(fn() => apcu_store($key, 'v'));
    t(fn() => apcu_add($key, 'v'));
}
var_dump(apcu_fetch('strkey'));   // the Str key above did not overwrite it

echo "-- ttl must be an int\n";
t(fn() => apcu_store('t1', 1, 'abc'));
t(fn() => apcu_store('t2', 1, '5 apples'));
t(fn() => apcu_store('t3', 1, []));
t(fn() => apcu_store('t4', 1, new stdClass));
t(fn() => apcu_store('t5', 1, 1.5));
t(fn() => apcu_store('t6', 1, NAN));
t(fn() => apcu_store('t7', 1, 1e30));
t(fn() => apcu_add('t8', 1, 'abc'));
t(fn() => apcu_store(['t9' => 1], null, 'abc'));
t(fn() => apcu_store('t10', 1, null));
t(fn() => apcu_store('t11', 1, '60'));
t(fn() => apcu_store('t12', 1, 2.0));
t(fn() => apcu_store('t13', 1, true));
var_dump(apcu_exists(['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9', 't10', 't11', 't12', 't13']));

echo "-- fetch/exists convert a scalar key to a string\n";
t(fn() => apcu_fetch(5));
t(fn() => apcu_fetch(5.0));
t(fn() => apcu_fetch(1.5));
t(fn() => apcu_fetch(true));
t(fn() => apcu_fetch(false));
t(fn() => apcu_fetch(null));
t(fn() => apcu_fetch(new Str));
t(fn() => apcu_fetch(new stdClass));
t(fn() => apcu_exists(5));
t(fn() => apcu_exists(1.5));
t(fn() => apcu_exists(true));
t(fn() => apcu_exists(null));
t(fn() => apcu_exists(99));
t(fn() => apcu_exists(new Str));
t(fn() => apcu_exists(new stdClass));

echo "-- fetch/exists array form: non-string elements are skipped with a warning\n";
t(fn() => apcu_fetch(['strkey', 5, null, 1.5, true, ['strkey'], new Str, '']));
t(fn() => apcu_exists(['strkey', 5, null, ['strkey'], new Str, '']));
$ok = 'untouched';
t(function () use (&$ok) { return apcu_fetch([5], $ok); });
var_dump($ok);

echo "-- delete: key must be a string or an array\n";
foreach ([5, 1.5, null, true, false] as $key) {
    echo get_debug_type($key), ":\n";
    t(fn() => apcu_delete($key));
}
// (per-key checks: APCu's array-form results use non-canonical numeric string keys)
var_dump(array_map('apcu_exists', ['5', '1.5', '1', '']));
echo "array with non-string elements (they are returned as not deleted):\n";
t(fn() => apcu_delete([5, 'strkey', null, 1.5, false, ['x'], 'missing']));
var_dump(apcu_exists('5'), apcu_exists('strkey'));

echo "-- argument counts\n";
t(fn() => apcu_store());
t(fn() => apcu_store('a', 1, 2, 3));
t(fn() => apcu_add());
t(fn() => apcu_add('a', 1, 2, 3));
t(fn() => apcu_fetch());
t(fn() => apcu_fetch('a', $x, 3));
t(fn() => apcu_exists());
t(fn() => apcu_exists('a', 'b'));
t(fn() => apcu_delete());
t(fn() => apcu_delete('a', 'b'));
t(fn() => apcu_clear_cache(1));
t(fn() => apcu_enabled(1));
t(fn() => apcu_fetch('a', 'literal'));
?>
--EXPECTF--
-- store/add: key must be a string or an array
int:
Warning: apcu_store(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
Warning: apcu_add(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
float:
Warning: apcu_store(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
Warning: apcu_add(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
null:
Warning: apcu_store(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
Warning: apcu_add(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
bool:
Warning: apcu_store(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
Warning: apcu_add(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
bool:
Warning: apcu_store(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
Warning: apcu_add(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
stdClass:
Warning: apcu_store(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
Warning: apcu_add(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
Str:
Warning: apcu_store(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
Warning: apcu_add(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
string(15) "from __toString"
-- ttl must be an int
TypeError: apcu_store(): Argument #3 ($ttl) must be of type int, string given
TypeError: apcu_store(): Argument #3 ($ttl) must be of type int, string given
TypeError: apcu_store(): Argument #3 ($ttl) must be of type int, array given
TypeError: apcu_store(): Argument #3 ($ttl) must be of type int, stdClass given
Deprecated: Implicit conversion from float 1.5 to int loses precision
bool(true)
TypeError: apcu_store(): Argument #3 ($ttl) must be of type int, float given
TypeError: apcu_store(): Argument #3 ($ttl) must be of type int, float given
TypeError: apcu_add(): Argument #3 ($ttl) must be of type int, string given
TypeError: apcu_store(): Argument #3 ($ttl) must be of type int, string given
Deprecated: apcu_store(): Passing null to parameter #3 ($ttl) of type int is deprecated
bool(true)
bool(true)
bool(true)
bool(true)
array(5) {
  ["t5"]=>
  bool(true)
  ["t10"]=>
  bool(true)
  ["t11"]=>
  bool(true)
  ["t12"]=>
  bool(true)
  ["t13"]=>
  bool(true)
}
-- fetch/exists convert a scalar key to a string
string(4) "five"
string(4) "five"
string(8) "one.five"
string(3) "one"
string(5) "empty"
string(5) "empty"
string(15) "from __toString"
Error: Object of class stdClass could not be converted to string
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
Error: Object of class stdClass could not be converted to string
-- fetch/exists array form: non-string elements are skipped with a warning
Warning: apcu_fetch(): apc_fetch() expects a string or array of strings.
Warning: apcu_fetch(): apc_fetch() expects a string or array of strings.
Warning: apcu_fetch(): apc_fetch() expects a string or array of strings.
Warning: apcu_fetch(): apc_fetch() expects a string or array of strings.
Warning: apcu_fetch(): apc_fetch() expects a string or array of strings.
Warning: apcu_fetch(): apc_fetch() expects a string or array of strings.
array(2) {
  ["strkey"]=>
  string(15) "from __toString"
  [""]=>
  string(5) "empty"
}
Warning: apcu_exists(): apc_exists() expects a string or array of strings.
Warning: apcu_exists(): apc_exists() expects a string or array of strings.
Warning: apcu_exists(): apc_exists() expects a string or array of strings.
Warning: apcu_exists(): apc_exists() expects a string or array of strings.
array(2) {
  ["strkey"]=>
  bool(true)
  [""]=>
  bool(true)
}
Warning: apcu_fetch(): apc_fetch() expects a string or array of strings.
array(0) {
}
bool(true)
-- delete: key must be a string or an array
int:
Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance
bool(false)
float:
Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance
bool(false)
null:
Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance
bool(false)
bool:
Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance
bool(false)
bool:
Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance
bool(false)
array(4) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
  [2]=>
  bool(true)
  [3]=>
  bool(true)
}
array with non-string elements (they are returned as not deleted):
Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance
Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance
Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance
Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance
Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance
array(6) {
  [0]=>
  int(5)
  [1]=>
  NULL
  [2]=>
  float(1.5)
  [3]=>
  bool(false)
  [4]=>
  array(1) {
    [0]=>
    string(1) "x"
  }
  [5]=>
  string(7) "missing"
}
bool(true)
bool(false)
-- argument counts
ArgumentCountError: apcu_store() expects at least 1 argument, 0 given
ArgumentCountError: apcu_store() expects at most 3 arguments, 4 given
ArgumentCountError: apcu_add() expects at least 1 argument, 0 given
ArgumentCountError: apcu_add() expects at most 3 arguments, 4 given
ArgumentCountError: apcu_fetch() expects at least 1 argument, 0 given
ArgumentCountError: apcu_fetch() expects at most 2 arguments, 3 given
ArgumentCountError: apcu_exists() expects exactly 1 argument, 0 given
ArgumentCountError: apcu_exists() expects exactly 1 argument, 2 given
ArgumentCountError: apcu_delete() expects exactly 1 argument, 0 given
ArgumentCountError: apcu_delete() expects exactly 1 argument, 2 given
ArgumentCountError: apcu_clear_cache() expects exactly 0 arguments, 1 given
ArgumentCountError: apcu_enabled() expects exactly 0 arguments, 1 given
Error: apcu_fetch(): Argument #2 ($success) %r(cannot|could not)%r be passed by reference
