--TEST--
apc.shm_size that is not a size: warning, refused, the cache works with 32M
--DESCRIPTION--
Given "abc": PHP's quantity warning, the setting is refused (ini_get shows
the default 32M), and the cache works with 32M.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=abc
--FILE--
<?php
var_dump(ini_get('apc.shm_size'), apcu_enabled(), apcu_store('k', 'v'), apcu_fetch('k'));
?>
--EXPECT--
Warning: Invalid "apc.shm_size" setting. Invalid quantity "abc": no valid leading digits, interpreting as "0" for backwards compatibility in Unknown on line 0
string(3) "32M"
bool(true)
bool(true)
string(1) "v"
