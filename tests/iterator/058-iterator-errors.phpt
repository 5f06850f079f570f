--TEST--
APCUIterator: bad list types, uninitialized, clone, serialize, argument errors
--DESCRIPTION--
Invalid list types, uninitialized iterators, cloning, serialization, and
argument errors.
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
set_error_handler(function ($no, $str) { echo "[$no] $str\n"; return true; });
function t(callable $f) {
    try {
        var_dump($f());
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
function uninit(APCUIterator $it) {
    t(fn() => $it->valid());
    t(fn() => $it->key());
    t(fn() => $it->current());
    t(fn() => $it->next());
    t(fn() => $it->rewind());
    t(fn() => $it->getTotalHits());
    t(fn() => $it->getTotalSize());
    t(fn() => $it->getTotalCount());
    t(fn() => iterator_to_array($it));
    t(fn() => apcu_delete($it));
}
apcu_store('a', 1);

echo "-- invalid list types leave the iterator uninitialized\n";
foreach ([0, 3, -1, PHP_INT_MAX] as $list) {
    $it = new APCUIterator(null, APC_ITER_ALL, 0, $list);
    t(fn() => $it->valid());
}
uninit(new APCUIterator(null, APC_ITER_ALL, 0, 0));

echo "-- a subclass that does not call the constructor\n";
class Sub extends APCUIterator { public function __construct() {} }
uninit(new Sub());
echo "-- a subclass that does\n";
class Sub2 extends APCUIterator { public $extra = 'x'; public function __construct() { parent::__construct(['a'], APC_ITER_KEY); } }
$s = new Sub2();
t(fn() => iterator_to_array($s));
t(fn() => $s->extra);

echo "-- made without the constructor\n";
uninit((new ReflectionClass('APCUIterator'))->newInstanceWithoutConstructor());
uninit(unserialize('O:12:"APCUIterator":0:{}'));
t(fn() => serialize(new APCUIterator()));

echo "-- cloning\n";
t(fn() => clone new APCUIterator());

echo "-- arguments\n";
t(fn() => new APCUIterator(null, 'x'));
t(fn() => new APCUIterator(null, APC_ITER_ALL, []));
t(fn() => new APCUIterator(null, APC_ITER_ALL, 0, 1, 5));
t(fn() => count(iterator_to_array(new APCUIterator(null, null))));
t(fn() => count(iterator_to_array(new APCUIterator(null, '2'))));
t(fn() => count(iterator_to_array(new APCUIterator(format: APC_ITER_KEY, search: ['a']))));
t(fn() => (new APCUIterator())->valid(1));
t(fn() => (new APCUIterator())->getTotalCount(1));

echo "-- calling the constructor again starts over\n";
$it = new APCUIterator(['a'], APC_ITER_KEY);
t(fn() => iterator_to_array($it));
$it->__construct(['zz']);
t(fn() => iterator_to_array($it));
try {
    $it->__construct(null, APC_ITER_ALL, 0, 7);
} catch (Throwable $e) {
}
t(fn() => $it->valid());
?>
--EXPECT--
-- invalid list types leave the iterator uninitialized
[2] APCUIterator::__construct(): APCUIterator invalid list type
Error: Trying to use uninitialized APCUIterator
[2] APCUIterator::__construct(): APCUIterator invalid list type
Error: Trying to use uninitialized APCUIterator
[2] APCUIterator::__construct(): APCUIterator invalid list type
Error: Trying to use uninitialized APCUIterator
[2] APCUIterator::__construct(): APCUIterator invalid list type
Error: Trying to use uninitialized APCUIterator
[2] APCUIterator::__construct(): APCUIterator invalid list type
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
-- a subclass that does not call the constructor
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
-- a subclass that does
array(1) {
  ["a"]=>
  array(1) {
    ["key"]=>
    string(1) "a"
  }
}
string(1) "x"
-- made without the constructor
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
Error: Trying to use uninitialized APCUIterator
string(24) "O:12:"APCUIterator":0:{}"
-- cloning
Error: Trying to clone an uncloneable object of class APCUIterator
-- arguments
TypeError: APCUIterator::__construct(): Argument #2 ($format) must be of type int, string given
TypeError: APCUIterator::__construct(): Argument #3 ($chunk_size) must be of type int, array given
ArgumentCountError: APCUIterator::__construct() expects at most 4 arguments, 5 given
[8192] APCUIterator::__construct(): Passing null to parameter #2 ($format) of type int is deprecated
int(1)
int(1)
int(1)
ArgumentCountError: APCUIterator::valid() expects exactly 0 arguments, 1 given
ArgumentCountError: APCUIterator::getTotalCount() expects exactly 0 arguments, 1 given
-- calling the constructor again starts over
array(1) {
  ["a"]=>
  array(1) {
    ["key"]=>
    string(1) "a"
  }
}
array(0) {
}
[2] APCUIterator::__construct(): APCUIterator invalid list type
bool(false)
