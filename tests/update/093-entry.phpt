--TEST--
apcu_entry: the callback runs only on a miss, its result is stored and returned
--DESCRIPTION--
The callback gets the key. Exceptions propagate and store nothing. Nested
calls, unstorable results and argument errors are covered too.
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
    try { echo var_export($f(), true), "\n"; }
    catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
function now(string $key): string {
    $v = apcu_fetch($key, $hit);
    return $hit ? var_export($v, true) : '<missing>';
}

echo "-- runs on a miss with the key, stores and returns the result\n";
$calls = [];
$cb = function ($k) use (&$calls) { $calls[] = func_get_args(); return "value of $k"; };
var_dump(apcu_entry('e', $cb), now('e'));
var_dump(apcu_entry('e', $cb), apcu_entry('e', fn() => 'other'));
var_dump($calls);
echo "-- an existing entry is returned as stored, whatever stored it\n";
apcu_store('pre', ['stored' => 'before']);
var_dump(apcu_entry('pre', fn() => 'not called'));
apcu_inc('counter', 5);
var_dump(apcu_entry('counter', fn() => 'not called'));
echo "-- falsy results are stored too\n";
foreach (['null' => null, 'false' => false, 'zero' => 0, 'empty string' => '', 'empty array' => []] as $label => $v) {
    $r = apcu_entry("falsy:$label", fn() => $v);
    echo str_pad($label, 12), ': ', var_export($r, true), ' stored=', now("falsy:$label"),
        ' again=', var_export(apcu_entry("falsy:$label", fn() => 'called again'), true), "\n";
}
t('no return', fn() => [apcu_entry('void', function () { }), now('void')]);
echo "-- every kind of value\n";
$obj = new ArrayObject(['x' => 1]);
$r = apcu_entry('obj', fn() => $obj);
var_dump($r === $obj, $r, apcu_fetch('obj') == $obj, apcu_fetch('obj') !== $obj);
$arr = ['a' => [1, 2, ['deep' => 3.5]], 'o' => (object) ['p' => 1], 's' => str_repeat('x', 100000)];
var_dump(apcu_entry('arr', fn() => $arr) === $arr, apcu_fetch('arr') == $arr);
var_dump(apcu_entry('float', fn() => 1.25), apcu_entry('int', fn() => PHP_INT_MIN), apcu_entry('true', fn() => true));
echo "-- the callback may be any callable\n";
class K {
    public function m($k) { return "method:$k"; }
    public static function s($k) { return "static:$k"; }
    public function __invoke($k) { return "invoke:$k"; }
}
var_dump(apcu_entry('abc', 'strrev'), apcu_entry('m', [new K, 'm']), apcu_entry('s', 'K::s'),
         apcu_entry('s2', [K::class, 's']), apcu_entry('i', new K), apcu_entry('fcc', strtoupper(...)));
var_dump(apcu_fetch(['abc', 'm', 's', 's2', 'i', 'fcc']));
echo "-- keys are converted like every string argument\n";
class Str { public function __toString(): string { return 'strkey'; } }
t('int key', fn() => [apcu_entry(42, fn($k) => $k), now('42')]);
t('float key', fn() => [apcu_entry(1.5, fn($k) => $k), now('1.5')]);
t('Stringable key', fn() => [apcu_entry(new Str, fn($k) => $k), now('strkey')]);
t('empty key', fn() => [apcu_entry('', fn($k) => "empty:$k"), now('')]);
t('nul in key', fn() => [apcu_entry("n\0", fn($k) => strlen($k)), now("n\0"), now('n')]);

echo "-- an exception in the callback propagates and stores nothing\n";
try {
    apcu_entry('ex', function ($k) { throw new RuntimeException("boom $k"); });
    echo "not reached\n";
} catch (RuntimeException $e) {
    echo 'caught: ', $e->getMessage(), "\n";
}
var_dump(apcu_exists('ex'));
t('next call runs again', fn() => [apcu_entry('ex', fn() => 'ok now'), now('ex')]);
t('Error', fn() => apcu_entry('ex2', function () { return intdiv(1, 0); }));
t('TypeError in the call', fn() => apcu_entry('typed', function (int $k) { return $k; }));
t('too few params', fn() => apcu_entry('two', fn($a, $b) => 1));
t('by-reference param', fn() => [apcu_entry('byref', function (&$k) { $k = 'changed'; return $k; }), now('byref')]);
var_dump(apcu_exists(['ex2', 'typed', 'two']));
echo "-- exception from an inner apcu_entry: the outer one stores nothing either\n";
t('nested throw', fn() => apcu_entry('outer_ex', fn() => 'x' . apcu_entry('inner_ex', function () { throw new LogicException('inner'); })));
var_dump(apcu_exists(['outer_ex', 'inner_ex']));
t('caught inside', fn() => [apcu_entry('outer_ok', function () {
    try { apcu_entry('inner_ex', function () { throw new LogicException('inner'); }); } catch (LogicException $e) { return 'recovered'; }
}), now('outer_ok'), now('inner_ex')]);

