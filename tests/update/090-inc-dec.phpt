--TEST--
apcu_inc/apcu_dec: step, &$success, missing keys, non-integers, errors
--DESCRIPTION--
Missing and expired keys start from 0, non-integer values are left alone;
key conversions and argument errors are covered too.
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
// [returned value, $success, the value fetched afterwards] as var_export text
function op(string $fn, string $key, ...$args): string {
    $ok = 'untouched';
    $r = $fn($key, $args[0] ?? 1, $ok, $args[1] ?? 0);
    $v = apcu_fetch($key, $hit);
    return var_export($r, true) . ' success=' . var_export($ok, true)
        . ' now=' . ($hit ? var_export($v, true) : '<missing>');
}

echo "-- a missing key starts from 0\n";
echo op('apcu_inc', 'i1'), "\n";
echo op('apcu_inc', 'i1'), "\n";
echo op('apcu_inc', 'i1', 10), "\n";
echo op('apcu_dec', 'd1'), "\n";
echo op('apcu_dec', 'd1', 5), "\n";
echo op('apcu_inc', 'i2', 7), "\n";
echo op('apcu_dec', 'd2', 7), "\n";
echo "-- negative and zero steps\n";
echo op('apcu_inc', 'i1', -20), "\n";
echo op('apcu_dec', 'i1', -20), "\n";
echo op('apcu_inc', 'i1', 0), "\n";
echo op('apcu_dec', 'i1', 0), "\n";
echo op('apcu_inc', 'z0', 0), "\n";
echo op('apcu_dec', 'z1', 0), "\n";
echo op('apcu_inc', 'n1', -3), "\n";
echo op('apcu_dec', 'n2', -3), "\n";
echo "-- the defaults\n";
var_dump(apcu_store('plain', 41), apcu_inc('plain'), apcu_dec('plain'), apcu_dec('plain'), apcu_fetch('plain'));

echo "-- ints stored by store/add/entry, in every form\n";
var_dump(apcu_store(['arr1' => 100, 'arr2' => -100]), apcu_inc('arr1', 5), apcu_dec('arr2', 5));
var_dump(apcu_add('added', 3), apcu_inc('added', 3));
var_dump(apcu_add(['added2' => 9]), apcu_dec('added2', 10));
var_dump(apcu_entry('from_entry', fn() => 10), apcu_inc('from_entry', 5), apcu_fetch('from_entry'));
var_dump(apcu_store('zero', 0), apcu_dec('zero'), apcu_store('negative', -5), apcu_inc('negative', 10));

echo "-- values that are not ints: false, \$success false, value untouched\n";
$values = [
    'string' => 'abc', 'numeric string' => '5', 'float string' => '2.5', 'empty string' => '',
    'float' => 1.5, 'integral float' => 7.0, 'huge float' => 1e30, 'zero float' => 0.0, 'nan' => NAN,
    'null' => null, 'true' => true, 'false' => false,
    'array' => [1], 'empty array' => [], 'object' => new ArrayObject([1]), 'stdClass' => new stdClass,
];
foreach ($values as $label => $v) {
    apcu_store("nonint:$label", $v);
    echo str_pad($label, 15), ' inc: ', op('apcu_inc', "nonint:$label"), "\n";
    echo str_pad($label, 15), ' dec: ', op('apcu_dec', "nonint:$label", 3), "\n";
}
echo var_export(apcu_fetch('nonint:object'), true), ' ', var_export(apcu_fetch('nonint:array'), true), "\n";

echo "-- expired entries (stored with a negative ttl) count as missing, whatever their type\n";
foreach (['int' => 41, 'string' => 'abc', 'array' => [1, 2]] as $label => $v) {
    apcu_store("expired:$label", $v, -1);
    echo str_pad($label, 7), ' inc: ', op('apcu_inc', "expired:$label", 2), "\n";
}
apcu_store('expired:dec', 41, -1);
echo 'int     dec: ', op('apcu_dec', 'expired:dec', 2), "\n";

echo "-- deleted, cleared, re-stored\n";
var_dump(apcu_store('gone', 50), apcu_inc('gone'), apcu_delete('gone'), apcu_inc('gone'));
var_dump(apcu_store('cleared', 50), apcu_clear_cache(), apcu_dec('cleared'));
var_dump(apcu_store('changed', 'str'), apcu_inc('changed'), apcu_store('changed', 1), apcu_inc('changed'));
var_dump(apcu_inc('changed_to_str'), apcu_store('changed_to_str', 'x'), apcu_inc('changed_to_str'), apcu_fetch('changed_to_str'));

