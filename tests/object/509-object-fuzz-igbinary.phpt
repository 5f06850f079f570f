--TEST--
object form: igbinary fuzzed graphs read back as igbinary's round trip
--DESCRIPTION--
The differential fuzzer of 502 with apc.serializer=igbinary: every graph
(native when it has no shared reference, igbinary's bytes otherwise)
equals igbinary_unserialize(igbinary_serialize()).
--SKIPIF--
<?php
if (extension_loaded('igbinary')) die('skip igbinary already loaded');
if (!file_exists(ini_get('extension_dir') . '/igbinary.so')) die('skip igbinary.so not installed');
?>
--INI--
apc.enable_cli=1
extension=igbinary.so
apc.serializer=igbinary
shardcache.zero_copy=0
--FILE--
<?php
require __DIR__ . '/../lib/object-fuzz.inc';
$graphs = sc_obj_fuzz_count(2500);
sc_obj_fuzz(509, $graphs, false, fn($v) => igbinary_unserialize(igbinary_serialize($v)));
$f = shardcache_info()['objects'];
var_dump($f['native'] > $graphs / 20, $f['native'] === $f['stored'], $f['unserialized']);
?>
--EXPECT--
graphs that differ: 0
bool(true)
bool(true)
int(0)
