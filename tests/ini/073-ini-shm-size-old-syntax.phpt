--TEST--
apc.shm_size below 1M (64): APCu's startup warning, read as 64M, cache works
--DESCRIPTION--
This is the old syntax. ini_get keeps "64".
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=64
--FILE--
<?php
var_dump(ini_get('apc.shm_size'), apcu_enabled());
// 40 values of 1 MiB: they need more than 32M, so the segment is 64M
$big = str_repeat('x', 1 << 20);
$stored = 0;
for ($i = 0; $i < 40; $i++) {
    $stored += apcu_store("big$i", $big . $i) ? 1 : 0;
}
$found = 0;
for ($i = 0; $i < 40; $i++) {
    $found += apcu_fetch("big$i") === $big . $i ? 1 : 0;
}
var_dump($stored, $found);
?>
--EXPECT--
Warning: PHP Startup: apc.shm_size now uses M/G suffixes, please update your ini files in Unknown on line 0
string(2) "64"
bool(true)
int(40)
int(40)
