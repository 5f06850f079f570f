--TEST--
shardcache: apc.shm_size at or above the 32G limit: a warning and a 32M segment
--DESCRIPTION--
Given 40G: a startup warning and a 32M segment instead. APCu stops with a
fatal error when it cannot map it.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache not loaded'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=40G
--FILE--
<?php
var_dump(ini_get('apc.shm_size'), apcu_enabled(), apcu_store('k', 'v'), apcu_fetch('k'));
ob_start();
(new ReflectionExtension('shardcache'))->info();
preg_match('/^Shared memory bytes => (\d+)$/m', ob_get_clean(), $m);
var_dump($m[1]);
?>
--EXPECT--
Warning: PHP Startup: shardcache: apc.shm_size must be below 32G; using 32M in Unknown on line 0
string(3) "40G"
bool(true)
bool(true)
string(1) "v"
string(8) "33554432"
