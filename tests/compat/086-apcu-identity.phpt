--TEST--
Detected as APCu: extension, version, functions, iterator, settings, constants
--DESCRIPTION--
extension_loaded('apcu'); phpversion('apcu') is 5.1.28; the apcu_* functions
and APCUIterator belong to extension "apcu"; ini_get_all('apcu'); APCu's
constants.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
var_dump(extension_loaded('apcu'), extension_loaded('APCu'), phpversion('apcu'), in_array('apcu', get_loaded_extensions()));
$r = new ReflectionExtension('apcu');
var_dump($r->getName(), $r->getVersion());
$funcs = get_extension_funcs('apcu');
sort($funcs);
echo implode(' ', $funcs), "\n";
foreach ($funcs as $f) {
    if ((new ReflectionFunction($f))->getExtensionName() !== 'apcu') echo "$f: not in apcu\n";
}
var_dump(class_exists('APCUIterator'), (new ReflectionClass('APCUIterator'))->getExtensionName(), $r->getClassNames());
echo implode(' ', array_keys($r->getINIEntries())), "\n";
var_dump(ini_get('apc.enabled'), ini_get_all('apcu', false)['apc.serializer']);
$c = get_defined_constants(true)['apcu'];
// the serializer registration hook: a function address
$hook = "\0apc_register_serializer-0";
var_dump(isset($c[$hook]) && is_int($c[$hook]) && $c[$hook] !== 0);
unset($c[$hook]);
ksort($c);
var_export($c);
echo "\n";
?>
--EXPECT--
bool(true)
bool(true)
string(6) "5.1.28"
bool(true)
string(4) "apcu"
string(6) "5.1.28"
apcu_add apcu_cache_info apcu_cas apcu_clear_cache apcu_dec apcu_delete apcu_enabled apcu_entry apcu_exists apcu_fetch apcu_inc apcu_key_info apcu_sma_info apcu_store
bool(true)
string(4) "apcu"
array(1) {
  [0]=>
  string(12) "APCUIterator"
}
apc.enabled apc.shm_size apc.entries_hint apc.gc_ttl apc.ttl apc.smart apc.mmap_file_mask apc.mmap_hugepage_size apc.enable_cli apc.slam_defense apc.preload_path apc.coredump_unmap apc.use_request_time apc.serializer apc.expunge_threshold
string(1) "1"
string(3) "php"
bool(true)
array (
  'APC_ITER_ALL' => 4294967295,
  'APC_ITER_ATIME' => 128,
  'APC_ITER_CTIME' => 32,
  'APC_ITER_DTIME' => 64,
  'APC_ITER_KEY' => 2,
  'APC_ITER_MEM_SIZE' => 512,
  'APC_ITER_MTIME' => 16,
  'APC_ITER_NONE' => 0,
  'APC_ITER_NUM_HITS' => 8,
  'APC_ITER_REFCOUNT' => 256,
  'APC_ITER_TTL' => 1024,
  'APC_ITER_TYPE' => 1,
  'APC_ITER_VALUE' => 4,
  'APC_LIST_ACTIVE' => 1,
  'APC_LIST_DELETED' => 2,
)
