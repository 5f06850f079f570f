--TEST--
object form: differential fuzzer through the unserialize() path
--DESCRIPTION--
The text is made from the stored graph.
--ENV--
SHARDCACHE_TEST_OBJ_TEXT=1
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/object-fuzz.inc';
$graphs = sc_obj_fuzz_count(2500);
sc_obj_fuzz(503, $graphs);
$f = shardcache_info()['objects'];
var_dump($f['stored'] > $graphs / 2, $f['unserialized'] === $f['stored'], $f['native'], $f['serialized']);
?>
--EXPECT--
graphs that differ: 0
bool(true)
bool(true)
int(0)
int(0)
