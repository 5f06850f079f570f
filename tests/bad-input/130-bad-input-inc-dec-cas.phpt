--TEST--
Bad input to apcu_inc/apcu_dec/apcu_cas
--DESCRIPTION--
Non-int entries, wrong argument types, odd keys and negative ttls.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
$names = [E_WARNING => 'Warning', E_NOTICE => 'Notice', E_DEPRECATED => 'Deprecated'];
set_error_handler(function ($no, $str) use ($names) { echo $names[$no] ?? $no, ': ', $str, "\n"; return true; });
function t(string $label, callable $f) {
    echo $label, ': ';
    try { var_dump($f()); }
    catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}

echo "-- entries that are not ints are left alone\n";
apcu_store(['str' => 'abc', 'numstr' => '5', 'flt' => 1.5, 'arr' => [1], 'nul' => null, 'tru' => true,
            'obj' => (object) ['a' => 1]]);
foreach (['str', 'numstr', 'flt', 'arr', 'nul', 'tru', 'obj'] as $k) {
    $ok = 'untouched';
    echo "$k: ";
    var_dump(apcu_inc($k, 1, $ok), $ok, apcu_dec($k, 1, $ok), $ok, apcu_cas($k, 1, 2));
    echo "$k after: ", str_replace("\n", ' ', var_export(apcu_fetch($k), true)), "\n";
}

echo "-- step and ttl must be ints\n";
apcu_store('int', 10);
t('step string', fn() => apcu_inc('int', 'abc'));
t('step numeric string', fn() => apcu_inc('int', '5'));
t('step float', fn() => apcu_inc('int', 1.5));
t('step integral float', fn() => apcu_inc('int', 2.0));
t('step null', fn() => apcu_inc('int', null));
t('step array', fn() => apcu_inc('int', []));
t('step object', fn() => apcu_dec('int', new stdClass));
t('step 0', fn() => apcu_inc('int', 0));
t('negative step', fn() => apcu_inc('int', -100));
t('negative dec step', fn() => apcu_dec('int', -100));
t('ttl string', fn() => apcu_inc('int', 1, $ok, 'x'));
t('ttl float', fn() => apcu_dec('int', 1, $ok, 1.5));
t('success literal', fn() => apcu_inc('int', 1, 5));
t('too many', fn() => apcu_inc('int', 1, $ok, 0, 5));
t('none', fn() => apcu_dec());
var_dump(apcu_fetch('int'));

echo "-- keys\n";
t('key array', fn() => apcu_inc(['int'], 1));
t('key object', fn() => apcu_dec(new stdClass, 1));
t('key int', fn() => apcu_inc(5, 1));
t('key float', fn() => apcu_inc(2.5, 1));
t('key null', fn() => apcu_inc(null, 1));
t('key bool', fn() => apcu_dec(true, 1));
var_dump(apcu_fetch(['5', '2.5', '', '1']));
t('empty key', fn() => apcu_inc('', 3));
t('nul key', fn() => apcu_inc("a\0b", 3));
var_dump(apcu_fetch("a\0b"), apcu_exists('a'), apcu_exists("a\0"));
$long = str_repeat('k', 100000);
t('long key', fn() => [apcu_inc($long, 7), apcu_inc($long, 7), apcu_fetch($long), apcu_exists(substr($long, 1))]);

echo "-- a missing key with a negative ttl is not created\n";
t('inc', fn() => apcu_inc('neg1', 1, $ok, -1));
t('dec', fn() => apcu_dec('neg2', 1, $ok, -5));
var_dump(apcu_exists(['neg1', 'neg2']));
$ok = 'untouched';
var_dump(apcu_inc('neg3', 1, $ok, -1), $ok);
apcu_store('live', 1);
t('existing key with a negative ttl', fn() => apcu_inc('live', 1, $ok, -1));
var_dump(apcu_fetch('live'));