echo "-- inc keeps the other entries alone; other keys of the same look are distinct\n";
apcu_store(['k' => 1, 'K' => 10, 'k ' => 100, "k\0" => 1000]);
var_dump(apcu_inc('k'), apcu_inc("k\0", 5));
echo var_export(apcu_fetch(['k', 'K', 'k ', "k\0"]), true), "\n";

echo "-- keys: int/float/bool/Stringable are converted to strings, the empty key works\n";
class Str { public function __toString(): string { return 'strkey'; } }
t('int key', fn() => [apcu_inc(5), apcu_inc(5), apcu_fetch('5')]);
t('float key', fn() => [apcu_inc(1.5), apcu_fetch('1.5')]);
t('bool key', fn() => [apcu_inc(true), apcu_fetch('1')]);
t('Stringable key', fn() => [apcu_dec(new Str, 2), apcu_fetch('strkey')]);
t('empty key', function () { $r = apcu_inc('', 1, $ok); return [$r, $ok, apcu_inc(''), apcu_fetch('')]; });
t('nul in key', fn() => [apcu_inc("a\0b", 2), apcu_fetch("a\0b"), apcu_exists('a')]);
t('long key', fn() => [apcu_inc(str_repeat('k', 10000), 3), apcu_fetch(str_repeat('k', 10000))]);

echo "-- &\$success may be anything that can take a reference\n";
class P { public int $i = 5; public ?bool $b = null; }
$p = new P;
t('typed int property', fn() => [apcu_inc('s1', 1, $p->i), $p->i]);
t('typed ?bool property', fn() => [apcu_inc('s1', 1, $p->b), $p->b]);
apcu_store(['str' => 'abc', 'arr' => [1]]);
t('typed ?bool property, failure', fn() => [apcu_inc('str', 1, $p->b), $p->b]);
t('typed int property, failure', fn() => [apcu_inc('str', 1, $p->i), $p->i]);
t('array element', function () { $a = []; apcu_dec('s1', 1, $a['x']); apcu_dec('arr', 1, $a['y']); return $a; });
t('by value', fn() => apcu_inc('s1', 1, null));
t('named, skipped', fn() => [apcu_inc('s1', ttl: 0), apcu_dec(key: 's1', step: 3)]);

