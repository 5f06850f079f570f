--TEST--
object form: SPL collections, DateInterval, DatePeriod, date subclasses
--DESCRIPTION--
The internal classes the form keeps by their own __serialize() and
__unserialize() (SplObjectStorage, SplDoublyLinkedList, SplQueue,
SplStack, ArrayObject, ArrayIterator, RecursiveArrayIterator,
SplFixedArray, DateInterval, DatePeriod), user subclasses of them and of
the date classes, and a DateTime subclass with its own __serialize() and
__unserialize() (called once each, as serialize() and unserialize() call
them) are stored natively and read back as unserialize(serialize()): the
same objects shared, a collection holding itself.
--INI--
apc.enable_cli=1
error_reporting=-1
--FILE--
<?php
require __DIR__ . '/../lib/object-internal-cases.inc';
sc_internal_run();
?>
--EXPECT--
SplObjectStorage, a shared key: same
  stored, native
SplDoublyLinkedList, LIFO: same
  stored, native
SplQueue inside SplStack: same
  stored, native
ArrayObject, ARRAY_AS_PROPS, holding an object: same
  stored, native
ArrayObject with its own iterator class: same
  stored, native
ArrayIterator and RecursiveArrayIterator: same
  stored, native
SplFixedArray: same
  stored, native
ArrayObject subclass with properties: same
  stored, native
ArrayObject holding itself: same
  stored, native
SplObjectStorage subclass: same
  stored, native
DateInterval: same
  stored, native
DatePeriod: same
  stored, native
DateTimeImmutable subclass holding an object: same
  stored, native
ScCarbonish::__serialize
ScCarbonish::__serialize
ScCarbonish::__unserialize
ScCarbonish::__unserialize
ScCarbonish::__serialize
ScCarbonish::__serialize
DateTime subclass with its own __serialize: same
  stored, native
