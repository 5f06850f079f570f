--TEST--
apc.ttl only lets idle entries be reclaimed; readers still see them
--DESCRIPTION--
apc.ttl only lets idle entries without their own ttl be reclaimed; it does
not make them expire for readers.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.ttl=1
--FILE--
<?php
var_dump(ini_get('apc.ttl'));
var_dump(apcu_store('idle', 'no own ttl'));
var_dump(apcu_store(['idle2' => 'no own ttl either']));
var_dump(apcu_store('own1', 'own ttl 1', 1));
var_dump(apcu_store('own100', 'own ttl 100', 100));
// let 2 full seconds pass (measured on the monotonic clock) since the stores: then whole-second
// clocks, wall or monotonic, show at least ctime + 2, so a 1-second ttl has certainly run out
$start = hrtime(true);
while (hrtime(true) - $start < 2100000000) {
    usleep(100000);
}
// idle entries past apc.ttl are still served (they are only eligible for reclaiming)
var_dump(apcu_fetch('idle', $ok), $ok, apcu_exists('idle'));
var_dump(apcu_add('idle2', 'add over idle'), apcu_fetch('idle2'));
// a per-entry ttl still applies exactly
var_dump(apcu_fetch('own1'), apcu_exists('own1'), apcu_fetch('own100'));
var_dump(apcu_add('own1', 'new'), apcu_fetch('own1'));
?>
--EXPECT--
string(1) "1"
bool(true)
array(0) {
}
bool(true)
bool(true)
string(10) "no own ttl"
bool(true)
bool(true)
bool(false)
string(17) "no own ttl either"
bool(false)
bool(false)
string(11) "own ttl 100"
bool(true)
string(3) "new"
