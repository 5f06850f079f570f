--TEST--
object form: the cases of 513 through unserialize(): the same calls and results
--DESCRIPTION--
The cases of 513 with every fetch made through the unserialize() path (the
serialize() text made from the stored graph: O: with the __serialize()
array, the properties __sleep() named in its order).
Values holding objects of classes with __serialize and __unserialize,
__sleep and __wakeup, __wakeup alone or __unserialize alone (its array
the properties serialize() writes) are stored natively: the store calls
__serialize() and __sleep() as serialize() does (same order, warnings and
notices for names __sleep() gives that are no property, exceptions that
fail the store), the fetch calls __unserialize() and __wakeup() once the
value is built, in unserialize()'s order (an exception stops the rest: no
destructor for objects not woken). Each case is compared with
unserialize(serialize()) of the same value: the result, the calls each
method logs, what is thrown.
--ENV--
SHARDCACHE_TEST_OBJ_TEXT=1
--INI--
apc.enable_cli=1
error_reporting=-1
--FILE--
<?php
require __DIR__ . '/../lib/object-magic-cases.inc';
mg_run();
?>
--EXPECTF--
__serialize, nested: same
  store: ser P1, ser P2, ser P3
  fetch: unser P3, unser P2, unser P1
  stored, unserialized
__serialize, shared and cyclic: same
  store: ser P1, ser P2
  fetch: unser P2, unser P1
  stored, unserialized
__serialize array holding references: same
  store: ser R1
  fetch: wakeup W2, unser R1
  stored, unserialized
__serialize among plain objects and dates: same
  store: ser P1
  fetch: unser P1, wakeup W2
  stored, unserialized
__unserialize alone: private, protected, parent, uninitialized: same
  store: 
  fetch: unser U1, wakeup W3, unser U2
  stored, unserialized
__unserialize alone: shared, cyclic, references: same
  store: 
  fetch: unser U2, unser U1
  stored, unserialized
__unserialize alone beside __serialize and __sleep: same
  store: ser P2, sleep S4
  fetch: unser U3, unser P2, unser U1, wakeup S4
  stored, unserialized

Warning: serialize(): "priv" returned as member variable from __sleep() but does not exist in %s on line %d

Warning: serialize(): "nothere" returned as member variable from __sleep() but does not exist in %s on line %d

Warning: apcu_store(): "priv" returned as member variable from __sleep() but does not exist in %s on line %d

Warning: apcu_store(): "nothere" returned as member variable from __sleep() but does not exist in %s on line %d
__sleep: missing, private, protected, parent names: same
  store: sleep S1
  fetch: wakeup S1
  stored, unserialized

%s: serialize(): "tag" is returned from __sleep() multiple times in %s on line %d

Warning: serialize(): MgSleep::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d

Warning: serialize(): "7" returned as member variable from __sleep() but does not exist in %s on line %d

%s: apcu_store(): "tag" is returned from __sleep() multiple times in %s on line %d

Warning: apcu_store(): MgSleep::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d

Warning: apcu_store(): "7" returned as member variable from __sleep() but does not exist in %s on line %d
__sleep: a name twice, a name not a string: same
  store: sleep S1
  fetch: wakeup S1
  stored, unserialized

Warning: serialize(): MgSleep::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d

Warning: apcu_store(): MgSleep::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d
__sleep not returning an array: same
  store: sleep S1
  fetch: wakeup W2
  stored, unserialized

Warning: serialize(): MgSleep::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d

%s: unserialize(): Error at offset 19 of 78 bytes in %s on line %d

Warning: apcu_store(): MgSleep::__sleep() should return an array only containing the names of instance-variables to serialize in %s on line %d

Notice: apcu_fetch(): Error at offset 19 of 78 bytes in %s on line %d
__sleep not returning an array, object met twice: same
  store: sleep S1
  fetch: 
  stored, unserialized
__sleep and __wakeup, nested, cyclic: same
  store: sleep S1, sleep S2, ser P4
  fetch: wakeup S2, wakeup W3, wakeup S1, unser P4
  stored, unserialized
__sleep naming a reference: same
  store: sleep S1
  fetch: wakeup S1, wakeup W2
  stored, unserialized
__wakeup alone, typed property: same
  store: 
  fetch: wakeup W2, wakeup W1
  stored, unserialized
dynamic properties named by __sleep: same
  store: sleep D1
  fetch: wakeup D1
  stored, unserialized
a resource in what __serialize() returns: same
  store: ser P2
  fetch: wakeup W1, unser P2
  stored, unserialized
a Closure in what __serialize() returns: same
  store: ser R1, ser P2
  fetch: 
  threw Exception: Serialization of 'Closure' is not allowed
  serialized
__serialize throws: same
  store: ser P1, ser T2
  fetch: 
  threw RuntimeException: ser T2
  serialized
__serialize returns no array: same
  store: ser P1, ser T2
  fetch: 
  threw TypeError: MgThrows::__serialize() must return an array
  serialized
__unserialize throws: the rest not called: same
  store: ser T101, ser P1, ser T102, ser T103
  fetch: unser T101, unser T102, dtor T101
  threw LogicException: unser T102
  stored, unserialized
__sleep throws: same
  store: sleep S1, sleep X2
  fetch: 
  threw RuntimeException: sleep X2
  serialized
__wakeup throws: the rest not called: same
  store: sleep X101, sleep X102, sleep X103
  fetch: wakeup X101, wakeup X102, dtor X101
  threw LogicException: wakeup X102
  stored, unserialized
