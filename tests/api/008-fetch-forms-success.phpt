--TEST--
apcu_fetch: string and array forms, the by-reference $success flag
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
apcu_store(['a' => 'A', 'b' => 'B', 'c' => 'C', 'false' => false, 'null' => null, 'empty' => '', 'zero' => 0]);

echo "-- string form\n";
$ok = 'untouched';
var_dump(apcu_fetch('a', $ok), $ok);
$ok = 'untouched';
var_dump(apcu_fetch('missing', $ok), $ok);
$ok = 'untouched';
var_dump(apcu_fetch('false', $ok), $ok);     // a stored false is a hit
$ok = 'untouched';
var_dump(apcu_fetch('null', $ok), $ok);
$ok = null;
var_dump(apcu_fetch('empty', $ok), $ok);
var_dump(apcu_fetch('zero', $ok), $ok);
var_dump(apcu_fetch('A', $ok), $ok);         // keys are case sensitive
var_dump(apcu_fetch('a '));                  // and not trimmed

echo "-- array form: hits only, in request order\n";
$ok = 'untouched';
var_dump(apcu_fetch(['c', 'missing', 'a', 'false', 'null'], $ok), $ok);
$ok = 'untouched';
var_dump(apcu_fetch(['missing1', 'missing2'], $ok), $ok);   // success is true even with no hit
$ok = 'untouched';
var_dump(apcu_fetch([], $ok), $ok);
var_dump(apcu_fetch(['x' => 'a', 'y' => 'b']));             // the request's keys are irrelevant
var_dump(apcu_fetch(['a', 'b', 'a']));                       // duplicates collapse

echo "-- success written to different kinds of variables\n";
var_dump(apcu_fetch('a', $undefined), $undefined);
$arr = [];
var_dump(apcu_fetch('missing', $arr['slot']), $arr);
$obj = new stdClass;
apcu_fetch('b', $obj->flag);
var_dump($obj->flag);
$r = 'x';
$rr = &$r;
apcu_fetch('missing', $rr);
var_dump($r);

echo "-- named arguments\n";
var_dump(apcu_fetch(key: 'a', success: $named), $named);
?>
--EXPECT--
-- string form
string(1) "A"
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
NULL
bool(true)
string(0) ""
bool(true)
int(0)
bool(true)
bool(false)
bool(false)
bool(false)
-- array form: hits only, in request order
array(4) {
  ["c"]=>
  string(1) "C"
  ["a"]=>
  string(1) "A"
  ["false"]=>
  bool(false)
  ["null"]=>
  NULL
}
bool(true)
array(0) {
}
bool(true)
array(0) {
}
bool(true)
array(2) {
  ["a"]=>
  string(1) "A"
  ["b"]=>
  string(1) "B"
}
array(2) {
  ["a"]=>
  string(1) "A"
  ["b"]=>
  string(1) "B"
}
-- success written to different kinds of variables
string(1) "A"
bool(true)
bool(false)
array(1) {
  ["slot"]=>
  bool(false)
}
bool(true)
bool(false)
-- named arguments
string(1) "A"
bool(true)
