--TEST--
apc.* INI settings: names, defaults and change modes of APCu 5.1.28
--DESCRIPTION--
The same names, defaults and change modes as APCu 5.1.28, plus
apc.expunge_threshold of APCu's master. Read with ini_get_all, ini_get and
ini_get_all('apcu').
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
$apc = array_filter(ini_get_all(), fn($k) => strncmp($k, 'apc.', 4) === 0, ARRAY_FILTER_USE_KEY);
if (PHP_VERSION_ID >= 80600) {
    // PHP 8.6 also gives each entry's built-in default. It must be APCu's
    // default: the global value here for every entry but apc.enable_cli
    // (1 from --INI--, default 0). Checked and taken out, so that the
    // listing below is the same on every PHP version.
    foreach ($apc as $name => &$entry) {
        $want = $name === 'apc.enable_cli' ? '0' : $entry['global_value'];
        if (!array_key_exists('builtin_default_value', $entry) || $entry['builtin_default_value'] !== $want) {
            echo "$name: builtin_default_value ", var_export($entry['builtin_default_value'] ?? 'missing', true),
                 ', expected ', var_export($want, true), "\n";
        }
        unset($entry['builtin_default_value']);
    }
    unset($entry);
}
var_export($apc);
echo "\n";
foreach (array_keys($apc) as $name) {
    echo $name, ' = ', var_export(ini_get($name), true), "\n";
}
// the same entries, listed under the extension name "apcu"
var_dump(ini_get_all('apcu', false) === array_map(fn($e) => $e['local_value'], $apc));
?>
--EXPECT--
array (
  'apc.coredump_unmap' => 
  array (
    'global_value' => '0',
    'local_value' => '0',
    'access' => 4,
  ),
  'apc.enable_cli' => 
  array (
    'global_value' => '1',
    'local_value' => '1',
    'access' => 4,
  ),
  'apc.enabled' => 
  array (
    'global_value' => '1',
    'local_value' => '1',
    'access' => 4,
  ),
  'apc.entries_hint' => 
  array (
    'global_value' => '0',
    'local_value' => '0',
    'access' => 4,
  ),
  'apc.expunge_threshold' => 
  array (
    'global_value' => '0.5',
    'local_value' => '0.5',
    'access' => 4,
  ),
  'apc.gc_ttl' => 
  array (
    'global_value' => '3600',
    'local_value' => '3600',
    'access' => 4,
  ),
  'apc.mmap_file_mask' => 
  array (
    'global_value' => NULL,
    'local_value' => NULL,
    'access' => 4,
  ),
  'apc.mmap_hugepage_size' => 
  array (
    'global_value' => '0',
    'local_value' => '0',
    'access' => 4,
  ),
  'apc.preload_path' => 
  array (
    'global_value' => NULL,
    'local_value' => NULL,
    'access' => 4,
  ),
  'apc.serializer' => 
  array (
    'global_value' => 'php',
    'local_value' => 'php',
    'access' => 4,
  ),
  'apc.shm_size' => 
  array (
    'global_value' => '32M',
    'local_value' => '32M',
    'access' => 4,
  ),
  'apc.slam_defense' => 
  array (
    'global_value' => '0',
    'local_value' => '0',
    'access' => 4,
  ),
  'apc.smart' => 
  array (
    'global_value' => '0',
    'local_value' => '0',
    'access' => 4,
  ),
  'apc.ttl' => 
  array (
    'global_value' => '0',
    'local_value' => '0',
    'access' => 4,
  ),
  'apc.use_request_time' => 
  array (
    'global_value' => '0',
    'local_value' => '0',
    'access' => 7,
  ),
)
apc.coredump_unmap = '0'
apc.enable_cli = '1'
apc.enabled = '1'
apc.entries_hint = '0'
apc.expunge_threshold = '0.5'
apc.gc_ttl = '3600'
apc.mmap_file_mask = ''
apc.mmap_hugepage_size = '0'
apc.preload_path = ''
apc.serializer = 'php'
apc.shm_size = '32M'
apc.slam_defense = '0'
apc.smart = '0'
apc.ttl = '0'
apc.use_request_time = '0'
bool(true)
