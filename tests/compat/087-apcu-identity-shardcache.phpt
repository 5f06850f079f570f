--TEST--
shardcache: the "apcu" extension it registers depends on it, APCu can coexist
--DESCRIPTION--
The "apcu" extension shardcache registers depends on shardcache and says so
in phpinfo; the apc.* entries are listed under it. With the real APCu loaded
too (in either order) APCu keeps its name and everything starts and shuts
down cleanly.
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache not loaded');
if (extension_loaded('apcu') && !isset((new ReflectionExtension('apcu'))->getDependencies()['shardcache'])) die('skip APCu itself loaded');
// the second half loads the real APCu beside shardcache (shardcache itself answers to extension_loaded('apcu'))
if (!file_exists(ini_get('extension_dir') . '/apcu.so')) die('skip apcu.so not installed');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
var_dump((new ReflectionExtension('apcu'))->getDependencies());
ob_start();
(new ReflectionExtension('apcu'))->info();
$info = ob_get_clean();
var_dump(preg_match('/^APCu Support => Enabled$/m', $info), preg_match('/^Version => 5\.1\.28$/m', $info),
         preg_match('/^Provided by => shardcache /m', $info), preg_match('/^apc\.serializer => php => php$/m', $info));
echo implode(' ', array_keys(ini_get_all('shardcache'))), "\n";
echo implode(' ', array_filter(get_extension_funcs('shardcache'), fn($f) => strncmp($f, 'apcu_', 5) === 0)), "|\n";
var_dump(apcu_store('k', 'one cache'), shardcache_fetch('k'));

// the real APCu next to shardcache, in both load orders
$code = '
    $r = new ReflectionExtension("apcu");
    echo phpversion("apcu"), " deps=", json_encode($r->getDependencies()),
        " apcu_store=", (new ReflectionFunction("apcu_store"))->getExtensionName(),
        " APCUIterator=", (new ReflectionClass("APCUIterator"))->getExtensionName(), "\n";
    echo "shardcache apcu_*: ", count(array_filter(get_extension_funcs("shardcache"), fn($f) => strncmp($f, "apcu_", 5) === 0)), "\n";
    var_dump(apcu_store("a", "in APCu"), shardcache_store("s", "in shardcache"));
    var_dump(apcu_fetch("s"), shardcache_fetch("a"), apcu_fetch("a"), shardcache_fetch("s"));
    echo "done\n";';
foreach ([['extension=apcu.so', 'extension=' . sc_extension_path()],
          ['extension=' . sc_extension_path(), 'extension=apcu.so']] as $order) {
    [$out, $status] = sc_run_php(array_merge($order, ['apc.enable_cli=1']), $code);
    echo $out, "exit $status\n";
}
?>
--EXPECTF--
array(1) {
  ["shardcache"]=>
  string(8) "Required"
}
int(1)
int(1)
int(1)
int(1)
shardcache.apcu_compat shardcache.isolation shardcache.segment shardcache.segment_mode shardcache.shards shardcache.zero_copy shardcache.zero_copy_max
|
bool(true)
string(9) "one cache"
%d.%d.%d deps=[] apcu_store=apcu APCUIterator=apcu
shardcache apcu_*: 0
bool(true)
bool(true)
bool(false)
bool(false)
string(7) "in APCu"
string(13) "in shardcache"
done
exit 0
%d.%d.%d deps=[] apcu_store=apcu APCUIterator=apcu
shardcache apcu_*: 0
bool(true)
bool(true)
bool(false)
bool(false)
string(7) "in APCu"
string(13) "in shardcache"
done
exit 0
