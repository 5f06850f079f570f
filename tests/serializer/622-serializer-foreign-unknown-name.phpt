--TEST--
Named segment, values of a serializer no process has: a miss in every function
--DESCRIPTION--
Values in the third-party serialized form name the serializer that wrote
them. Here the bytes of stored objects are changed in the segment file
(while a process maps it) to name a serializer "zz" that no process has, as
a process with another apc.serializer would have stored them. For every
process such a key is a miss: apcu_fetch gives false with $success false,
an array fetch leaves it out, apcu_exists is false, apcu_entry calls its
callback and stores its value, apcu_add succeeds, apcu_inc and apcu_dec
start from 0, apcu_cas fails, apcu_key_info is null, apcu_cache_info and
APCUIterator do not list it; apcu_delete removes it. Needs no third-party
serializer (runs on ZTS builds too).
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache only');
if (!function_exists('proc_open')) die('skip needs proc_open');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$seg = seg_dir() . '/seg';
$keys = ['fetch', 'many', 'exists', 'entry', 'add', 'inc', 'dec', 'cas', 'info', 'del'];
$prelude = 'class M { public $m; public function __serialize(): array { return ["m" => $this->m]; }
        public function __wakeup() { echo "M::__wakeup\n"; } }
    function fmt($v): string {
        if (is_object($v)) { return get_class($v) . json_encode(get_object_vars($v)); }
        if (!is_array($v)) { return var_export($v, true); }
        return "[" . implode(", ", array_map(fn($k) => "$k => " . fmt($v[$k]), array_keys($v))) . "]";
    }
    function show(string $what, $v): void { echo $what, ": ", fmt($v), "\n"; }
';

// serialize() text (M has __serialize without __unserialize: not the
// object form), then "plain".
echo seg_php($seg, $prelude . '
    foreach (' . var_export($keys, true) . ' as $k) { $o = new M; $o->m = "MARK-$k-" . str_repeat("m", 40); apcu_store($k, $o); }
    apcu_store("plain", 7);
    show("stored", apcu_fetch("fetch"));'), "\n";

// A process maps the segment while its bytes are changed (the file of a
// segment nobody maps is checked by its next user), and has locked every
// shard once (shardcache_info), so the first lock's check of each shard's
// pages is behind it and the changed bytes are read as they are.
$holder = proc_open(seg_cmd(['shardcache.segment' => $seg], 'shardcache_info(); echo "ready\n"; fgets(STDIN);'),
                    [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $hp);
while (($l = fgets($hp[1])) !== false && trim($l) !== 'ready');
$bytes = file_get_contents($seg);
$f = fopen($seg, 'r+');
foreach ($keys as $k) {
    $at = strpos($bytes, "MARK-$k-");
    $start = $at === false ? false : strrpos(substr($bytes, 0, $at), 'O:1:"M":');
    if ($start === false) {
        echo "value of $k not found\n";
        continue;
    }
    fseek($f, $start);
    fwrite($f, "\0zz\0");      // the third-party form of serializer "zz"
}
fclose($f);

echo seg_php($seg, $prelude . '
    show("fetch", apcu_fetch("fetch", $ok));
    show("success", $ok);
    show("fetch many", apcu_fetch(["many", "plain"], $ok));
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
    $info = array_column(apcu_cache_info()["cache_list"], "info");
    sort($info);
    show("cache_info", $info);
    $it = [];
    foreach (new APCUIterator() as $k => $e) { $it[$k] = $e["value"]; }
    ksort($it);
    show("iterator", $it);
    show("total count", (new APCUIterator())->getTotalCount());
    show("delete", apcu_delete("del"));
    show("delete again", apcu_delete("del"));
    show("fetch again", apcu_fetch("fetch"));
    show("store over it", apcu_store("fetch", "mine"));
    show("fetch", apcu_fetch("fetch"));'), "\n";
fclose($hp[0]);
fclose($hp[1]);
proc_close($holder);
?>
--EXPECT--
M::__wakeup
stored: M{"m":"MARK-fetch-mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm"}
fetch: false
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
delete again: false
fetch again: false
store over it: true
fetch: 'mine'
