--TEST--
APCUIterator: key, current, next, rewind and valid called directly
--DESCRIPTION--
On an empty cache, past the end, and restarted.
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
function t(callable $f) {
    try {
        var_dump($f());
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
echo "-- empty cache\n";
$it = new APCUIterator();
t(fn() => $it->valid());
t(fn() => $it->key());
t(fn() => $it->current());
t(fn() => $it->next());
t(fn() => $it->rewind());
t(fn() => $it->valid());
t(fn() => iterator_to_array($it));

echo "-- one entry, without rewind\n";
apcu_store('only', 'one');
$it = new APCUIterator(null, APC_ITER_KEY | APC_ITER_VALUE);
t(fn() => $it->key());          // fetches the first chunk by itself
t(fn() => $it->current());
t(fn() => $it->valid());
t(fn() => $it->key());          // same position
t(fn() => $it->next());
t(fn() => $it->valid());
t(fn() => $it->key());
t(fn() => $it->current());
t(fn() => $it->next());         // past the end: nothing happens
t(fn() => $it->valid());
t(fn() => $it->rewind());
t(fn() => $it->valid());
t(fn() => $it->key());

echo "-- walking by hand visits every entry once\n";
for ($i = 0; $i < 50; $i++) {
    apcu_store("k$i", $i);
}
foreach ([0, 1, 7, 100] as $chunk) {
    $it = new APCUIterator('/^k/', APC_ITER_VALUE, $chunk);
    $seen = [];
    for ($it->rewind(); $it->valid(); $it->next()) {
        $k = $it->key();
        $cur = $it->current();
        if ($it->key() !== $k || $it->current() !== $cur || "k{$cur['value']}" !== $k) {
            echo "inconsistent at $k\n";
        }
        $seen[$k] = ($seen[$k] ?? 0) + 1;
    }
    ksort($seen, SORT_NATURAL);
    echo "chunk $chunk: ", count($seen), " keys, each once: ", var_export(array_unique($seen) === ['k0' => 1], true),
         ", first ", array_key_first($seen), ", last ", array_key_last($seen), "\n";
    t(fn() => $it->valid());
    t(fn() => $it->key());
}

echo "-- rewind in the middle starts over\n";
$it = new APCUIterator('/^k/', APC_ITER_NONE, 5);
$first = [];
foreach ($it as $k => $v) {
    $first[] = $k;
    if (count($first) == 20) {
        break;
    }
}
$all = [];
foreach ($it as $k => $v) {
    $all[] = $k;
}
var_dump(count($all), array_slice($all, 0, 20) === $first, count(array_unique($all)));
echo "-- values are arrays per item; current() returns a copy\n";
$it = new APCUIterator(['only']);
$it->rewind();
$c = $it->current();
$c['value'] = 'changed';
var_dump($it->current()['value'], apcu_fetch('only'));
echo "-- foreach by reference is refused\n";
t(function () { foreach (new APCUIterator() as &$v) {} });
?>
--EXPECT--
-- empty cache
bool(false)
Error: Cannot call key() on invalid iterator
Error: Cannot call current() on invalid iterator
NULL
NULL
bool(false)
array(0) {
}
-- one entry, without rewind
string(4) "only"
array(2) {
  ["key"]=>
  string(4) "only"
  ["value"]=>
  string(3) "one"
}
bool(true)
string(4) "only"
NULL
bool(false)
Error: Cannot call key() on invalid iterator
Error: Cannot call current() on invalid iterator
NULL
bool(false)
NULL
bool(true)
string(4) "only"
-- walking by hand visits every entry once
chunk 0: 50 keys, each once: true, first k0, last k49
bool(false)
Error: Cannot call key() on invalid iterator
chunk 1: 50 keys, each once: true, first k0, last k49
bool(false)
Error: Cannot call key() on invalid iterator
chunk 7: 50 keys, each once: true, first k0, last k49
bool(false)
Error: Cannot call key() on invalid iterator
chunk 100: 50 keys, each once: true, first k0, last k49
bool(false)
Error: Cannot call key() on invalid iterator
-- rewind in the middle starts over
int(50)
bool(true)
int(50)
-- values are arrays per item; current() returns a copy
string(3) "one"
string(3) "one"
-- foreach by reference is refused
Error: An iterator cannot be used with foreach by reference
