--TEST--
apcu_fetch(array): __wakeup changing a key or the key array never crashes
--DESCRIPTION--
The value's __wakeup changes a key behind a reference (to an int, an array,
or an object), or changes the key array itself.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
if (!extension_loaded('shardcache')) die('skip APCu 5.1.22 crashes here');
?>
--INI--
apc.enable_cli=1
apc.serializer=php
--FILE--
<?php
class ToInt { public $x = 1; function __wakeup() { $GLOBALS['ref'] = 42; } }
class ToArray { public $x = 2; function __wakeup() { $GLOBALS['ref'] = [str_repeat('z', 10)]; } }
class Grow { public $x = 3; function __wakeup() { for ($i = 0; $i < 100; $i++) { $GLOBALS['keys'][] = "grown$i"; } } }
apcu_store('to_int', new ToInt);
apcu_store('to_array', new ToArray);
apcu_store('grow', new Grow);
apcu_store('plain', 'v');

$ref = str_repeat('to_int', 1);     // not interned
$keys = [&$ref, 'plain'];
$r = apcu_fetch($keys);
var_dump(array_keys($r), $r['to_int']->x, $r['plain'], $ref);

$ref = 'to_' . 'array';
$keys = ['plain', &$ref];
$r = apcu_fetch($keys);
var_dump(array_keys($r), $r['to_array']->x, $ref);

$keys = ['grow', 'plain'];
$r = apcu_fetch($keys, $ok);
var_dump(array_keys($r), $ok, count($keys));
echo "done\n";
?>
--EXPECT--
array(2) {
  [0]=>
  string(6) "to_int"
  [1]=>
  string(5) "plain"
}
int(1)
string(1) "v"
int(42)
array(2) {
  [0]=>
  string(5) "plain"
  [1]=>
  string(8) "to_array"
}
int(2)
array(1) {
  [0]=>
  string(10) "zzzzzzzzzz"
}
array(2) {
  [0]=>
  string(4) "grow"
  [1]=>
  string(5) "plain"
}
bool(true)
int(102)
done
