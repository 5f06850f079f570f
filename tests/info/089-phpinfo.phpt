--TEST--
shardcache: phpinfo() section lists support, settings and live figures
--DESCRIPTION--
The section shows support, version, APCu names, serializer, preload, shards,
memory, entries, hits and misses (live), and the INI entries. The disabled
states say why.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache not loaded'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=8M
shardcache.shards=4
apc.preload_path={PWD}/../preload/objects
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
function section() {
    ob_start();
    phpinfo(INFO_MODULES);
    $all = ob_get_clean();
    // from the "shardcache" heading to the next extension's heading
    preg_match('/\nshardcache\n\n(.*?)\n\n[A-Za-z0-9_ ]+\n\n/s', $all, $m);
    return $m[1];
}
function row($text, $name) {
    return preg_match('/^' . preg_quote($name, '/') . ' => (.*)$/m', $text, $m) ? $m[1] : 'MISSING';
}
apcu_clear_cache();   // drop the preloaded values (counted in the Preloaded row)
$before = section();
foreach (['shardcache support', 'Version', 'APCu names', 'apc.* settings', 'Serializer', 'Preloaded', 'Shards',
          'Shared memory bytes', 'Entries', 'Hits', 'Misses'] as $r) {
    echo $r, ' => ', row($before, $r), "\n";
}
var_dump(preg_match('/^shardcache\.shards => 4 => 4$/m', $before), preg_match('/^apc\.\S+ => .* => /m', $before));
$total = (int) row($before, 'Data area bytes');
var_dump($total > 7 << 20 && $total < 8 << 20, (int) row($before, 'Memory used bytes') + (int) row($before, 'Memory free bytes') <= $total);

apcu_store('a', str_repeat('x', 10000));
apcu_store('b', [1, 2, 3]);
apcu_store('c', 3);
for ($i = 0; $i < 40; $i++) {
    apcu_fetch(['a', 'b', 'c'][$i % 3]);
}
for ($i = 0; $i < 5; $i++) {
    apcu_fetch("missing$i");
}
$after = section();
foreach (['Entries', 'Hits', 'Misses'] as $r) {
    echo $r, ' => ', row($after, $r), "\n";
}
echo 'Inserts: +', row($after, 'Inserts') - row($before, 'Inserts'), "\n";
var_dump((int) row($after, 'Memory used bytes') > (int) row($before, 'Memory used bytes') + 10000);

// disabled: the reason is given
foreach (['apc.enable_cli=0', 'apc.enabled=0'] as $setting) {
    [$out] = sc_run_php(['extension=' . sc_extension_path(), $setting],
                        'ob_start(); (new ReflectionExtension("shardcache"))->info();
                         preg_match("/^shardcache support => (.*)$/m", ob_get_clean(), $m); echo $m[1], "\n";');
    echo $out;
}
?>
--EXPECTF--
shardcache support => enabled
Version => 0.1.0
APCu names => registered: apcu_* functions, APCUIterator, extension name "apcu" (version 5.1.28)
apc.* settings => shardcache's (listed under apcu)
Serializer => php
Preloaded => 11 values from %s/preload/objects
Shards => 4
Shared memory bytes => 8388608
Entries => 0
Hits => 0
Misses => 0
int(1)
int(0)
bool(true)
bool(true)
Entries => 3
Hits => 40
Misses => 5
Inserts: +3
bool(true)
disabled (apc.enable_cli=0 in the CLI)
disabled (apc.enabled=0)
