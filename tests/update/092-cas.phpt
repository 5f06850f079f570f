--TEST--
apcu_cas: replaces an int only when it equals $old, never inserts
--DESCRIPTION--
Non-int values and expired entries are left alone; argument errors are
covered too.
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
    try { echo json_encode($f()), "\n"; }
    catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
function now(string $key): string {
    $v = apcu_fetch($key, $hit);
    return $hit ? var_export($v, true) : '<missing>';
}

echo "-- never inserts\n";
var_dump(apcu_cas('missing', 0, 1), apcu_exists('missing'));
var_dump(apcu_cas('missing', 1, 1), apcu_exists('missing'));

echo "-- compares and swaps\n";
apcu_store('c', 5);
var_dump(apcu_cas('c', 4, 1), now('c'));
var_dump(apcu_cas('c', 6, 1), now('c'));
var_dump(apcu_cas('c', 5, 7), now('c'));
var_dump(apcu_cas('c', 5, 8), now('c'));
var_dump(apcu_cas('c', 7, 7), now('c'));
var_dump(apcu_cas('c', 7, -7), now('c'));
var_dump(apcu_cas('c', -7, 0), now('c'));
var_dump(apcu_cas('c', 0, PHP_INT_MAX), now('c'));
var_dump(apcu_cas('c', PHP_INT_MAX, PHP_INT_MIN), now('c'));
var_dump(apcu_cas('c', PHP_INT_MIN, 1), now('c'));
echo "-- the new value is an ordinary int for inc/dec/fetch\n";
var_dump(apcu_inc('c', 10), apcu_cas('c', 11, 2), apcu_dec('c'), now('c'));
echo "-- ints from every kind of store\n";
var_dump(apcu_store(['arr' => 3]), apcu_cas('arr', 3, 4), now('arr'));
var_dump(apcu_add('added', 3), apcu_cas('added', 3, 4), now('added'));
var_dump(apcu_inc('from_inc'), apcu_cas('from_inc', 1, 4), now('from_inc'));
var_dump(apcu_entry('from_entry', fn() => 3), apcu_cas('from_entry', 3, 4), now('from_entry'));

echo "-- values that are not ints are never replaced\n";
$values = [
    'numeric string' => '7', 'string' => 'abc', 'empty string' => '', 'float' => 7.0, 'zero float' => 0.0,
    'null' => null, 'true' => true, 'false' => false, 'array' => [7], 'empty array' => [],
    'object' => new ArrayObject([7]),
];
foreach ($values as $label => $v) {
    apcu_store("nonint:$label", $v);
    $r = [apcu_cas("nonint:$label", 7, 8), apcu_cas("nonint:$label", 0, 8), apcu_cas("nonint:$label", 1, 8)];
    echo str_pad($label, 15), ': ', json_encode($r), ' now=', now("nonint:$label"), "\n";
}

echo "-- expired and deleted entries are missing\n";
apcu_store('expired', 1, -1);
var_dump(apcu_cas('expired', 1, 2), now('expired'));
apcu_store('deleted', 1);
apcu_delete('deleted');
var_dump(apcu_cas('deleted', 1, 2), now('deleted'));
apcu_store('cleared', 1);
apcu_clear_cache();
var_dump(apcu_cas('cleared', 1, 2), now('cleared'));

echo "-- keys\n";
class Str { public function __toString(): string { return 'strkey'; } }
t('empty key', fn() => [apcu_cas('', 0, 1), apcu_inc(''), apcu_cas('', 1, 5), apcu_fetch('')]);
t('int key', fn() => [apcu_store('12', 1), apcu_cas(12, 1, 5), apcu_fetch('12')]);
t('Stringable key', fn() => [apcu_store('strkey', 1), apcu_cas(new Str, 1, 5), apcu_fetch('strkey')]);
t('nul in key', fn() => [apcu_store("n\0", 1), apcu_cas('n', 1, 5), apcu_cas("n\0", 1, 6), apcu_fetch("n\0")]);

