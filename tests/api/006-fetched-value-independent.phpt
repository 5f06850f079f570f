--TEST--
Stored values are snapshots: later changes to the original or a copy don't leak
--DESCRIPTION--
Mutating the original after the store, or mutating a fetched copy, changes
nothing stored.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
function dump(...$vs) { foreach ($vs as $v) { ob_start(); var_dump($v); echo preg_replace('/#\d+ /', '#N ', ob_get_clean()); } }
echo "-- mutate the original after store\n";
$str = str_repeat('a', 5);
$arr = ['n' => 1, 'list' => [1, 2, 3], 's' => $str, 'deep' => ['x' => ['y' => 'z']]];
$obj = new stdClass;
$obj->p = 'orig';
$obj->arr = [1];
$elemRef = &$arr['list'][0];
var_dump(apcu_store(['str' => $str, 'arr' => $arr, 'obj' => $obj]));
$str[0] = 'X';
$arr['n'] = 2;
$arr['list'][] = 4;
$arr['deep']['x']['y'] = 'changed';
$arr['new'] = true;
$elemRef = 'through reference';
$obj->p = 'changed';
$obj->arr[] = 2;
$obj->added = 1;
var_dump(apcu_fetch('str'));
var_dump(apcu_fetch('arr') === ['n' => 1, 'list' => [1, 2, 3], 's' => 'aaaaa', 'deep' => ['x' => ['y' => 'z']]]);
dump(apcu_fetch('obj'));

echo "-- mutate a fetched copy\n";
$f = apcu_fetch('arr');
$f['n'] = 100;
$f['list'][0] = 'first';
$f['deep']['x']['y'] = 'fetched-changed';
$f['s'][0] = 'Z';
unset($f['deep']);
$g = apcu_fetch('arr');
var_dump($g['n'], $g['list'][0], $g['s'], $g['deep']['x']['y']);
$s = apcu_fetch('str');
$s[1] = 'Q';
$s .= 'tail';
var_dump(apcu_fetch('str'));
$o = apcu_fetch('obj');
$o->p = 'fetched-changed';
$o->arr[0] = 'x';
var_dump(apcu_fetch('obj')->p, apcu_fetch('obj')->arr);

echo "-- two fetches are two independent copies\n";
$a1 = apcu_fetch('arr');
$a2 = apcu_fetch('arr');
$a1['list'][] = 'only in a1';
var_dump(count($a1['list']), count($a2['list']));
$o1 = apcu_fetch('obj');
$o2 = apcu_fetch('obj');
var_dump($o1 === $o2, $o1 == $o2);
$o1->p = 'o1';
var_dump($o2->p);

echo "-- array form returns copies too\n";
$m = apcu_fetch(['arr', 'obj']);
$m['arr']['n'] = -1;
$m['obj']->p = 'multi';
var_dump(apcu_fetch('arr')['n'], apcu_fetch('obj')->p);
?>
--EXPECT--
-- mutate the original after store
array(0) {
}
string(5) "aaaaa"
bool(true)
object(stdClass)#N (2) {
  ["p"]=>
  string(4) "orig"
  ["arr"]=>
  array(1) {
    [0]=>
    int(1)
  }
}
-- mutate a fetched copy
int(1)
int(1)
string(5) "aaaaa"
string(1) "z"
string(5) "aaaaa"
string(4) "orig"
array(1) {
  [0]=>
  int(1)
}
-- two fetches are two independent copies
int(4)
int(3)
bool(false)
bool(true)
string(4) "orig"
-- array form returns copies too
int(1)
string(4) "orig"
