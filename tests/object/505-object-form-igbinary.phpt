--TEST--
object form: apc.serializer=igbinary stores objects natively, not shared refs
--DESCRIPTION--
Objects, shared objects and cycles read back as igbinary's round trip
gives them, from the object form. A value holding a shared PHP reference
goes to igbinary: its round trip keeps references where unserialize()
may not (and the other way round). A DatePeriod is native; an SPL
collection goes to igbinary in copying mode (its decoder builds the rows
faster than the form's). Any other third-party serializer
keeps every object (tests/serializer/081-083).
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
$cycle = new stdClass();
$cycle->self = $cycle;
$cycle->list = [$cycle, 1.5, "s"];
$r = [1, 2];
$withref = [&$r, &$r];
$period = new DatePeriod(new DateTimeImmutable('2020-01-01 00:00:00 UTC'), new DateInterval('PT6H'), 2);
$spl = new ArrayObject([['id' => 1], ['id' => 2]]);
foreach (['objects' => $v, 'cycle' => $cycle, 'shared reference' => $withref, 'DatePeriod' => $period,
          'ArrayObject (igbinary reads it faster)' => $spl] as $name => $value) {
    apcu_store('o', $value);
    $got = apcu_fetch('o');
    echo $name, ': ', sc_obj_diff($got, igbinary_unserialize(igbinary_serialize($value))) === '' ? "as igbinary" : "differs";
    $f = shardcache_info()['objects'];
    echo ", stored {$f['stored']}, native {$f['native']}, unserialized {$f['unserialized']}\n";
}
?>
--EXPECT--
objects: as igbinary, stored 1, native 1, unserialized 0
cycle: as igbinary, stored 2, native 2, unserialized 0
shared reference: as igbinary, stored 2, native 2, unserialized 0
DatePeriod: as igbinary, stored 3, native 3, unserialized 0
ArrayObject (igbinary reads it faster): as igbinary, stored 3, native 3, unserialized 0
