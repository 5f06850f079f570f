--TEST--
Named segment, igbinary values read by an apc.serializer=php process: misses
--DESCRIPTION--
A process with apc.serializer=igbinary stores objects on a named segment
(of a class with __sleep: igbinary's bytes, not the object form). A
process on the same segment with apc.serializer=php and no igbinary cannot
decode them: for it each such key is a miss in every function. apcu_fetch
gives false with $success false, an array fetch leaves the key out,
apcu_exists is false, apcu_entry calls its callback and stores its value,
apcu_add succeeds, apcu_inc and apcu_dec start from 0 as on a missing key,
apcu_cas fails; apcu_key_info, apcu_cache_info and APCUIterator leave the
keys out, and apcu_delete removes one. The entries it did not replace stay
for the igbinary process, which still reads them. A process with
apc.serializer=php that has igbinary loaded decodes them with igbinary.
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
$igbinary = ['extension' => 'igbinary.so', 'apc.serializer' => 'igbinary'];
$prelude = 'class P { public $a = 1; public $b = [1, 2]; public function __sleep() { return ["a", "b"]; } }
    function fmt($v): string {
        if (is_object($v)) { return get_class($v) . json_encode(get_object_vars($v)); }
        if (!is_array($v)) { return var_export($v, true); }
        return "[" . implode(", ", array_map(fn($k) => "$k => " . fmt($v[$k]), array_keys($v))) . "]";
    }
    function show(string $what, $v): void { echo $what, ": ", fmt($v), "\n"; }
    function listed(): void {
        $info = array_column(apcu_cache_info()["cache_list"], "info");
        sort($info);
        show("cache_info", $info);
        $it = [];
        foreach (new APCUIterator() as $k => $e) { $it[$k] = $e["value"]; }
        ksort($it);
        show("iterator", $it);
        show("total count", (new APCUIterator())->getTotalCount());
    }
';

echo "-- igbinary stores\n";
echo seg_php($seg, $prelude . '
    foreach (["fetch", "many", "exists", "entry", "add", "inc", "dec", "cas", "info", "del", "kept"] as $k) {
        apcu_store($k, new P);
    }
    apcu_store("arr", ["o" => new P, "n" => 2]);
    apcu_store("plain", 7);
    show("own fetch", apcu_fetch("kept"));', $igbinary), "\n";

echo "-- php reads\n";
echo seg_php($seg, $prelude . '
    show("fetch", apcu_fetch("fetch", $ok));
    show("success", $ok);
    show("fetch arr", apcu_fetch("arr", $ok));
    show("success", $ok);
    show("fetch many", apcu_fetch(["many", "plain", "arr"], $ok));
    show("success", $ok);
    show("exists", apcu_exists("exists"));
    show("exists many", apcu_exists(["exists", "plain"]));
    $called = 0;
    show("entry", apcu_entry("entry", function ($k) use (&$called) { $called++; return "made for $k"; }));
    show("called", $called);
    show("entry stored", apcu_fetch("entry"));
    show("add", apcu_add("add", "added"));
    show("add stored", apcu_fetch("add"));
    show("inc", apcu_inc("inc", 5, $ok));
    show("success", $ok);
    show("dec", apcu_dec("dec", 3));
    show("cas", apcu_cas("cas", 0, 1));
    show("key_info", apcu_key_info("info"));
    listed();
    show("delete", apcu_delete("del"));
    show("store over it", apcu_store("fetch", "mine"));
    show("fetch again", apcu_fetch("fetch"));'), "\n";

echo "-- igbinary reads again\n";
echo seg_php($seg, $prelude . '
    foreach (["kept", "exists", "cas", "info", "arr"] as $k) {
        show($k, apcu_fetch($k, $ok));
        show("success", $ok);
    }
    show("exists", apcu_exists("many"));
    show("entry", apcu_fetch("entry"));
    show("add", apcu_fetch("add"));
    show("inc", apcu_fetch("inc"));
    show("del", apcu_exists("del"));
    show("fetch", apcu_fetch("fetch"));
    listed();', $igbinary), "\n";

echo "-- php with igbinary loaded reads\n";
echo seg_php($seg, $prelude . '
    show("kept", apcu_fetch("kept", $ok));
    show("success", $ok);
    show("arr", apcu_fetch("arr"));
    show("exists", apcu_exists("kept"));
    show("add", apcu_add("kept", 1));', ['extension' => 'igbinary.so']), "\n";
?>
--EXPECT--
-- igbinary stores
own fetch: P{"a":1,"b":[1,2]}
-- php reads
fetch: false
success: false
fetch arr: false
success: false
fetch many: [plain => 7]
success: true
exists: false
exists many: [plain => true]
entry: 'made for entry'
called: 1
entry stored: 'made for entry'
add: true
add stored: 'added'
inc: 5
success: true
dec: -3
cas: false
key_info: NULL
cache_info: [0 => 'add', 1 => 'dec', 2 => 'entry', 3 => 'inc', 4 => 'plain']
iterator: [add => 'added', dec => -3, entry => 'made for entry', inc => 5, plain => 7]
total count: 5
delete: true
store over it: true
fetch again: 'mine'
-- igbinary reads again
kept: P{"a":1,"b":[1,2]}
success: true
exists: P{"a":1,"b":[1,2]}
success: true
cas: P{"a":1,"b":[1,2]}
success: true
info: P{"a":1,"b":[1,2]}
success: true
arr: [o => P{"a":1,"b":[1,2]}, n => 2]
success: true
exists: true
entry: 'made for entry'
add: 'added'
inc: 5
del: false
fetch: 'mine'
cache_info: [0 => 'add', 1 => 'arr', 2 => 'cas', 3 => 'dec', 4 => 'entry', 5 => 'exists', 6 => 'fetch', 7 => 'inc', 8 => 'info', 9 => 'kept', 10 => 'many', 11 => 'plain']
iterator: [add => 'added', arr => [o => P{"a":1,"b":[1,2]}, n => 2], cas => P{"a":1,"b":[1,2]}, dec => -3, entry => 'made for entry', exists => P{"a":1,"b":[1,2]}, fetch => 'mine', inc => 5, info => P{"a":1,"b":[1,2]}, kept => P{"a":1,"b":[1,2]}, many => P{"a":1,"b":[1,2]}, plain => 7]
total count: 12
-- php with igbinary loaded reads
kept: P{"a":1,"b":[1,2]}
success: true
arr: [o => P{"a":1,"b":[1,2]}, n => 2]
exists: true
add: false
