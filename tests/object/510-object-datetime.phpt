--TEST--
object form: DateTime, DateTimeImmutable, DateTimeZone as unserialize() gives
--DESCRIPTION--
They come back as unserialize(serialize()) gives them: every timezone_type,
microseconds, far dates, identity, references. Subclasses too, by the date classes' own __serialize()
and __unserialize(), their own properties in that array.
--INI--
apc.enable_cli=1
error_reporting=E_ALL & ~E_DEPRECATED
--FILE--
<?php
require __DIR__ . '/../lib/object-date-cases.inc';
sc_date_run();
$f = shardcache_info()['objects'];
echo "stored {$f['stored']}, serialized {$f['serialized']}, native {$f['native']}, unserialized {$f['unserialized']}\n";
?>
--EXPECT--
offset zone (type 1): same
  object form
abbreviation (type 2): same
  object form
identifier (type 3): same
  object form
UTC: same
  object form
timestamp: same
  object form
negative timestamp, microseconds: same
  object form
microseconds 999999: same
  object form
year -5000: same
  object form
year 10000 and beyond: same
  object form
zone type 1: same
  object form
zone type 2: same
  object form
zone type 3: same
  object form
zones of every type in a hash: same
  object form
same object twice: same
  object form
shared by two objects: same
  object form
mutable and immutable: same
  object form
references to a DateTime: same
  object form
typed property reference to a DateTimeImmutable: same
  object form
in a list of events: same
  object form
dynamic scalar properties: same
  object form
dynamic object property: same
  serialize()
DateTime subclass: same
  object form
DateTimeImmutable subclass: same
  object form
DateTimeZone subclass: same
  object form
subclass among plain ones: same
  object form
never constructed: apcu_store throws serialize()'s error
bool(false)
stored 24, serialized 2, native 24, unserialized 0
