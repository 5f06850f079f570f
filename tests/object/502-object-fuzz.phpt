--TEST--
object form: fuzzed object graphs fetched natively equal unserialize(serialize)
--DESCRIPTION--
A differential fuzzer with seeded random object graphs. Nearly all are
stored natively: a few hold a recursive array (through references),
which the form refuses, and the next values led by the same class then
go to serialize() at once.
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/object-fuzz.inc';
$graphs = sc_obj_fuzz_count(2500);
sc_obj_fuzz(502, $graphs);
$f = shardcache_info()['objects'];
var_dump($f['stored'] > $graphs / 2, $f['native'] === $f['stored'], $f['unserialized'], $f['serialized'] < $graphs / 100);
?>
--EXPECT--
graphs that differ: 0
bool(true)
bool(true)
int(0)
bool(true)
