--TEST--
object form: differential fuzzer, random object graphs (seeded) fetched natively equal unserialize(serialize())
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/object-fuzz.inc';
sc_obj_fuzz(502, 2500);
$f = shardcache_info()['objects'];
var_dump($f['stored'] > 1000, $f['native'] === $f['stored'], $f['unserialized'], $f['serialized']);
?>
--EXPECT--
2500 graphs, 0 differ
bool(true)
bool(true)
int(0)
int(0)
