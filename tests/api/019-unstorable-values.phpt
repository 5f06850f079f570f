--TEST--
Values that cannot be stored are refused; fetch-time exceptions reach the caller
--DESCRIPTION--
Values that cannot be stored: resources, closures, anonymous classes, and
objects whose __sleep or __serialize throws. Exceptions thrown at fetch time
are covered too.
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
class ThrowSleep { public $a = 1; public function __sleep() { throw new RuntimeException('__sleep failed'); } }
class ThrowSerialize {
    public function __serialize(): array { throw new RuntimeException('__serialize failed'); }
    public function __unserialize(array $d): void {}
}
class MissingProp { public $a = 1; public function __sleep() { return ['a', 'nope']; } }
class NotArraySleep { public $a = 1; public function __sleep() { return 5; } }
class ThrowWakeup { public $a = 1; public function __wakeup() { throw new LogicException('__wakeup failed'); } }
class ThrowUnserialize {
    public function __serialize(): array { return ['x' => 1]; }
    public function __unserialize(array $d): void { throw new LogicException('__unserialize failed'); }
}
$res = fopen('php://memory', 'r');
$closure = function () { return 1; };
$anon = new class { public $p = 1; };

echo "-- top level: refused, nothing stored, an existing entry is kept\n";
apcu_store(['k1' => 'old1', 'k2' => 'old2', 'k3' => 'old3', 'k4' => 'old4', 'k5' => 'old5']);
t('resource', fn() => apcu_store('k1', $res));
t('STDIN', fn() => apcu_store('stdin', STDIN));
t('closure', fn() => apcu_store('k2', $closure));
t('first-class callable', fn() => apcu_store('fcc', strlen(...)));
t('anonymous class', fn() => apcu_store('k3', $anon));
t('throwing __sleep', fn() => apcu_store('k4', new ThrowSleep));
t('throwing __serialize', fn() => apcu_store('k5', new ThrowSerialize));
t('add resource', fn() => apcu_add('new1', $res));
t('add closure', fn() => apcu_add('new2', $closure));
var_dump(apcu_fetch(['k1', 'k2', 'k3', 'k4', 'k5']));
var_dump(apcu_exists('stdin'), apcu_exists('fcc'), apcu_exists('new1'), apcu_exists('new2'));

echo "-- nested: resources become int(0), objects that cannot be serialized refuse the whole value\n";
t('nested resource', fn() => apcu_store('nr', [1, ['r' => $res, 's' => 'x']]));
var_dump(apcu_fetch('nr'));
$o = new stdClass;
$o->res = $res;
t('resource in object', fn() => apcu_store('ro', $o));
var_dump(apcu_fetch('ro')->res);
t('nested closure', fn() => apcu_store('k1', ['ok' => 1, 'c' => $closure]));
t('nested anonymous class', fn() => apcu_store('k1', [[$anon]]));
t('nested throwing __sleep', fn() => apcu_store('k1', ['a' => [new ThrowSleep]]));
t('nested throwing __serialize', fn() => apcu_store('k1', [new ThrowSerialize]));
var_dump(apcu_fetch('k1'));

echo "-- array form: every key is attempted, even after an exception (which then replaces the return value)\n";
t('resource in array form', fn() => apcu_store(['m1' => 1, 'm2' => $res, 'm3' => 3]));
var_dump(apcu_fetch(['m1', 'm2', 'm3']));
t('closure in array form', fn() => apcu_store(['m4' => 4, 'm5' => $closure, 'm6' => 6]));
var_dump(apcu_fetch(['m4', 'm5', 'm6']));
t('throwing __sleep in add array form', fn() => apcu_add(['m7' => 7, 'm8' => new ThrowSleep, 'm9' => 9]));
var_dump(apcu_fetch(['m7', 'm8', 'm9']));

