--TEST--
Zero-copy: equal strings of one value are laid out once, values read exact
--DESCRIPTION--
A zero-copy layout keeps one copy of each string that repeats inside the
value (within a cache of 64 slots by hash), not only of a string repeated
right after itself: rows whose keys alternate ('id', 'name', 'id', ...)
take less segment memory than the same rows with keys of their own. The
same holds for an array inside an object (the object form's zero-copy
arrays), and a value whose array holds a reference (not laid out: stored
the usual way) still reads back exact. Every value is compared.
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
final class Table
{
    public function __construct(public string $name, public array $rows)
    {
    }
}

function rows(bool $own_keys): array
{
    $rows = [];
    for ($i = 0; $i < 200; $i++) {
        $rows[] = $own_keys
            ? [sprintf('i%03d', $i) => $i, sprintf('n%03d', $i) => "row $i", sprintf('k%03d', $i) => $i % 3]
            : ['id' => $i, 'name' => "row $i", 'kind' => $i % 3];
    }
    return $rows;
}

function size(string $key): int
{
    foreach (apcu_cache_info()['cache_list'] as $e) {
        if ($e['info'] === $key) {
            return $e['mem_size'];
        }
    }
    return -1;
}

$values = [
    'shared' => rows(false),
    'own' => rows(true),
    'obj-shared' => new Table('t', rows(false)),
    'obj-own' => new Table('t', rows(true)),
];
$z0 = shardcache_info()['zero_copy']['bytes'];
foreach ($values as $k => $v) {
    var_dump(apcu_store($k, $v));
}
echo "laid out: ", shardcache_info()['zero_copy']['bytes'] > $z0 ? 'yes' : 'no', "\n";
foreach ($values as $k => $v) {
    echo "$k: ", apcu_fetch($k) == $v ? 'exact' : 'WRONG', "\n";
}
/* 200 rows, three keys each: about 600 strings of 32 bytes laid out once
 * instead of once per row (the sizes count whole pages). */
$saved = size('own') - size('shared');
echo "array: shared keys save ", $saved >= 12288 ? 'at least 12 KiB' : "only $saved bytes", "\n";
$saved = size('obj-own') - size('obj-shared');
echo "object: shared keys save ", $saved >= 12288 ? 'at least 12 KiB' : "only $saved bytes", "\n";

/* A reference inside the object's array: the layout refuses it, the
 * object is stored the usual way and reads back the same. */
$r = rows(false);
$x = 'shared text';
$r[7]['ref'] = &$x;
$t = new Table('ref', $r);
var_dump(apcu_store('obj-ref', $t));
$back = apcu_fetch('obj-ref');
unset($r[7]['ref']);
$r[7]['ref'] = 'shared text';
echo "obj-ref: ", $back == new Table('ref', $r) ? 'exact' : 'WRONG', "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
laid out: yes
shared: exact
own: exact
obj-shared: exact
obj-own: exact
array: shared keys save at least 12 KiB
object: shared keys save at least 12 KiB
bool(true)
obj-ref: exact
