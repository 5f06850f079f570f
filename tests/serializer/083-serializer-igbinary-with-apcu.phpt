--TEST--
shardcache: with APCu and igbinary loaded, shardcache_* use igbinary too
--DESCRIPTION--
apc.serializer=igbinary (APCu's setting) makes shardcache_* use igbinary,
found in APCu's registry.
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache not loaded');
if (extension_loaded('apcu') && !isset((new ReflectionExtension('apcu'))->getDependencies()['shardcache'])) die('skip APCu already loaded');
if (!file_exists(ini_get('extension_dir') . '/apcu.so')) die('skip apcu.so not installed');
if (!file_exists(ini_get('extension_dir') . '/igbinary.so')) die('skip igbinary.so not installed');
?>
--INI--
extension=apcu.so
extension=igbinary.so
apc.enable_cli=1
apc.serializer=igbinary
--FILE--
<?php
require __DIR__ . '/../lib/serializer.inc';
var_dump((new ReflectionExtension('apcu'))->getDependencies());
echo shardcache_info_row('Serializer'), "\n";
var_dump(shardcache_store('q', new SerQ), shardcache_fetch('q'), apcu_exists('q'));
var_dump(shardcache_store('u', [new SerU(5)]), shardcache_fetch('u'));
?>
--EXPECTF--
array(0) {
}
igbinary (registered with APCu)

Notice: shardcache_store(): "nope" returned as member variable from __sleep() but does not exist in %s on line %d

Deprecated: shardcache_fetch(): Creation of dynamic property SerQ::$nope is deprecated in %s on line %d
bool(true)
object(SerQ)#%d (2) {
  ["a"]=>
  int(1)
  ["nope"]=>
  NULL
}
bool(false)
bool(true)
array(1) {
  [0]=>
  object(SerU)#%d (1) {
    ["v"]=>
    int(11)
  }
}
