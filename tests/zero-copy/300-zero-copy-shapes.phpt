--TEST--
Zero-copy values: which shapes are laid out in place and fetched without copy
--DESCRIPTION--
The values fetched without a copy equal what was stored.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
?>
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.zero_copy=1
--FILE--
<?php
function zc_bytes() { return shardcache_info()['zero_copy']['bytes']; }
/* A value returned in place is PHP's immutable array or interned string:
 * debug_zval_dump() says "interned" instead of a refcount. */
function in_place($v): bool {
    ob_start();
    debug_zval_dump($v);
    return str_contains(strtok(ob_get_clean(), "\n"), ' interned');
}

$x = 1;
$withRef = ['a' => &$x, 'b' => &$x];
$packedHole = range(0, 9);
unset($packedHole[3]);
$big = [];
for ($i = 0; $i < 1000; $i++) {
    $big["key$i"] = $i % 3 ? "value $i" : [$i, $i * 1.5, null, false];
}
$shapes = [
    'int' => 42,
    'float' => 1.5,
    'nan' => NAN,
    'true' => true,
    'null' => null,
    'short string' => 'abc',
    'long string' => str_repeat('0123456789', 100),
    'binary string' => str_repeat("a\0b", 40),
    'empty array' => [],
    'packed' => range(1, 10),
    'packed hole' => $packedHole,
    'hash mixed' => ['a' => 1, 5 => 'x', -3 => 2.5, '' => null, "\0k" => true, 'f' => -0.0, 'i' => PHP_INT_MIN],
    'nested' => ['l1' => ['l2' => ['l3' => [], 'v' => str_repeat('n', 70)], 'e' => []], 'list' => [[1], [2, [3]]]],
    'big hash' => $big,
    'object' => (object) ['a' => 1],
    'array+object' => ['o' => new ArrayObject([1, 2]), 'i' => 3],
    'array+refs' => $withRef,
];
/* in-place: the fetched zval is an immutable array or interned string
 * (the empty array is PHP's own shared one, whatever the cache). */
foreach ($shapes as $name => $v) {
    $before = zc_bytes();
    if (!apcu_store($name, $v)) {
        echo "$name: store failed\n";
        continue;
    }
    $laid = zc_bytes() > $before;
    $f = apcu_fetch($name);
    $inPlace = in_place($f);
    $same = is_object($v) || $name === 'array+refs' ? $f == $v : serialize($f) === serialize($v);
    printf("%-14s zero-copy=%-3s in-place=%-3s same=%s\n", $name, $laid ? 'yes' : 'no', $inPlace ? 'yes' : 'no',
           $same ? 'yes' : 'no');
    unset($f);
}

echo "-- changes in the request separate\n";
$f = apcu_fetch('hash mixed');
$f['a'] = 2;
$f['new'] = 1;
unset($f[5]);
var_dump($f['a'], isset($f[5]), apcu_fetch('hash mixed') === $shapes['hash mixed']);
$f = apcu_fetch('nested');
$f['l1']['l2']['l3'][] = 5;
$f['list'][1][1][] = 4;
var_dump($f['l1']['l2']['l3'], $f['list'][1][1], apcu_fetch('nested') === $shapes['nested']);
$f = apcu_fetch('packed hole');
$expect = $shapes['packed hole'];
$f[] = 'z';
$expect[] = 'z';
var_dump($f === $expect, array_key_last($f), apcu_fetch('packed hole') === $shapes['packed hole']);
$f = apcu_fetch('big hash');
foreach ($f as $k => &$v) {
    $v = 0;
}
unset($v);
var_dump(array_sum($f), apcu_fetch('big hash') === $shapes['big hash']);
$f = apcu_fetch('packed');
rsort($f);
var_dump($f[0], apcu_fetch('packed')[0]);
$f = apcu_fetch('packed');
var_dump(current($f), next($f), key($f), current(apcu_fetch('packed')));
$s = apcu_fetch('long string');
$s[0] = 'X';
var_dump($s[0], apcu_fetch('long string')[0], strlen($s));
$s = apcu_fetch('long string');
$s .= '!';
var_dump(strlen($s), strlen(apcu_fetch('long string')));

echo "-- reading\n";
$f = apcu_fetch('big hash');
var_dump(count($f), $f['key7'], $f['key9'], isset($f['key1000']), array_key_first($f), in_array('value 500', $f, true));
var_dump(json_encode(apcu_fetch('hash mixed')) === json_encode($shapes['hash mixed']));
var_dump(preg_match('/^(0123456789)+$/', apcu_fetch('long string')), strtoupper(substr(apcu_fetch('binary string'), 0, 3)) === "A\0B");
$idx = [apcu_fetch('long string') => 1];
var_dump(isset($idx[str_repeat('0123456789', 100)]));
var_dump(apcu_fetch(['packed', 'nested']) === ['packed' => $shapes['packed'], 'nested' => $shapes['nested']]);
var_dump(var_export(apcu_fetch('packed hole'), true) === var_export($shapes['packed hole'], true));

echo "-- a fetched value stored again\n";
var_dump(apcu_store('again', apcu_fetch('nested')), apcu_fetch('again') === $shapes['nested']);
var_dump(apcu_entry('nested', fn() => 'not called') === $shapes['nested']);
echo "-- the iterator copies\n";
foreach (new APCUIterator('/^nested$/') as $e) {
    var_dump($e['value'] === $shapes['nested']);
}
?>
--EXPECT--
int            zero-copy=no  in-place=no  same=yes
float          zero-copy=no  in-place=no  same=yes
nan            zero-copy=no  in-place=no  same=yes
true           zero-copy=no  in-place=no  same=yes
null           zero-copy=no  in-place=no  same=yes
short string   zero-copy=no  in-place=no  same=yes
long string    zero-copy=yes in-place=yes same=yes
binary string  zero-copy=yes in-place=yes same=yes
empty array    zero-copy=no  in-place=yes same=yes
packed         zero-copy=yes in-place=yes same=yes
packed hole    zero-copy=yes in-place=yes same=yes
hash mixed     zero-copy=yes in-place=yes same=yes
nested         zero-copy=yes in-place=yes same=yes
big hash       zero-copy=yes in-place=yes same=yes
object         zero-copy=no  in-place=no  same=yes
array+object   zero-copy=no  in-place=no  same=yes
array+refs     zero-copy=no  in-place=no  same=yes
-- changes in the request separate
int(2)
bool(false)
bool(true)
array(1) {
  [0]=>
  int(5)
}
array(2) {
  [0]=>
  int(3)
  [1]=>
  int(4)
}
bool(true)
bool(true)
int(10)
bool(true)
int(0)
bool(true)
int(10)
int(1)
int(1)
int(2)
int(1)
int(1)
string(1) "X"
string(1) "0"
int(1000)
int(1001)
int(1000)
-- reading
int(1000)
string(7) "value 7"
array(4) {
  [0]=>
  int(9)
  [1]=>
  float(13.5)
  [2]=>
  NULL
  [3]=>
  bool(false)
}
bool(false)
string(4) "key0"
bool(true)
bool(true)
int(1)
bool(true)
bool(true)
bool(true)
bool(true)
-- a fetched value stored again
bool(true)
bool(true)
bool(true)
-- the iterator copies
bool(true)