echo "-- cas\n";
t('missing', fn() => apcu_cas('missing', 0, 1));
var_dump(apcu_exists('missing'));
t('wrong old', fn() => apcu_cas('int', 12345, 1));
t('right old', fn() => apcu_cas('int', apcu_fetch('int'), 77));
t('numeric strings', fn() => apcu_cas('int', '77', '78'));
t('integral float', fn() => apcu_cas('int', 78.0, 79));
t('non-numeric old', fn() => apcu_cas('int', 'x', 1));
t('array new', fn() => apcu_cas('int', 79, []));
t('key array', fn() => apcu_cas(['int'], 79, 2));
t('too few', fn() => apcu_cas('int', 79));
t('too many', fn() => apcu_cas('int', 79, 80, 81));
var_dump(apcu_fetch('int'));
t('extremes', fn() => [apcu_store('big', PHP_INT_MAX), apcu_cas('big', PHP_INT_MAX, PHP_INT_MIN), apcu_fetch('big'),
                       apcu_inc('big', 0), apcu_cas('big', PHP_INT_MIN, PHP_INT_MAX), apcu_fetch('big')]);
t('expired entry', fn() => [apcu_store('exp', 5, -1), apcu_cas('exp', 5, 6), apcu_exists('exp'),
                            apcu_inc('exp', 2), apcu_fetch('exp')]);
?>
--EXPECTF--
-- entries that are not ints are left alone
str: bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
str after: 'abc'
numstr: bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
numstr after: '5'
flt: bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
flt after: 1.5
arr: bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
arr after: array (   0 => 1, )
nul: bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
nul after: NULL
tru: bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
tru after: true
obj: bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
obj after: (object) array(    'a' => 1, )
-- step and ttl must be ints
step string: TypeError: apcu_inc(): Argument #2 ($step) must be of type int, string given
step numeric string: int(15)
step float: Deprecated: Implicit conversion from float 1.5 to int loses precision
int(16)
step integral float: int(18)
step null: Deprecated: apcu_inc(): Passing null to parameter #2 ($step) of type int is deprecated
int(18)
step array: TypeError: apcu_inc(): Argument #2 ($step) must be of type int, array given
step object: TypeError: apcu_dec(): Argument #2 ($step) must be of type int, stdClass given
step 0: int(18)
negative step: int(-82)
negative dec step: int(18)
ttl string: TypeError: apcu_inc(): Argument #4 ($ttl) must be of type int, string given
ttl float: Deprecated: Implicit conversion from float 1.5 to int loses precision
int(17)
success literal: Error: apcu_inc(): Argument #3 ($success) %r(cannot|could not)%r be passed by reference
too many: ArgumentCountError: apcu_inc() expects at most 4 arguments, 5 given
none: ArgumentCountError: apcu_dec() expects at least 1 argument, 0 given
int(17)
-- keys
key array: TypeError: apcu_inc(): Argument #1 ($key) must be of type string, array given
key object: TypeError: apcu_dec(): Argument #1 ($key) must be of type string, stdClass given
key int: int(1)
key float: int(1)
key null: Deprecated: apcu_inc(): Passing null to parameter #1 ($key) of type string is deprecated
int(1)
key bool: int(-1)
array(4) {
  ["5"]=>
  int(1)
  ["2.5"]=>
  int(1)
  [""]=>
  int(1)
  ["1"]=>
  int(-1)
}
empty key: int(4)
nul key: int(3)
int(3)
bool(false)
bool(false)
long key: array(4) {
  [0]=>
  int(7)
  [1]=>
  int(14)
  [2]=>
  int(14)
  [3]=>
  bool(false)
}
-- a missing key with a negative ttl is not created
inc: bool(false)
dec: bool(false)
array(0) {
}
bool(false)
bool(false)
existing key with a negative ttl: int(2)
int(2)
-- cas
missing: bool(false)
bool(false)
wrong old: bool(false)
right old: bool(true)
numeric strings: bool(true)
integral float: bool(true)
non-numeric old: TypeError: apcu_cas(): Argument #2 ($old) must be of type int, string given
array new: TypeError: apcu_cas(): Argument #3 ($new) must be of type int, array given
key array: TypeError: apcu_cas(): Argument #1 ($key) must be of type string, array given
too few: ArgumentCountError: apcu_cas() expects exactly 3 arguments, 2 given
too many: ArgumentCountError: apcu_cas() expects exactly 3 arguments, 4 given
int(79)
extremes: array(6) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
  [2]=>
  int(-9223372036854775808)
  [3]=>
  int(-9223372036854775808)
  [4]=>
  bool(true)
  [5]=>
  int(9223372036854775807)
}
expired entry: array(5) {
  [0]=>
  bool(true)
  [1]=>
  bool(false)
  [2]=>
  bool(false)
  [3]=>
  int(2)
  [4]=>
  int(2)
}