echo "-- nested apcu_entry for other keys\n";
t('two levels', fn() => [apcu_entry('outer', fn($k) => "$k+" . apcu_entry('inner', fn($k2) => "in:$k2")), now('outer'), now('inner')]);
t('three levels', fn() => apcu_entry('l1', fn() => [apcu_entry('l2', fn() => [apcu_entry('l3', fn() => 3), 2]), 1]));
var_dump(apcu_fetch(['l1', 'l2', 'l3']));
t('inner already there', fn() => apcu_entry('outer2', fn() => apcu_entry('inner', fn() => 'not called')));
echo "-- other cache functions inside the callback\n";
t('store/inc/delete inside', fn() => [apcu_entry('busy', function () {
    apcu_store('side', 1);
    apcu_inc('side');
    apcu_delete('inner');
    return apcu_fetch('side');
}), now('busy'), now('side'), now('inner')]);
t('clear inside', fn() => [apcu_entry('ci', function () { apcu_clear_cache(); return 'after clear'; }), now('ci'), now('busy')]);
t('fetch own key inside', fn() => [apcu_entry('own', fn($k) => apcu_fetch($k, $ok) === false && !$ok ? 'was missing' : 'was there'), now('own')]);

echo "-- expired entries are recomputed; ttl\n";
apcu_store('expired', 'old', -1);
t('expired', fn() => [apcu_entry('expired', fn() => 'new'), now('expired')]);
t('negative ttl', fn() => [apcu_entry('negttl', fn() => 'neg', -1), now('negttl')]);
t('ttl 100', fn() => [apcu_entry('ttl100', fn() => 'kept', 100), now('ttl100')]);
t('ttl ignored on a hit', fn() => [apcu_entry('ttl100', fn() => 'x', -1), now('ttl100')]);

echo "-- results that cannot be stored are still returned\n";
$f = fopen('php://memory', 'r');
t('resource', fn() => [is_resource(apcu_entry('res', fn() => $f)), now('res')]);
t('closure', fn() => apcu_entry('clo', fn() => fn() => 1));
t('array holding a closure', fn() => apcu_entry('clo2', fn() => ['f' => fn() => 1]));
t('object that cannot be serialized', fn() => apcu_entry('gen', function () { yield 1; }));
var_dump(apcu_exists(['res', 'clo', 'clo2', 'gen']));

