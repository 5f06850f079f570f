--TEST--
object form: values it does not take go through serialize()
--DESCRIPTION--
Those values: internal classes other than the date and SPL collection
classes it keeps (SplMinHeap, Exception and a user subclass of it),
__serialize without __unserialize,
__unserialize with __sleep (and no __serialize), Serializable, dynamic properties without #[AllowDynamicProperties], a low
serialize_precision, Closure.
--INI--
apc.enable_cli=1
error_reporting=-1
--FILE--
<?php
require __DIR__ . '/../lib/object-compare.inc';
class WithSerialize { public $a = 1; public function __serialize(): array { echo "__serialize\n"; return ['a' => $this->a]; }
    public function __wakeup() { echo "__wakeup\n"; } }
class WithUnserialize { public $a = 1; public $b = 2; public function __sleep() { echo "__sleep\n"; return ['a']; }
    public function __unserialize(array $d): void { echo "__unserialize\n"; $this->a = $d['a']; } }
class Ser implements Serializable { public $a = 1; public function serialize() { return 'x'; } public function unserialize($s) { echo "Serializable::unserialize\n"; }
    public function __serialize(): array { return []; } public function __unserialize(array $d): void { echo "Ser __unserialize\n"; } }
class NoDyn { public $a = 1; }
class MyException extends Exception {}
$n = new NoDyn(); @$n->dyn = 2;
$cases = [
    'SplMinHeap' => [new SplMinHeap()],
    'Exception subclass' => new MyException('boom', 3),
    '__serialize without __unserialize' => new WithSerialize(),
    '__unserialize and __sleep' => [new WithUnserialize()],
    'Serializable' => new Ser(),
    'dynamic, not allowed' => $n,
    'one refused object among plain ones' => [new stdClass(), new WithSerialize(), new stdClass()],
    'SplPriorityQueue' => new SplPriorityQueue(),
];
foreach ($cases as $label => $v) {
    $before = shardcache_info()['objects'];
    sc_obj_check($label, $v);
    $after = shardcache_info()['objects'];
    echo '  serialized +', $after['serialized'] - $before['serialized'], ', stored +', $after['stored'] - $before['stored'], "\n";
}
ini_set('serialize_precision', '5');
sc_obj_check('serialize_precision 5', [new stdClass(), 1/3]);
ini_set('serialize_precision', '-1');
try { apcu_store('closure', [new stdClass(), function () {}]); } catch (Exception $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
try { apcu_store('anon', new class { public $a = 1; }); } catch (Exception $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
?>
--EXPECTF--
SplMinHeap: same
  serialized +1, stored +0
Exception subclass: same
  serialized +1, stored +0
__serialize
__serialize
__wakeup
__wakeup
__serialize
__serialize
__serialize without __unserialize: same
  serialized +1, stored +0
__sleep
__sleep
__unserialize
__unserialize
__sleep
__sleep
__unserialize and __sleep: same
  serialized +1, stored +0
Ser __unserialize
Ser __unserialize
Serializable: same
  serialized +1, stored +0

Deprecated: Creation of dynamic property NoDyn::$dyn is deprecated in %s on line %d

Deprecated: Creation of dynamic property NoDyn::$dyn is deprecated in %s on line %d
dynamic, not allowed: same
  serialized +1, stored +0
__serialize
__serialize
__wakeup
__wakeup
__serialize
__serialize
one refused object among plain ones: same
  serialized +1, stored +0
SplPriorityQueue: same
  serialized +1, stored +0
serialize_precision 5: same
Exception: Serialization of 'Closure' is not allowed
Exception: Serialization of 'class@anonymous' is not allowed