echo "-- arguments\n";
apcu_store('a', 10);
t('no args', fn() => apcu_cas());
t('two args', fn() => apcu_cas('a', 1));
t('four args', fn() => apcu_cas('a', 1, 2, 3));
t('array key', fn() => apcu_cas(['a'], 10, 2));
t('object key', fn() => apcu_cas(new stdClass, 10, 2));
t('null key', fn() => apcu_cas(null, 10, 2));
t('string old', fn() => apcu_cas('a', 'x', 2));
t('string new', fn() => apcu_cas('a', 10, 'x'));
t('numeric string old', fn() => [apcu_cas('a', '10', 11), apcu_fetch('a')]);
t('integral float old', fn() => [apcu_cas('a', 11.0, 12), apcu_fetch('a')]);
t('fractional float new', fn() => [apcu_cas('a', 12, 12.5), apcu_fetch('a')]);
t('fractional float old', fn() => [apcu_cas('a', 12.5, 13), apcu_fetch('a')]);
t('huge float old', fn() => apcu_cas('a', 1e30, 13));
t('null old', fn() => [apcu_cas('a', null, 1), apcu_fetch('a')]);
t('bool new', fn() => [apcu_cas('a', 12, true), apcu_fetch('a')]);
t('array new', fn() => apcu_cas('a', 1, []));
t('named', fn() => [apcu_cas(new: 20, old: 1, key: 'a'), apcu_cas(key: 'a', old: 1, new: 20), apcu_fetch('a')]);
?>
--EXPECT--
-- never inserts
bool(false)
bool(false)
bool(false)
bool(false)
-- compares and swaps
bool(false)
string(1) "5"
bool(false)
string(1) "5"
bool(true)
string(1) "7"
bool(false)
string(1) "7"
bool(true)
string(1) "7"
bool(true)
string(2) "-7"
bool(true)
string(1) "0"
bool(true)
string(19) "9223372036854775807"
bool(true)
string(22) "-9223372036854775807-1"
bool(true)
string(1) "1"
-- the new value is an ordinary int for inc/dec/fetch
int(11)
bool(true)
int(1)
string(1) "1"
-- ints from every kind of store
array(0) {
}
bool(true)
string(1) "4"
bool(true)
bool(true)
string(1) "4"
int(1)
bool(true)
string(1) "4"
int(3)
bool(true)
string(1) "4"
-- values that are not ints are never replaced
numeric string : [false,false,false] now='7'
string         : [false,false,false] now='abc'
empty string   : [false,false,false] now=''
float          : [false,false,false] now=7.0
zero float     : [false,false,false] now=0.0
null           : [false,false,false] now=NULL
true           : [false,false,false] now=true
false          : [false,false,false] now=false
array          : [false,false,false] now=array (
  0 => 7,
)
empty array    : [false,false,false] now=array (
)
object         : [false,false,false] now=\ArrayObject::__set_state(array(
   0 => 7,
))
-- expired and deleted entries are missing
bool(false)
string(9) "<missing>"
bool(false)
string(9) "<missing>"
bool(false)
string(9) "<missing>"
-- keys
empty key: [false,1,true,5]
int key: [true,true,5]
Stringable key: [true,true,5]
nul in key: [true,false,true,6]
-- arguments
no args: ArgumentCountError: apcu_cas() expects exactly 3 arguments, 0 given
two args: ArgumentCountError: apcu_cas() expects exactly 3 arguments, 2 given
four args: ArgumentCountError: apcu_cas() expects exactly 3 arguments, 4 given
array key: TypeError: apcu_cas(): Argument #1 ($key) must be of type string, array given
object key: TypeError: apcu_cas(): Argument #1 ($key) must be of type string, stdClass given
null key: Deprecated: apcu_cas(): Passing null to parameter #1 ($key) of type string is deprecated
false
string old: TypeError: apcu_cas(): Argument #2 ($old) must be of type int, string given
string new: TypeError: apcu_cas(): Argument #3 ($new) must be of type int, string given
numeric string old: [true,11]
integral float old: [true,12]
fractional float new: Deprecated: Implicit conversion from float 12.5 to int loses precision
[true,12]
fractional float old: Deprecated: Implicit conversion from float 12.5 to int loses precision
[true,13]
huge float old: TypeError: apcu_cas(): Argument #2 ($old) must be of type int, float given
null old: Deprecated: apcu_cas(): Passing null to parameter #2 ($old) of type int is deprecated
[false,13]
bool new: [false,13]
array new: TypeError: apcu_cas(): Argument #3 ($new) must be of type int, array given
named: [false,false,13]
