--TEST--
object form: apc.serializer=igbinary keeps objects on igbinary
--DESCRIPTION--
The result is what igbinary gives; nothing is stored in the object form.
--SKIPIF--
<?php
if (extension_loaded('igbinary')) die('skip igbinary already loaded');
if (!file_exists(ini_get('extension_dir') . '/igbinary.so')) die('skip igbinary.so not installed');
?>
--INI--
apc.enable_cli=1
extension=igbinary.so
apc.serializer=igbinary
--FILE--
<?php
require __DIR__ . '/../lib/object-compare.inc';
final class Point { public function __construct(public readonly int $x, public ?Point $p = null) {} }
$shared = new Point(1);
$v = [$shared, new Point(2, $shared), $shared];
apcu_store('o', $v);
$got = apcu_fetch('o');
echo sc_obj_diff($got, igbinary_unserialize(igbinary_serialize($v))) === '' ? "as igbinary\n" : "differs\n";
$f = shardcache_info()['objects'];
echo "stored {$f['stored']}, native {$f['native']}, unserialized {$f['unserialized']}\n";
?>
--EXPECT--
as igbinary
stored 0, native 0, unserialized 0