echo "-- argument errors\n";
t('no args', fn() => apcu_inc());
t('dec no args', fn() => apcu_dec());
t('too many', fn() => apcu_inc('a', 1, $x, 0, 5));
t('array key', fn() => apcu_inc(['a']));
t('dec array key', fn() => apcu_dec(['a' => 1]));
t('null key', fn() => apcu_inc(null));
t('object key', fn() => apcu_inc(new stdClass));
t('string step', fn() => apcu_inc('a', 'x'));
t('numeric string step', fn() => [apcu_inc('a', '3'), apcu_dec('a', ' 1')]);
t('leading-numeric step', fn() => apcu_inc('a', '3 apples'));
t('float step', fn() => apcu_inc('a', 1.5));
t('integral float step', fn() => apcu_inc('a', 2.0));
t('huge float step', fn() => apcu_inc('a', 1e30));
t('null step', fn() => apcu_dec('a', null));
t('bool step', fn() => apcu_inc('a', true));
t('array step', fn() => apcu_inc('a', []));
t('string ttl', fn() => apcu_inc('a', 1, $x, 'abc'));
t('null ttl', fn() => apcu_inc('a', 1, $x, null));
t('float ttl', fn() => apcu_dec('a', 1, $x, 1.5));
t('negative ttl, missing key', function () { $r = apcu_inc('negttl', 1, $ok, -1); return [$r, $ok, apcu_exists('negttl')]; });
t('negative ttl, existing key', function () { $r = apcu_inc('a', 1, $ok, -1); return [$r, $ok, apcu_fetch('a')]; });
t('unknown named', fn() => apcu_inc('a', nope: 1));
var_dump(apcu_fetch('a'));
?>
--EXPECTF--
-- a missing key starts from 0
1 success=true now=1
2 success=true now=2
12 success=true now=12
-1 success=true now=-1
-6 success=true now=-6
7 success=true now=7
-7 success=true now=-7
-- negative and zero steps
-8 success=true now=-8
12 success=true now=12
12 success=true now=12
12 success=true now=12
0 success=true now=0
0 success=true now=0
-3 success=true now=-3
3 success=true now=3
-- the defaults
bool(true)
int(42)
int(41)
int(40)
int(40)
-- ints stored by store/add/entry, in every form
array(0) {
}
int(105)
int(-105)
bool(true)
int(6)
array(0) {
}
int(-1)
int(10)
int(15)
int(15)
bool(true)
int(-1)
bool(true)
int(5)
-- values that are not ints: false, $success false, value untouched
string          inc: false success=false now='abc'
string          dec: false success=false now='abc'
numeric string  inc: false success=false now='5'
numeric string  dec: false success=false now='5'
float string    inc: false success=false now='2.5'
float string    dec: false success=false now='2.5'
empty string    inc: false success=false now=''
empty string    dec: false success=false now=''
float           inc: false success=false now=1.5
float           dec: false success=false now=1.5
integral float  inc: false success=false now=7.0
integral float  dec: false success=false now=7.0
huge float      inc: false success=false now=1.0E+30
huge float      dec: false success=false now=1.0E+30
zero float      inc: false success=false now=0.0
zero float      dec: false success=false now=0.0
nan             inc: false success=false now=NAN
nan             dec: false success=false now=NAN
null            inc: false success=false now=NULL
null            dec: false success=false now=NULL
true            inc: false success=false now=true
true            dec: false success=false now=true
false           inc: false success=false now=false
false           dec: false success=false now=false
array           inc: false success=false now=array (
  0 => 1,
)
array           dec: false success=false now=array (
  0 => 1,
)
empty array     inc: false success=false now=array (
)
empty array     dec: false success=false now=array (
)
object          inc: false success=false now=\ArrayObject::__set_state(array(
   0 => 1,
))
object          dec: false success=false now=\ArrayObject::__set_state(array(
   0 => 1,
))
stdClass        inc: false success=false now=(object) array(
)
stdClass        dec: false success=false now=(object) array(
)
\ArrayObject::__set_state(array(
   0 => 1,
)) array (
  0 => 1,
)
-- expired entries (stored with a negative ttl) count as missing, whatever their type
int     inc: 2 success=true now=2
string  inc: 2 success=true now=2
array   inc: 2 success=true now=2
int     dec: -2 success=true now=-2
-- deleted, cleared, re-stored
bool(true)
int(51)
bool(true)
int(1)
bool(true)
bool(true)
int(-1)
bool(true)
bool(false)
bool(true)
int(2)
int(1)
bool(true)
bool(false)
string(1) "x"
-- inc keeps the other entries alone; other keys of the same look are distinct
int(2)
int(1005)
array (
  'k' => 2,
  'K' => 10,
  'k ' => 100,
  'k' . "\0" . '' => 1005,
)
-- keys: int/float/bool/Stringable are converted to strings, the empty key works
int key: [1,2,2]
float key: [1,1]
bool key: [1,1]
Stringable key: [-2,-2]
empty key: [1,true,2,2]
nul in key: [2,2,false]
long key: [3,3]
-- &$success may be anything that can take a reference
typed int property: [1,1]
typed ?bool property: [2,true]
typed ?bool property, failure: [false,false]
typed int property, failure: [false,0]
array element: {"x":true,"y":false}
by value: Error: apcu_inc(): Argument #3 ($success) %r(cannot|could not)%r be passed by reference
named, skipped: [2,-1]
-- argument errors
no args: ArgumentCountError: apcu_inc() expects at least 1 argument, 0 given
dec no args: ArgumentCountError: apcu_dec() expects at least 1 argument, 0 given
too many: ArgumentCountError: apcu_inc() expects at most 4 arguments, 5 given
array key: TypeError: apcu_inc(): Argument #1 ($key) must be of type string, array given
dec array key: TypeError: apcu_dec(): Argument #1 ($key) must be of type string, array given
null key: Deprecated: apcu_inc(): Passing null to parameter #1 ($key) of type string is deprecated
3
object key: TypeError: apcu_inc(): Argument #1 ($key) must be of type string, stdClass given
string step: TypeError: apcu_inc(): Argument #2 ($step) must be of type int, string given
numeric string step: [3,2]
leading-numeric step: TypeError: apcu_inc(): Argument #2 ($step) must be of type int, string given
float step: Deprecated: Implicit conversion from float 1.5 to int loses precision
3
integral float step: 5
huge float step: TypeError: apcu_inc(): Argument #2 ($step) must be of type int, float given
null step: Deprecated: apcu_dec(): Passing null to parameter #2 ($step) of type int is deprecated
5
bool step: 6
array step: TypeError: apcu_inc(): Argument #2 ($step) must be of type int, array given
string ttl: TypeError: apcu_inc(): Argument #4 ($ttl) must be of type int, string given
null ttl: Deprecated: apcu_inc(): Passing null to parameter #4 ($ttl) of type int is deprecated
7
float ttl: Deprecated: Implicit conversion from float 1.5 to int loses precision
6
negative ttl, missing key: [false,false,false]
negative ttl, existing key: [7,true,7]
unknown named: Error: Unknown named parameter $nope
int(7)
