--TEST--
Named segment, php-serialized values read by an apc.serializer=igbinary process
--DESCRIPTION--
A process with apc.serializer=php stores, on a named segment, objects in the
object form and in serialize() text, an enum, an array holding references
and plain values. A process on the same segment with apc.serializer=igbinary
reads every one of them (unserialize() is always there): found by every
function, as in the process that stored them. Its own igbinary values are
the ones the php process cannot read (620).
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache only');
if (!function_exists('proc_open')) die('skip needs proc_open');
if (extension_loaded('igbinary')) die('skip igbinary already loaded');
if (!file_exists(ini_get('extension_dir') . '/igbinary.so')) die('skip igbinary.so not installed');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$seg = seg_dir() . '/seg';
$prelude = 'class P { public $a = 1; public $b = [1, 2]; }
    class W { public $w = "text"; public function __wakeup() { echo "W::__wakeup\n"; } }
    enum E: string { case A = "a"; }
    function fmt($v): string {
        if (is_object($v) && !$v instanceof UnitEnum) { return get_class($v) . json_encode(get_object_vars($v)); }
        if (!is_array($v)) { return str_replace("\\\\", "", var_export($v, true)); }
        return "[" . implode(", ", array_map(fn($k) => "$k => " . fmt($v[$k]), array_keys($v))) . "]";
    }
    function show(string $what, $v): void { echo $what, ": ", fmt($v), "\n"; }
';

echo "-- php stores\n";
echo seg_php($seg, $prelude . '
    $r = [1, 2];
    $r[2] = &$r[0];
    foreach (["obj" => new P, "text" => new W, "enum" => E::A, "ref" => $r, "plain" => ["x" => [1.5, null]],
              "add" => new P, "entry" => new P, "inc" => new P, "cas" => new P, "info" => new P] as $k => $v) {
        apcu_store($k, $v);
    }'), "\n";

echo "-- igbinary reads\n";
echo seg_php($seg, $prelude . '
    foreach (["obj", "text", "enum", "ref", "plain"] as $k) {
        show($k, apcu_fetch($k, $ok));
        show("success", $ok);
    }
    $f = apcu_fetch("ref");
    $f[2] = "through the reference";
    show("ref kept", $f[0]);
    show("fetch many", apcu_fetch(["obj", "enum", "plain"]));
    show("exists", apcu_exists(["obj", "text", "enum", "ref", "plain"]));
    show("add", apcu_add("add", 1));
    $called = 0;
    show("entry", apcu_entry("entry", function () use (&$called) { $called++; return 1; }));
    show("called", $called);
    show("inc", apcu_inc("inc", 1, $ok));
    show("success", $ok);
    show("cas", apcu_cas("cas", 0, 1));
    show("key_info ttl", apcu_key_info("info")["ttl"]);
    $info = array_column(apcu_cache_info()["cache_list"], "info");
    sort($info);
    show("cache_info", $info);
    $it = [];
    foreach (new APCUIterator("/^(obj|text|enum|plain)$/") as $k => $e) { $it[$k] = $e["value"]; }
    ksort($it);
    show("iterator", $it);', ['extension' => 'igbinary.so', 'apc.serializer' => 'igbinary']), "\n";
?>
--EXPECT--
-- php stores

-- igbinary reads
obj: P{"a":1,"b":[1,2]}
success: true
W::__wakeup
text: W{"w":"text"}
success: true
enum: E::A
success: true
ref: [0 => 1, 1 => 2, 2 => 1]
success: true
plain: [x => [0 => 1.5, 1 => NULL]]
success: true
ref kept: 'through the reference'
fetch many: [obj => P{"a":1,"b":[1,2]}, enum => E::A, plain => [x => [0 => 1.5, 1 => NULL]]]
exists: [obj => true, text => true, enum => true, ref => true, plain => true]
add: false
entry: P{"a":1,"b":[1,2]}
called: 0
inc: false
success: false
cas: false
key_info ttl: 0
cache_info: [0 => 'add', 1 => 'cas', 2 => 'entry', 3 => 'enum', 4 => 'inc', 5 => 'info', 6 => 'obj', 7 => 'plain', 8 => 'ref', 9 => 'text']
W::__wakeup
iterator: [enum => E::A, obj => P{"a":1,"b":[1,2]}, plain => [x => [0 => 1.5, 1 => NULL]], text => W{"w":"text"}]
