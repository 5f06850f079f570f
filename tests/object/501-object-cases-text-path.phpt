--TEST--
object form through unserialize(): the cases of 500 give the same results
--DESCRIPTION--
unserialize() is the path of changed or missing classes.
--ENV--
SHARDCACHE_TEST_OBJ_TEXT=1
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/object-cases.inc';
$f = shardcache_info()['objects'];
echo "stored {$f['stored']}, serialized {$f['serialized']}, native {$f['native']}, unserialized {$f['unserialized']}\n";
echo "done\n";
?>
--EXPECT--
typed and parent private: same
readonly: same
uninitialized and unset: same
dynamic, allowed: same
stdClass: same
enum backed: same
enum pure in array: same
readonly class: same
same object twice: same
cycle of two: same
self cycle: same
references between array and property: same
property reference to another property: same
references to an object: same
object, then a reference to it: same
typed property shared by reference: same
large array property: same
list of entities with a shared parent: same
object deep in arrays: same
array with shared references only: same
string(3) "str"
Error: Cannot modify readonly property Point::$x
TypeError: Cannot assign string to property Child::$f of type float
constructed
destructed 1
destructed 2
stored 24, serialized 0, native 0, unserialized 25
done
