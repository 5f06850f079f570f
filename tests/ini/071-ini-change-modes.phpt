--TEST--
apc.* change modes: only apc.use_request_time can be set at run time
--DESCRIPTION--
ini_set fails for every PHP_INI_SYSTEM setting and works for
apc.use_request_time, which then freezes the clock of TTL checks at the
request start.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
foreach (array_keys(ini_get_all()) as $name) {
    if (strncmp($name, 'apc.', 4) !== 0) continue;
    $before = ini_get($name);
    $r = ini_set($name, $name === 'apc.shm_size' ? '64M' : ($name === 'apc.serializer' ? 'default' : '1'));
    echo $name, ': ini_set -> ', var_export($r, true), ', now ', var_export(ini_get($name), true);
    ini_restore($name);
    echo ', restored ', var_export(ini_get($name), true), ($before === ini_get($name) ? '' : ' CHANGED'), "\n";
}

// apc.use_request_time=1: "now" is the request start, so a 1-second ttl
// cannot run out during this request. (Not switched back: APCu then
// compares with a different clock.)
function wait_seconds($s) {   // measured on the monotonic clock
    $start = hrtime(true);
    while (hrtime(true) - $start < $s * 1000000000) {
        usleep(50000);
    }
}
var_dump(ini_set('apc.use_request_time', '1'), ini_get('apc.use_request_time'));
var_dump(apcu_store('t1', 'one second', 1));
wait_seconds(2.1);
var_dump(apcu_fetch('t1'), apcu_exists('t1'), apcu_add('t1', 'add over it'));
?>
--EXPECT--
apc.coredump_unmap: ini_set -> false, now '0', restored '0'
apc.enable_cli: ini_set -> false, now '1', restored '1'
apc.enabled: ini_set -> false, now '1', restored '1'
apc.entries_hint: ini_set -> false, now '0', restored '0'
apc.expunge_threshold: ini_set -> false, now '0.5', restored '0.5'
apc.gc_ttl: ini_set -> false, now '3600', restored '3600'
apc.mmap_file_mask: ini_set -> false, now '', restored ''
apc.mmap_hugepage_size: ini_set -> false, now '0', restored '0'
apc.preload_path: ini_set -> false, now '', restored ''
apc.serializer: ini_set -> false, now 'php', restored 'php'
apc.shm_size: ini_set -> false, now '32M', restored '32M'
apc.slam_defense: ini_set -> false, now '0', restored '0'
apc.smart: ini_set -> false, now '0', restored '0'
apc.ttl: ini_set -> false, now '0', restored '0'
apc.use_request_time: ini_set -> '0', now '1', restored '0'
string(1) "0"
string(1) "1"
bool(true)
string(10) "one second"
bool(true)
bool(false)
