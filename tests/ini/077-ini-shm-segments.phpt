--TEST--
apc.shm_segments other than 1: APCu's startup warning (one mmap segment only), ini_get keeps the value, the cache works
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.shm_segments=4
--FILE--
<?php
var_dump(ini_get('apc.shm_segments'), apcu_enabled(), apcu_store('k', [1]), apcu_fetch('k'));
?>
--EXPECT--
Warning: PHP Startup: apc.shm_segments setting ignored in MMAP mode in Unknown on line 0
string(1) "4"
bool(true)
bool(true)
array(1) {
  [0]=>
  int(1)
}
