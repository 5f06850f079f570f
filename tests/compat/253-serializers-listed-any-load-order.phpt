--TEST--
The APCu identity lists every usable serializer whatever the load order
--DESCRIPTION--
igbinary is started before or after the cache extension; APCu lists "php,
igbinary" both ways.
--SKIPIF--
<?php
if (!file_exists(ini_get('extension_dir') . '/igbinary.so')) die('skip igbinary.so not installed');
if (extension_loaded('shardcache') && !extension_loaded('apcu')) die('skip needs the APCu identity');
?>
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
$ext = extension_loaded('shardcache') ? 'extension=' . sc_extension_path() : 'extension=apcu.so';
$code = 'ob_start(); $r = new ReflectionExtension("apcu"); $r->info(); $i = ob_get_clean();
         preg_match("/Serialization Support => (.*)/", $i, $m); echo $m[1], "\n";';
foreach ([['extension=igbinary.so', $ext], [$ext, 'extension=igbinary.so']] as $order) {
    [$out, $status] = sc_run_php(array_merge($order, ['apc.enable_cli=1']), $code);
    echo $out, "exit $status\n";
}
?>
--EXPECT--
php, igbinary
exit 0
php, igbinary
exit 0
