--TEST--
apc.serializer naming no registered serializer: the default quietly, as in APCu
--DESCRIPTION--
ini_get still shows the name.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
?>
--INI--
apc.enable_cli=1
apc.serializer=nope
--FILE--
<?php
require __DIR__ . '/../lib/serializer.inc';
serializer_roundtrip();
serializer_sleep_probe();
var_dump(ini_get('apc.serializer'));
$row = shardcache_info_row('Serializer');
var_dump($row === null || $row === "default (apc.serializer 'nope' is not registered)");
?>
--EXPECTF--
-- int
bool(true)
bool(true)
int(42)
-- str
bool(true)
bool(true)
string(4) "text"
-- plain
bool(true)
bool(true)
array(2) {
  ["x"]=>
  array(5) {
    [0]=>
    int(1)
    [1]=>
    float(2.5)
    [2]=>
    string(1) "y"
    [3]=>
    NULL
    [4]=>
    bool(true)
  }
  [7]=>
  int(-1)
}
-- obj
bool(true)
SerP::__wakeup
bool(true)
object(SerP)#6 (3) {
  ["a"]=>
  int(1)
  ["b":protected]=>
  array(2) {
    [0]=>
    int(1)
    [1]=>
    int(2)
  }
  ["c":"SerP":private]=>
  string(1) "x"
}
-- objs
bool(true)
SerP::__wakeup
bool(true)
array(3) {
  ["first"]=>
  object(SerP)#7 (3) {
    ["a"]=>
    int(1)
    ["b":protected]=>
    array(2) {
      [0]=>
      int(1)
      [1]=>
      int(2)
    }
    ["c":"SerP":private]=>
    string(1) "x"
  }
  ["again"]=>
  object(SerP)#7 (3) {
    ["a"]=>
    int(1)
    ["b":protected]=>
    array(2) {
      [0]=>
      int(1)
      [1]=>
      int(2)
    }
    ["c":"SerP":private]=>
    string(1) "x"
  }
  ["u"]=>
  object(SerU)#8 (1) {
    ["v"]=>
    int(41)
  }
}
bool(true)
-- enum
bool(true)
bool(true)
enum(SerE::B)
-- ref
bool(true)
bool(true)
array(3) {
  [0]=>
  &int(1)
  [1]=>
  int(2)
  [2]=>
  &int(1)
}
string(29) "changed through the reference"
-- std
bool(true)
bool(true)
object(stdClass)#8 (1) {
  ["p"]=>
  array(1) {
    [0]=>
    int(1)
  }
}
-- closure
Exception: Serialization of 'Closure' is not allowed
bool(false)
-- sleep probe

Warning: apcu_store(): "nope" returned as member variable from __sleep() but does not exist in %sserializer.inc on line %d
bool(true)
object(SerQ)#%d (1) {
  ["a"]=>
  int(1)
}
string(4) "nope"
bool(true)
