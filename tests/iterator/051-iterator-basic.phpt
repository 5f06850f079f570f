--TEST--
APCUIterator: foreach over every entry with the default format
--DESCRIPTION--
Keys, values of every type, and item fields.
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
class Pt { public $x = 1; protected $y = [2]; private $z = 'three'; }
enum Suit: string { case Hearts = 'H'; }
$values = [
    'null' => null, 'false' => false, 'true' => true, 'int' => -42, 'intmax' => PHP_INT_MAX,
    'float' => 1.5, 'nan' => NAN, 'empty' => '', 'str' => "bin\0ary \xff",
    'list' => [1, 'two', [3.0, null]], 'hash' => ['a' => ['b' => ['c' => true]], 7 => 'seven'],
    'obj' => new Pt, 'objs' => [new Pt, new ArrayObject([1, 2])], 'enum' => Suit::Hearts,
    'big' => str_repeat('x', 100000), "key with\0nul" => 'k', '0' => 'zero key', 'ttl' => 'expires later',
];
foreach ($values as $k => $v) {
    apcu_store((string)$k, $v, $k === 'ttl' ? 1000 : 0);
}

$it = new APCUIterator();
$seen = [];
foreach ($it as $key => $item) {
    $seen[$key] = $item;
}
ksort($seen, SORT_STRING);
echo count($seen), " entries\n";
foreach ($seen as $key => $item) {
    echo "-- ", json_encode((string)$key), "\n";
    echo "  fields: ", implode(' ', array_keys($item)), "\n";
    echo "  types: ", implode(' ', array_map('gettype', $item)), "\n";
    var_dump($item['key'] === (string)$key, $item['type'], $item['num_hits'], $item['deletion_time'],
             $item['ref_count'], $item['ttl']);
    var_dump($item['mtime'] === $item['creation_time'], $item['access_time'] === $item['creation_time'],
             $item['creation_time'] > 0, $item['mem_size'] > strlen($key));
    $expected = $values[$key];
    if (is_float($expected) && is_nan($expected)) {
        var_dump(is_nan($item['value']));
    } else {
        var_dump($item['value'] == $expected && serialize($item['value']) === serialize($expected));
    }
}
var_dump($seen['obj']['value'] !== $values['obj'], get_class($seen['objs']['value'][1]), $seen['enum']['value'] === Suit::Hearts);
// the values are copies: changing them changes nothing in the cache
$seen['hash']['value']['a'] = 'changed';
var_dump(apcu_fetch('hash')['a']);
// foreach twice gives the same set
$again = [];
foreach ($it as $key => $item) {
    $again[] = (string)$key;
}
sort($again, SORT_STRING);
var_dump($again === array_map('strval', array_keys($seen)));
var_dump(iterator_count(new APCUIterator()), $it->getTotalCount());
?>
--EXPECT--
18 entries
-- "0"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string string integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "big"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string string integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "empty"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string string integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "enum"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string object integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "false"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string boolean integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "float"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string double integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "hash"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string array integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "int"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string integer integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "intmax"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string integer integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "key with\u0000nul"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string string integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "list"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string array integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "nan"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string double integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "null"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string NULL integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "obj"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string object integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "objs"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string array integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "str"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string string integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "true"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string boolean integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
-- "ttl"
  fields: type key value num_hits mtime creation_time deletion_time access_time ref_count mem_size ttl
  types: string string string integer integer integer integer integer integer integer integer
bool(true)
string(4) "user"
int(0)
int(0)
int(0)
int(1000)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(11) "ArrayObject"
bool(true)
array(1) {
  ["b"]=>
  array(1) {
    ["c"]=>
    bool(true)
  }
}
bool(true)
int(18)
int(18)
