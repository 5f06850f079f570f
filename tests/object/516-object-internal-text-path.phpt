--TEST--
object form: the cases of 515 through unserialize(): the same results
--DESCRIPTION--
The cases of 515 with every fetch made through the unserialize() path
(the serialize() text made from the stored graph: O: with the array each
class's __serialize() returned).
--ENV--
SHARDCACHE_TEST_OBJ_TEXT=1
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
  stored, unserialized
SplDoublyLinkedList, LIFO: same
  stored, unserialized
SplQueue inside SplStack: same
  stored, unserialized
ArrayObject, ARRAY_AS_PROPS, holding an object: same
  stored, unserialized
ArrayObject with its own iterator class: same
  stored, unserialized
ArrayIterator and RecursiveArrayIterator: same
  stored, unserialized
SplFixedArray: same
  stored, unserialized
ArrayObject subclass with properties: same
  stored, unserialized
ArrayObject holding itself: same
  stored, unserialized
SplObjectStorage subclass: same
  stored, unserialized
DateInterval: same
  stored, unserialized
DatePeriod: same
  stored, unserialized
DateTimeImmutable subclass holding an object: same
  stored, unserialized
ScCarbonish::__serialize
ScCarbonish::__serialize
ScCarbonish::__unserialize
ScCarbonish::__unserialize
ScCarbonish::__serialize
ScCarbonish::__serialize
DateTime subclass with its own __serialize: same
  stored, unserialized
