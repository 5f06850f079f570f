--TEST--
With the real APCu loaded too, apcu_* stay APCu's, shardcache_* have their own
--DESCRIPTION--
The shardcache_* functions are shardcache's own, separate cache.
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache not loaded');
// (SKIPIF runs without this test's --INI--, so APCu is not loaded here yet)
if (extension_loaded('apcu') && !isset((new ReflectionExtension('apcu'))->getDependencies()['shardcache'])) die('skip APCu already loaded');
if (!file_exists(ini_get('extension_dir') . '/apcu.so')) die('skip apcu.so not installed');
?>
--INI--
extension=apcu.so
apc.enable_cli=1
--FILE--
<?php
var_dump(extension_loaded('apcu'), extension_loaded('shardcache'));
foreach (['store', 'add', 'fetch', 'exists', 'delete', 'clear_cache', 'enabled'] as $f) {
    echo "apcu_$f: ", (new ReflectionFunction("apcu_$f"))->getExtensionName(),
        ", shardcache_$f: ", (new ReflectionFunction("shardcache_$f"))->getExtensionName(), "\n";
}
var_dump(apcu_enabled());
var_dump(apcu_store('k', 'in apcu'));
var_dump(shardcache_enabled());
var_dump(shardcache_store('k', 'in shardcache'), shardcache_store('only_sc', 1));
var_dump(apcu_fetch('k'), shardcache_fetch('k'), apcu_exists('only_sc'));
var_dump(shardcache_clear_cache(), apcu_fetch('k'));
?>
--EXPECT--
bool(true)
bool(true)
apcu_store: apcu, shardcache_store: shardcache
apcu_add: apcu, shardcache_add: shardcache
apcu_fetch: apcu, shardcache_fetch: shardcache
apcu_exists: apcu, shardcache_exists: shardcache
apcu_delete: apcu, shardcache_delete: shardcache
apcu_clear_cache: apcu, shardcache_clear_cache: shardcache
apcu_enabled: apcu, shardcache_enabled: shardcache
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(7) "in apcu"
string(13) "in shardcache"
bool(false)
bool(true)
string(7) "in apcu"
