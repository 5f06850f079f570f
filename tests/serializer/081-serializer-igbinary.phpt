--TEST--
apc.serializer=igbinary with igbinary: values round-trip through igbinary
--DESCRIPTION--
igbinary registers through APCu's apc_register_serializer hook. Values
round-trip, igbinary does the serializing (its __sleep notice), and phpinfo
lists it.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
if (extension_loaded('igbinary')) die('skip igbinary already loaded');
if (!file_exists(ini_get('extension_dir') . '/igbinary.so')) die('skip igbinary.so not installed');
?>
--INI--
apc.enable_cli=1
extension=igbinary.so
apc.serializer=igbinary
--FILE--
<?php
require __DIR__ . '/../lib/serializer.inc';
serializer_roundtrip();
serializer_sleep_probe();
ob_start();
(new ReflectionExtension('apcu'))->info();
var_dump(preg_match('/^Serialization Support => php, igbinary$/m', ob_get_clean()));
$row = shardcache_info_row('Serializer');
var_dump($row === null || $row === 'igbinary');
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

Notice: apcu_store(): "nope" returned as member variable from __sleep() but does not exist in %sserializer.inc on line %d
bool(true)

Deprecated: apcu_fetch(): Creation of dynamic property SerQ::$nope is deprecated in %sserializer.inc on line %d
object(SerQ)#%d (2) {
  ["a"]=>
  int(1)
  ["nope"]=>
  NULL
}
int(1)
bool(true)
