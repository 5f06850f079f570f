--TEST--
References and shared objects inside a stored array keep their identity
--DESCRIPTION--
PHP references and shared objects inside stored arrays keep their identity
within the fetched value.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
function dump(...$vs) { foreach ($vs as $v) { ob_start(); var_dump($v); echo preg_replace('/#\d+ /', '#N ', ob_get_clean()); } }

echo "-- two elements of one array bound by reference\n";
$a = [1, 2];
$a[2] = &$a[0];
var_dump(apcu_store('ref', $a));
$b = apcu_fetch('ref');
var_dump($b);
$b[0] = 99;
var_dump($b[2]);
var_dump(apcu_fetch('ref')[0]);   // the stored value is untouched

echo "-- reference shared by keys of nested arrays\n";
$x = 'shared';
$n = ['p' => &$x, 'inner' => ['q' => &$x, 'r' => 'plain']];
unset($x);
var_dump(apcu_store('nested', $n));
$m = apcu_fetch('nested');
var_dump($m);
$m['inner']['q'] = 'changed';
var_dump($m['p'], $m['inner']['r']);

echo "-- reference to a variable outside the array\n";
$y = 5;
$c = ['solo' => &$y, 'other' => 6];
var_dump(apcu_store('solo', $c));
$y = 500;   // the stored copy must not follow the variable
var_dump(apcu_fetch('solo'));

echo "-- array that contains a reference to itself\n";
$s = ['first'];
$s[1] = &$s;
var_dump(apcu_store('self', $s));
$t = apcu_fetch('self');
var_dump($t);
var_dump($t[1][1][1][0]);

echo "-- the same object twice, and an object cycle\n";
$o = new stdClass;
$o->v = 1;
var_dump(apcu_store('objs', [$o, $o, 'in' => ['o' => $o]]));
$f = apcu_fetch('objs');
var_dump($f[0] === $f[1], $f[0] === $f['in']['o'], $f[0] !== $o);
$f[0]->v = 2;
var_dump($f[1]->v, $f['in']['o']->v, $o->v);
$cyc = new stdClass;
$cyc->self = $cyc;
$cyc->arr = [$cyc];
var_dump(apcu_store('cycle', $cyc));
$g = apcu_fetch('cycle');
dump($g);
var_dump($g->self === $g, $g->arr[0] === $g);

echo "-- objects and references mixed\n";
$z = 1;
$mix = ['o' => $o, 'r1' => &$z, 'r2' => &$z];
var_dump(apcu_store('mix', $mix));
$h = apcu_fetch('mix');
$h['r1'] = 'via r1';
var_dump($h['r2'], $h['o']->v);

echo "-- storing a reference variable stores its value\n";
$val = 'hello';
$ref = &$val;
var_dump(apcu_store('topref', $ref));
$val = 'changed';
var_dump(apcu_fetch('topref'));
?>
--EXPECT--
-- two elements of one array bound by reference
bool(true)
array(3) {
  [0]=>
  &int(1)
  [1]=>
  int(2)
  [2]=>
  &int(1)
}
int(99)
int(1)
-- reference shared by keys of nested arrays
bool(true)
array(2) {
  ["p"]=>
  &string(6) "shared"
  ["inner"]=>
  array(2) {
    ["q"]=>
    &string(6) "shared"
    ["r"]=>
    string(5) "plain"
  }
}
string(7) "changed"
string(5) "plain"
-- reference to a variable outside the array
bool(true)
array(2) {
  ["solo"]=>
  int(5)
  ["other"]=>
  int(6)
}
-- array that contains a reference to itself
bool(true)
array(2) {
  [0]=>
  string(5) "first"
  [1]=>
  &array(2) {
    [0]=>
    string(5) "first"
    [1]=>
    *RECURSION*
  }
}
string(5) "first"
-- the same object twice, and an object cycle
bool(true)
bool(true)
bool(true)
bool(true)
int(2)
int(2)
int(1)
bool(true)
object(stdClass)#N (2) {
  ["self"]=>
  *RECURSION*
  ["arr"]=>
  array(1) {
    [0]=>
    *RECURSION*
  }
}
bool(true)
bool(true)
-- objects and references mixed
bool(true)
string(6) "via r1"
int(1)
-- storing a reference variable stores its value
bool(true)
string(5) "hello"
