--TEST--
object form: differential fuzzer through the unserialize() path (the text made from the stored graph)
--ENV--
SHARDCACHE_TEST_OBJ_TEXT=1
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/object-fuzz.inc';
sc_obj_fuzz(503, 2500);
$f = shardcache_info()['objects'];
var_dump($f['stored'] > 1000, $f['unserialized'] === $f['stored'], $f['native'], $f['serialized']);
?>
--EXPECT--
2500 graphs, 0 differ
bool(true)
bool(true)
int(0)
int(0)
