--TEST--
apc.shm_size=0: refused without a message, the cache works
--DESCRIPTION--
ini_get shows the default 32M.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=0
--FILE--
<?php
var_dump(ini_get('apc.shm_size'), apcu_enabled(), apcu_store('k', 'v'), apcu_fetch('k'));
?>
--EXPECT--
string(3) "32M"
bool(true)
bool(true)
string(1) "v"