echo "-- argument errors\n";
t('no args', fn() => apcu_entry());
t('one arg', fn() => apcu_entry('a'));
t('four args', fn() => apcu_entry('a', fn() => 1, 0, 1));
t('unknown function', fn() => apcu_entry('a', 'no_such_function'));
t('int callback', fn() => apcu_entry('a', 5));
t('array key', fn() => apcu_entry(['a'], fn() => 1));
t('object key', fn() => apcu_entry(new stdClass, fn() => 1));
t('null key', fn() => [apcu_entry(null, fn($k) => var_export($k, true))]);
t('string ttl', fn() => apcu_entry('a', fn() => 1, 'x'));
t('float ttl', fn() => apcu_entry('a', fn() => 1, 1.5));
t('named', fn() => [apcu_entry(callback: fn($k) => "<$k>", key: 'named', ttl: 0), now('named')]);
var_dump(apcu_exists('a'));
?>
--EXPECTF--
-- runs on a miss with the key, stores and returns the result
string(10) "value of e"
string(12) "'value of e'"
string(10) "value of e"
string(10) "value of e"
array(1) {
  [0]=>
  array(1) {
    [0]=>
    string(1) "e"
  }
}
-- an existing entry is returned as stored, whatever stored it
array(1) {
  ["stored"]=>
  string(6) "before"
}
int(5)
-- falsy results are stored too
null        : NULL stored=NULL again=NULL
false       : false stored=false again=false
zero        : 0 stored=0 again=0
empty string: '' stored='' again=''
empty array : array (
) stored=array (
) again=array (
)
no return: array (
  0 => NULL,
  1 => 'NULL',
)
-- every kind of value
bool(true)
object(ArrayObject)#3 (1) {
  ["storage":"ArrayObject":private]=>
  array(1) {
    ["x"]=>
    int(1)
  }
}
bool(true)
bool(true)
bool(true)
bool(true)
float(1.25)
int(-9223372036854775808)
bool(true)
-- the callback may be any callable
string(3) "cba"
string(8) "method:m"
string(8) "static:s"
string(9) "static:s2"
string(8) "invoke:i"
string(3) "FCC"
array(6) {
  ["abc"]=>
  string(3) "cba"
  ["m"]=>
  string(8) "method:m"
  ["s"]=>
  string(8) "static:s"
  ["s2"]=>
  string(9) "static:s2"
  ["i"]=>
  string(8) "invoke:i"
  ["fcc"]=>
  string(3) "FCC"
}
-- keys are converted like every string argument
int key: array (
  0 => '42',
  1 => '\'42\'',
)
float key: array (
  0 => '1.5',
  1 => '\'1.5\'',
)
Stringable key: array (
  0 => 'strkey',
  1 => '\'strkey\'',
)
empty key: array (
  0 => 'empty:',
  1 => '\'empty:\'',
)
nul in key: array (
  0 => 2,
  1 => '2',
  2 => '<missing>',
)
-- an exception in the callback propagates and stores nothing
caught: boom ex
bool(false)
next call runs again: array (
  0 => 'ok now',
  1 => '\'ok now\'',
)
Error: DivisionByZeroError: Division by zero
TypeError in the call: TypeError: %r\{closure(:\{closure:.+093-entry\.php:\d+\}:\d+)?\}%r(): Argument #1 ($k) must be of type int, string given
too few params: ArgumentCountError: Too few arguments to function %r\{closure(:\{closure:.+093-entry\.php:\d+\}:\d+)?\}%r(), 1 passed and exactly 2 expected
by-reference param: Warning: %r\{closure(:\{closure:.+093-entry\.php:\d+\}:\d+)?\}%r(): Argument #1 ($k) must be passed by reference, value given
array (
  0 => 'changed',
  1 => '\'changed\'',
)
array(0) {
}
-- exception from an inner apcu_entry: the outer one stores nothing either
nested throw: LogicException: inner
array(0) {
}
caught inside: array (
  0 => 'recovered',
  1 => '\'recovered\'',
  2 => '<missing>',
)
-- nested apcu_entry for other keys
two levels: array (
  0 => 'outer+in:inner',
  1 => '\'outer+in:inner\'',
  2 => '\'in:inner\'',
)
three levels: array (
  0 => 
  array (
    0 => 3,
    1 => 2,
  ),
  1 => 1,
)
array(3) {
  ["l1"]=>
  array(2) {
    [0]=>
    array(2) {
      [0]=>
      int(3)
      [1]=>
      int(2)
    }
    [1]=>
    int(1)
  }
  ["l2"]=>
  array(2) {
    [0]=>
    int(3)
    [1]=>
    int(2)
  }
  ["l3"]=>
  int(3)
}
inner already there: 'in:inner'
-- other cache functions inside the callback
store/inc/delete inside: array (
  0 => 2,
  1 => '2',
  2 => '2',
  3 => '<missing>',
)
clear inside: array (
  0 => 'after clear',
  1 => '\'after clear\'',
  2 => '<missing>',
)
fetch own key inside: array (
  0 => 'was missing',
  1 => '\'was missing\'',
)
-- expired entries are recomputed; ttl
expired: array (
  0 => 'new',
  1 => '\'new\'',
)
negative ttl: array (
  0 => 'neg',
  1 => '<missing>',
)
ttl 100: array (
  0 => 'kept',
  1 => '\'kept\'',
)
ttl ignored on a hit: array (
  0 => 'kept',
  1 => '\'kept\'',
)
-- results that cannot be stored are still returned
resource: Warning: apcu_entry(): Cannot store resources in apcu cache
array (
  0 => true,
  1 => '<missing>',
)
closure: Exception: Serialization of 'Closure' is not allowed
array holding a closure: Exception: Serialization of 'Closure' is not allowed
object that cannot be serialized: Exception: Serialization of 'Generator' is not allowed
array(0) {
}
-- argument errors
no args: ArgumentCountError: apcu_entry() expects at least 2 arguments, 0 given
one arg: ArgumentCountError: apcu_entry() expects at least 2 arguments, 1 given
four args: ArgumentCountError: apcu_entry() expects at most 3 arguments, 4 given
unknown function: TypeError: apcu_entry(): Argument #2 ($callback) must be a valid callback, function "no_such_function" not found or invalid function name
int callback: TypeError: apcu_entry(): Argument #2 ($callback) must be a valid callback, no array or string given
array key: TypeError: apcu_entry(): Argument #1 ($key) must be of type string, array given
object key: TypeError: apcu_entry(): Argument #1 ($key) must be of type string, stdClass given
null key: Deprecated: apcu_entry(): Passing null to parameter #1 ($key) of type string is deprecated
array (
  0 => '\'\'',
)
string ttl: TypeError: apcu_entry(): Argument #3 ($ttl) must be of type int, string given
float ttl: Deprecated: Implicit conversion from float 1.5 to int loses precision
1
named: array (
  0 => '<named>',
  1 => '\'<named>\'',
)
bool(true)
