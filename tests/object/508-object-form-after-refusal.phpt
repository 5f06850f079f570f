--TEST--
object form: after a refused class, the next 15 such values skip the attempt
--DESCRIPTION--
After a value whose first object's class held something the form does not
take, the next 15 such values go to serialize() at once and the 16th tries
again. Every value fetched is unserialize()'s.
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/object-compare.inc';
final class Event { public function __construct(public int $id, public ?object $at = null) {} }
$log = [];
for ($i = 0; $i < 20; $i++) {
    $v = [new Event($i, $i === 0 ? new SplMinHeap() : null), 'n' => $i];
    $before = shardcache_info()['objects'];
    apcu_store('e', $v);
    $f = apcu_fetch('e');
    if (sc_obj_diff($f, unserialize(serialize($v))) !== '') echo "value $i differs\n";
    $after = shardcache_info()['objects'];
    $log[] = $after['stored'] > $before['stored'] ? 'N' : 'S';
}
echo implode('', $log), "\n";
?>
--EXPECT--
SSSSSSSSSSSSSSSSNNNN
