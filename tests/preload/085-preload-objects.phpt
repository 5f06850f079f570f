--TEST--
shardcache: preloaded objects, enums and references are built when fetched
--DESCRIPTION--
apc.preload_path files holding objects, enums or references (APCu crashes on
them at startup) are stored as serialized text and built when fetched, in
the request: user classes, autoloading, incomplete classes. Malformed ones
are skipped.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache not loaded'); ?>
--INI--
apc.enable_cli=1
apc.preload_path={PWD}/objects
--FILE--
<?php
class PreloadU {
    public $v;
    public function __wakeup() { echo "PreloadU::__wakeup\n"; }
}
enum PreloadE { case On; case Off; }
spl_autoload_register(function ($c) {
    echo "autoload $c\n";
    if ($c === 'AutoClass') {
        eval('class AutoClass { public $made = "by the autoloader"; }');
    }
});
$all = [];
foreach (new APCUIterator(null, APC_ITER_KEY) as $key => $item) {
    $all[] = $key;
}
sort($all);
echo json_encode($all), "\n";
$keys = ['std', 'ao', 'user', 'autoload', 'unknown', 'enum', 'mixed', 'ref', 'toplevel-ref', 'badobj', 'serializable',
         'badlen', 'trail', 'plain'];
foreach ($keys as $k) {
    echo "-- $k: ";
    $v = apcu_fetch($k, $ok);
    echo $ok ? "hit\n" : "miss\n";
    if ($ok) {
        var_dump($v);
    }
}
$r = apcu_fetch('ref');
$r[1] = 'changed through the reference';
var_dump($r[0]);
var_dump(apcu_fetch('enum') === PreloadE::On);
// every fetch builds new objects
var_dump(apcu_fetch('std') == apcu_fetch('std'), apcu_fetch('std') === apcu_fetch('std'));
?>
--EXPECTF--
["ao","autoload","enum","mixed","plain","ref","serializable","std","trail","unknown","user"]
-- std: hit
object(stdClass)#%d (1) {
  ["p"]=>
  int(5)
}
-- ao: hit
object(ArrayObject)#%d (1) {
  ["storage":"ArrayObject":private]=>
  array(2) {
    [0]=>
    int(1)
    [1]=>
    string(3) "two"
  }
}
-- user: PreloadU::__wakeup
hit
object(PreloadU)#%d (1) {
  ["v"]=>
  int(3)
}
-- autoload: autoload AutoClass
hit
object(AutoClass)#%d (1) {
  ["made"]=>
  string(17) "by the autoloader"
}
-- unknown: autoload Unknown
hit
object(__PHP_Incomplete_Class)#%d (2) {
  ["__PHP_Incomplete_Class_Name"]=>
  string(7) "Unknown"
  ["p"]=>
  int(5)
}
-- enum: hit
enum(PreloadE::On)
-- mixed: hit
array(2) {
  ["list"]=>
  array(2) {
    [0]=>
    int(1)
    [1]=>
    int(2)
  }
  ["obj"]=>
  object(stdClass)#%d (0) {
  }
}
-- ref: hit
array(2) {
  [0]=>
  &string(1) "x"
  [1]=>
  &string(1) "x"
}
-- toplevel-ref: miss
-- badobj: miss
-- serializable: hit
object(ArrayObject)#%d (1) {
  ["storage":"ArrayObject":private]=>
  array(0) {
  }
}
-- badlen: miss
-- trail: hit
object(stdClass)#%d (0) {
}
-- plain: hit
int(5)
string(29) "changed through the reference"
bool(true)
bool(true)
bool(false)
