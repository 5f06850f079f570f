--TEST--
apc.shm_segments (removed in APCu 5.1.25): accepted quietly, not a setting
--DESCRIPTION--
Accepted quietly whatever its value (no warning); not a setting (ini_get is
false, not in ini_get_all('apcu')); the cache works.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.shm_segments=4
--FILE--
<?php
var_dump(ini_get('apc.shm_segments'), array_key_exists('apc.shm_segments', ini_get_all('apcu')));
var_dump(apcu_enabled(), apcu_store('k', [1]), apcu_fetch('k'));
?>
--EXPECT--
bool(false)
bool(false)
bool(true)
bool(true)
array(1) {
  [0]=>
  int(1)
}
