--TEST--
With APCu loaded too, the iterator, constants and *_info functions stay APCu's
--DESCRIPTION--
APCUIterator, the APC_* constants and apcu_*_info stay APCu's;
shardcache_*_info report shardcache's own cache. With
shardcache.apcu_compat=0 no APCu name is registered.
--SKIPIF--
<?php
// run-tests runs this with the --INI-- below, so APCu is loaded here when it is installed
if (!extension_loaded('shardcache')) die('skip shardcache not loaded');
// shardcache itself answers to extension_loaded('apcu'): look for the real APCu's file
if (!file_exists(ini_get('extension_dir') . '/apcu.so')) die('skip apcu.so not installed');
if (!is_readable('/proc/self/cmdline')) die('skip /proc/self/cmdline not readable');
?>
--INI--
extension=apcu.so
apc.enable_cli=1
--FILE--
<?php
var_dump(extension_loaded('apcu'), extension_loaded('shardcache'));
var_dump((new ReflectionClass('APCUIterator'))->getExtensionName());
$sc = new ReflectionExtension('shardcache');
var_dump($sc->getClassNames(), $sc->getConstants());
foreach (['cache_info', 'key_info', 'sma_info'] as $f) {
    echo "apcu_$f: ", (new ReflectionFunction("apcu_$f"))->getExtensionName(),
         ", shardcache_$f: ", (new ReflectionFunction("shardcache_$f"))->getExtensionName(), "\n";
}
var_dump(apcu_store('in_apcu', 1), shardcache_store('in_shardcache', 2));
var_dump(array_column(apcu_cache_info()['cache_list'], 'info'), array_column(shardcache_cache_info()['cache_list'], 'info'));
var_dump(apcu_key_info('in_shardcache'), shardcache_key_info('in_apcu'), is_array(shardcache_key_info('in_shardcache')));
var_dump(shardcache_info()['entries'], array_keys(iterator_to_array(new APCUIterator())));
var_dump(shardcache_sma_info(true)['num_seg'], shardcache_sma_info(true)['avail_mem'] > 0);

echo "-- shardcache alone with shardcache.apcu_compat=0\n";
$args = explode("\0", rtrim(file_get_contents('/proc/self/cmdline'), "\0"));
$ext = null;
foreach ($args as $i => $a) {
    $v = $a === '-d' ? ($args[$i + 1] ?? '') : (str_starts_with($a, '-d') ? substr($a, 2) : '');
    if (str_starts_with($v, 'extension=') && !str_contains(basename($v), 'apcu')) {
        $ext = substr($v, strlen('extension='));
    }
}
if ($ext === null) {
    echo "cannot find the shardcache extension on the command line\n";
} else {
    $code = 'var_dump(class_exists("APCUIterator"), defined("APC_ITER_ALL"), defined("APC_LIST_ACTIVE"), function_exists("apcu_cache_info"),'
          . ' shardcache_store("k", 1), count(shardcache_cache_info()["cache_list"]), shardcache_info()["entries"]);';
    passthru(escapeshellarg(PHP_BINARY) . ' -n -d ' . escapeshellarg("extension=$ext")
             . ' -d apc.enable_cli=1 -d shardcache.apcu_compat=0 -r ' . escapeshellarg($code) . ' 2>&1');
}
?>
--EXPECT--
bool(true)
bool(true)
string(4) "apcu"
array(0) {
}
array(0) {
}
apcu_cache_info: apcu, shardcache_cache_info: shardcache
apcu_key_info: apcu, shardcache_key_info: shardcache
apcu_sma_info: apcu, shardcache_sma_info: shardcache
bool(true)
bool(true)
array(1) {
  [0]=>
  string(7) "in_apcu"
}
array(1) {
  [0]=>
  string(13) "in_shardcache"
}
NULL
NULL
bool(true)
int(1)
array(1) {
  [0]=>
  string(7) "in_apcu"
}
int(1)
bool(true)
-- shardcache alone with shardcache.apcu_compat=0
bool(false)
bool(false)
bool(false)
bool(false)
bool(true)
int(1)
int(1)
