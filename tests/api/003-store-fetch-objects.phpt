--TEST--
apcu_store/apcu_fetch round-trip objects, with their magic methods
--DESCRIPTION--
Covers property visibility, inheritance, __sleep/__wakeup and
__serialize/__unserialize.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
// object handle numbers (#N) depend on allocation order, not on the cache: mask them
function dump(...$vs) { foreach ($vs as $v) { ob_start(); var_dump($v); echo preg_replace('/#\d+ /', '#N ', ob_get_clean()); } }
class Base {
    private $secret = 'base-secret';
    protected $shared = 'base-protected';
    public function baseSecret() { return $this->secret; }
}
#[AllowDynamicProperties]
class Child extends Base {
    private $secret = 'child-secret';
    public $pub = 'public';
    public int $typed = 7;
    public ?Child $next = null;
    public readonly string $ro;
    public function __construct() { $this->ro = 'readonly'; }
    public function childSecret() { return $this->secret; }
}
class Sleepy {
    public $keep = 'kept';
    public $drop = 'dropped';
    protected $prot = 'prot';
    private $priv = 'priv';
    public static $sleeps = 0, $wakeups = 0;
    public function __sleep() { self::$sleeps++; return ['keep', 'prot', 'priv']; }
    public function __wakeup() { self::$wakeups++; $this->drop = 'restored by __wakeup'; }
}
class Custom {
    public static $ser = 0, $unser = 0;
    public function __construct(public array $data, private string $tag) {}
    public function __serialize(): array { self::$ser++; return ['d' => $this->data, 't' => $this->tag]; }
    public function __unserialize(array $in): void { self::$unser++; $this->data = $in['d']; $this->tag = $in['t'] . '+unserialized'; }
}

$c = new Child;
$c->next = new Child;
$c->next->pub = 'inner';
$c->dynamic = 'dyn';
var_dump(apcu_store('child', $c));
$got = apcu_fetch('child');
dump($got);
var_dump($got->childSecret(), $got->baseSecret(), $got !== $c, $got->next instanceof Child);

$std = new stdClass;
$std->a = 1;
$std->{'0'} = 'zero';
$std->{''} = 'empty name';
$std->list = [1, 2, new stdClass];
var_dump(apcu_store('std', $std));
dump(apcu_fetch('std'));

var_dump(apcu_store('sleepy', new Sleepy));
echo 'sleeps=', Sleepy::$sleeps, ' wakeups=', Sleepy::$wakeups, "\n";
dump(apcu_fetch('sleepy'));
dump(apcu_fetch('sleepy'));
echo 'sleeps=', Sleepy::$sleeps, ' wakeups=', Sleepy::$wakeups, "\n";

var_dump(apcu_store('custom', ['x' => new Custom([1, 'two', [3]], 'tag')]));
echo 'ser=', Custom::$ser, ' unser=', Custom::$unser, "\n";
dump(apcu_fetch('custom'));
echo 'ser=', Custom::$ser, ' unser=', Custom::$unser, "\n";

$ao = new ArrayObject(['a' => 1, 'b' => [2]]);
var_dump(apcu_store('ao', $ao));
$got = apcu_fetch('ao');
var_dump(get_class($got), $got['a'], $got['b'], count($got));

$dt = new DateTimeImmutable('2020-02-29 12:34:56.789', new DateTimeZone('UTC'));
var_dump(apcu_store('dt', $dt));
var_dump(apcu_fetch('dt')->format('Y-m-d H:i:s.u e'));
var_dump(apcu_fetch('dt') == $dt);
?>
--EXPECT--
bool(true)
object(Child)#N (8) {
  ["secret":"Base":private]=>
  string(11) "base-secret"
  ["shared":protected]=>
  string(14) "base-protected"
  ["secret":"Child":private]=>
  string(12) "child-secret"
  ["pub"]=>
  string(6) "public"
  ["typed"]=>
  int(7)
  ["next"]=>
  object(Child)#N (7) {
    ["secret":"Base":private]=>
    string(11) "base-secret"
    ["shared":protected]=>
    string(14) "base-protected"
    ["secret":"Child":private]=>
    string(12) "child-secret"
    ["pub"]=>
    string(5) "inner"
    ["typed"]=>
    int(7)
    ["next"]=>
    NULL
    ["ro"]=>
    string(8) "readonly"
  }
  ["ro"]=>
  string(8) "readonly"
  ["dynamic"]=>
  string(3) "dyn"
}
string(12) "child-secret"
string(11) "base-secret"
bool(true)
bool(true)
bool(true)
object(stdClass)#N (4) {
  ["a"]=>
  int(1)
  ["0"]=>
  string(4) "zero"
  [""]=>
  string(10) "empty name"
  ["list"]=>
  array(3) {
    [0]=>
    int(1)
    [1]=>
    int(2)
    [2]=>
    object(stdClass)#N (0) {
    }
  }
}
bool(true)
sleeps=1 wakeups=0
object(Sleepy)#N (4) {
  ["keep"]=>
  string(4) "kept"
  ["drop"]=>
  string(20) "restored by __wakeup"
  ["prot":protected]=>
  string(4) "prot"
  ["priv":"Sleepy":private]=>
  string(4) "priv"
}
object(Sleepy)#N (4) {
  ["keep"]=>
  string(4) "kept"
  ["drop"]=>
  string(20) "restored by __wakeup"
  ["prot":protected]=>
  string(4) "prot"
  ["priv":"Sleepy":private]=>
  string(4) "priv"
}
sleeps=1 wakeups=2
bool(true)
ser=1 unser=0
array(1) {
  ["x"]=>
  object(Custom)#N (2) {
    ["data"]=>
    array(3) {
      [0]=>
      int(1)
      [1]=>
      string(3) "two"
      [2]=>
      array(1) {
        [0]=>
        int(3)
      }
    }
    ["tag":"Custom":private]=>
    string(16) "tag+unserialized"
  }
}
ser=1 unser=1
bool(true)
string(11) "ArrayObject"
int(1)
array(1) {
  [0]=>
  int(2)
}
int(2)
bool(true)
string(30) "2020-02-29 12:34:56.789000 UTC"
bool(true)
