--TEST--
Hard values: deep nesting, reference recursion, object cycles, wide arrays
--DESCRIPTION--
Deep nesting (arrays, objects, both), recursion through references, object
cycles, very wide arrays and odd array keys.
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
function deep(int $n, $leaf = 'leaf') { $v = $leaf; for ($i = 0; $i < $n; $i++) $v = [$v]; return $v; }
function depth($v) { $d = 0; while (is_array($v)) { $v = $v[0] ?? $v['n'] ?? null; $d++; } return $d; }
echo "-- deep nesting\n";
foreach ([511, 512, 513, 600, 3000] as $n) {
    $v = deep($n);
    echo $n, ': ', var_export(apcu_store("deep$n", $v), true), ' ';
    $g = apcu_fetch("deep$n");
    echo depth($g), ' ', var_export($g == $v, true), "\n";
}
$o = new stdClass; $cur = $o;
for ($i = 0; $i < 1000; $i++) { $cur->n = new stdClass; $cur = $cur->n; }
$cur->leaf = true;
t('deep objects', fn() => apcu_store('deepobj', $o));
$g = apcu_fetch('deepobj'); $d = 0; while (isset($g->n)) { $g = $g->n; $d++; } var_dump($d, $g->leaf);
$mixed = 'x'; for ($i = 0; $i < 700; $i++) $mixed = $i % 2 ? ['n' => $mixed] : (object) ['n' => $mixed];
t('deep mixed', fn() => apcu_store('deepmixed', $mixed));
var_dump(serialize(apcu_fetch('deepmixed')) === serialize($mixed));

echo "-- recursion through references\n";
$a = [1]; $a[] = &$a;
t('self', fn() => apcu_store('self', $a));
$g = apcu_fetch('self'); var_dump($g[0], $g[1][1][1][0], is_array($g[1][1][1][1]));
$x = ['a' => 1]; $y = ['b' => &$x]; $x['y'] = &$y;
t('mutual', fn() => apcu_store('mutual', $x));
$g = apcu_fetch('mutual'); var_dump($g['a'], $g['y']['b']['y']['b']['a']);
$arr = ['k' => 'v']; $arr['me'] = &$arr;
t('array form value is recursive', fn() => apcu_store(['rec1' => $arr, 'plain' => 'p']));
var_dump(apcu_fetch('rec1')['me']['me']['k'], apcu_fetch('plain'));
$keys = ['r1' => 1]; $keys['r2'] = &$keys;
t('array form with a key array that holds itself', fn() => apcu_store($keys));
var_dump(apcu_fetch('r1'), apcu_fetch('r2')['r1'] ?? null);
t('fetch list with a reference to itself', function () { $l = ['r1']; $l[] = &$l; return apcu_fetch($l); });
t('exists list with a reference', function () { $k = 'r1'; $l = [&$k, 'nope']; return apcu_exists($l); });
t('delete list with references', function () { $k = 'r1'; $l = [&$k]; return [apcu_delete($l), apcu_exists('r1')]; });
$o1 = new stdClass; $o2 = new stdClass; $o1->o = $o2; $o2->o = $o1;
t('object cycle', fn() => apcu_store('ocycle', [$o1, $o2]));
$g = apcu_fetch('ocycle'); var_dump($g[0]->o === $g[1], $g[1]->o === $g[0]);

echo "-- wide values\n";
$wide = range(0, 199999);
t('200k ints', fn() => apcu_store('wide', $wide));
var_dump(apcu_fetch('wide') === $wide);
$assoc = []; for ($i = 0; $i < 50000; $i++) $assoc["key$i"] = $i % 7 ? "v$i" : [$i];
t('50k assoc', fn() => apcu_store('assoc', $assoc));
var_dump(apcu_fetch('assoc') === $assoc);
$bigkeys = [str_repeat('k', 100000) => 1, '' => 2, "\0" => 3, PHP_INT_MAX => 4, PHP_INT_MIN => 5];
t('odd array keys', fn() => apcu_store('oddkeys', $bigkeys));
var_dump(apcu_fetch('oddkeys') === $bigkeys);
$sparse = [PHP_INT_MAX => 'a', 0 => 'b', -1 => 'c'];
t('sparse', fn() => apcu_store('sparse', $sparse));
var_dump(apcu_fetch('sparse') === $sparse);
t('array form 20k keys', function () { $m = []; for ($i = 0; $i < 20000; $i++) $m["m$i"] = $i; return apcu_store($m); });
var_dump(count(apcu_fetch(array_map(fn($i) => "m$i", range(0, 19999)))));
var_dump(count(apcu_exists(array_map(fn($i) => "m$i", range(0, 19999)))));
var_dump(apcu_delete(array_map(fn($i) => "m$i", range(0, 19999))));
echo "-- the cache still works\n";
var_dump(apcu_store('after', 'ok'), apcu_fetch('after'));
?>
--EXPECT--
-- deep nesting
511: true 511 true
512: true 512 true
513: true 513 true
600: true 600 true
3000: true 3000 true
deep objects: bool(true)
int(1000)
bool(true)
deep mixed: bool(true)
bool(true)
-- recursion through references
self: bool(true)
int(1)
int(1)
bool(true)
mutual: bool(true)
int(1)
int(1)
array form value is recursive: array(0) {
}
string(1) "v"
string(1) "p"
array form with a key array that holds itself: array(0) {
}
int(1)
int(1)
fetch list with a reference to itself: Warning: apcu_fetch(): apc_fetch() expects a string or array of strings.
array(1) {
  ["r1"]=>
  int(1)
}
exists list with a reference: array(1) {
  ["r1"]=>
  bool(true)
}
delete list with references: array(2) {
  [0]=>
  array(0) {
  }
  [1]=>
  bool(false)
}
object cycle: bool(true)
bool(true)
bool(true)
-- wide values
200k ints: bool(true)
bool(true)
50k assoc: bool(true)
bool(true)
odd array keys: bool(true)
bool(true)
sparse: bool(true)
bool(true)
array form 20k keys: array(0) {
}
int(20000)
int(20000)
array(0) {
}
-- the cache still works
bool(true)
string(2) "ok"
