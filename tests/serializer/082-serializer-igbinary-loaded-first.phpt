--TEST--
shardcache: igbinary started before shardcache is used through its C API
--DESCRIPTION--
With apc.serializer=igbinary and igbinary started before shardcache (so it
found no registration hook), igbinary is used through its C API.
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache not loaded');
if (!file_exists(ini_get('extension_dir') . '/igbinary.so')) die('skip igbinary.so not installed');
?>
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
$code = 'require ' . var_export(__DIR__ . '/../lib/serializer.inc', true) . ';
    var_dump(array_search("igbinary", array_map("strtolower", get_loaded_extensions()))
             < array_search("shardcache", get_loaded_extensions()));
    echo shardcache_info_row("Serializer"), "\n";
    serializer_sleep_probe();
    var_dump(apcu_store("u", ["x" => new SerU(3)]), apcu_fetch("u"));';
[$out, $status] = sc_run_php(['extension=igbinary.so', 'extension=' . sc_extension_path(),
                              'apc.enable_cli=1', 'apc.serializer=igbinary'], $code);
echo $out, "exit $status\n";
?>
--EXPECTF--
bool(true)
igbinary (through its C API)
-- sleep probe

Notice: apcu_store(): "nope" returned as member variable from __sleep() but does not exist in %sserializer.inc on line %d
bool(true)

Deprecated: apcu_fetch(): Creation of dynamic property SerQ::$nope is deprecated in %sserializer.inc on line %d
object(SerQ)#%d (2) {
  ["a"]=>
  int(1)
  ["nope"]=>
  NULL
}
bool(true)
array(1) {
  ["x"]=>
  object(SerU)#%d (1) {
    ["v"]=>
    int(7)
  }
}
exit 0