echo "-- serialization warnings are reported under the calling function's name\n";
t('__sleep names a missing property', fn() => apcu_store('mp', new MissingProp));
ob_start(); var_dump(apcu_fetch('mp')); echo preg_replace('/#\d+ /', '#N ', ob_get_clean());
t('__sleep returns a non-array', fn() => apcu_store('na', new NotArraySleep));
var_dump(apcu_fetch('na', $ok), $ok);

echo "-- exceptions while rebuilding a value propagate out of apcu_fetch; the entry stays\n";
t('store ThrowWakeup', fn() => apcu_store('tw', new ThrowWakeup));
t('fetch ThrowWakeup', fn() => apcu_fetch('tw'));
t('store ThrowUnserialize', fn() => apcu_store('tu', ['x' => new ThrowUnserialize]));
t('fetch ThrowUnserialize', fn() => apcu_fetch('tu'));
t('fetch array form', fn() => apcu_fetch(['k2', 'tu']));
var_dump(apcu_exists('tw'), apcu_exists('tu'));
?>
--EXPECT--
-- top level: refused, nothing stored, an existing entry is kept
resource: Warning: apcu_store(): Cannot store resources in apcu cache
bool(false)
STDIN: Warning: apcu_store(): Cannot store resources in apcu cache
bool(false)
closure: Exception: Serialization of 'Closure' is not allowed
first-class callable: Exception: Serialization of 'Closure' is not allowed
anonymous class: Exception: Serialization of 'class@anonymous' is not allowed
throwing __sleep: RuntimeException: __sleep failed
throwing __serialize: RuntimeException: __serialize failed
add resource: Warning: apcu_add(): Cannot store resources in apcu cache
bool(false)
add closure: Exception: Serialization of 'Closure' is not allowed
array(5) {
  ["k1"]=>
  string(4) "old1"
  ["k2"]=>
  string(4) "old2"
  ["k3"]=>
  string(4) "old3"
  ["k4"]=>
  string(4) "old4"
  ["k5"]=>
  string(4) "old5"
}
bool(false)
bool(false)
bool(false)
bool(false)
-- nested: resources become int(0), objects that cannot be serialized refuse the whole value
nested resource: bool(true)
array(2) {
  [0]=>
  int(1)
  [1]=>
  array(2) {
    ["r"]=>
    int(0)
    ["s"]=>
    string(1) "x"
  }
}
resource in object: bool(true)
int(0)
nested closure: Exception: Serialization of 'Closure' is not allowed
nested anonymous class: Exception: Serialization of 'class@anonymous' is not allowed
nested throwing __sleep: RuntimeException: __sleep failed
nested throwing __serialize: RuntimeException: __serialize failed
string(4) "old1"
-- array form: every key is attempted, even after an exception (which then replaces the return value)
resource in array form: Warning: apcu_store(): Cannot store resources in apcu cache
array(1) {
  ["m2"]=>
  int(-1)
}
array(2) {
  ["m1"]=>
  int(1)
  ["m3"]=>
  int(3)
}
closure in array form: Exception: Serialization of 'Closure' is not allowed
array(2) {
  ["m4"]=>
  int(4)
  ["m6"]=>
  int(6)
}
throwing __sleep in add array form: RuntimeException: __sleep failed
array(2) {
  ["m7"]=>
  int(7)
  ["m9"]=>
  int(9)
}
-- serialization warnings are reported under the calling function's name
__sleep names a missing property: Warning: apcu_store(): "nope" returned as member variable from __sleep() but does not exist
bool(true)
object(MissingProp)#N (1) {
  ["a"]=>
  int(1)
}
__sleep returns a non-array: Warning: apcu_store(): NotArraySleep::__sleep() should return an array only containing the names of instance-variables to serialize
bool(true)
NULL
bool(true)
-- exceptions while rebuilding a value propagate out of apcu_fetch; the entry stays
store ThrowWakeup: bool(true)
fetch ThrowWakeup: LogicException: __wakeup failed
store ThrowUnserialize: bool(true)
fetch ThrowUnserialize: LogicException: __unserialize failed
fetch array form: LogicException: __unserialize failed
bool(true)
bool(true)
