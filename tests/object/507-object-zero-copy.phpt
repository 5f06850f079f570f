--TEST--
object form, zero-copy: an object's arrays are handed out in place
--DESCRIPTION--
An object's arrays are laid out in the segment and handed out in place (or
copied by the iterator); the cases of 500 and the fuzzer give
unserialize()'s results.
--INI--
apc.enable_cli=1
shardcache.zero_copy=1
--FILE--
<?php
require __DIR__ . '/../lib/object-fuzz.inc';
final class BigHolder { public function __construct(public int $id, public array $items, public ?BigHolder $next = null) {} }
$b = new BigHolder(1, range(1, 1000), new BigHolder(2, ['k' => 'v']));
apcu_store('big', $b);
$zc0 = shardcache_info()['zero_copy'];
$f = apcu_fetch('big');
echo sc_obj_diff($f, unserialize(serialize($b))) ?: 'same', "\n";
$zc1 = shardcache_info()['zero_copy'];
echo 'laid out: ', $zc0['bytes'] > 8000 ? 'yes' : 'no', ', copied: ', $zc1['copied'] - $zc0['copied'], "\n";
// written after the fetch: the process's own copy, the cache unchanged
$f->items[0] = 'changed'; $f->next->items[] = 'more';
$g = apcu_fetch('big');
var_dump($g->items[0], count($g->next->items), $f->items[0]);
// through the iterator: a copy
$it = iterator_to_array(new APCUIterator('/^big$/'));
echo sc_obj_diff($it['big']['value'], unserialize(serialize($b))) ?: 'same', "\n";
echo 'copied by the iterator: ', shardcache_info()['zero_copy']['copied'] - $zc1['copied'], "\n";
$graphs = sc_obj_fuzz_count(1500);
sc_obj_fuzz(507, $graphs, true);
$o = shardcache_info()['objects'];
var_dump($o['unserialized'], $o['native'] > $graphs);
?>
--EXPECT--
same
laid out: yes, copied: 0
int(1)
int(1)
string(7) "changed"
same
copied by the iterator: 1
graphs that differ: 0
int(0)
bool(true)
