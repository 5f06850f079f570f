--TEST--
apc.serializer=igbinary: a resource nested in an array is NULL, as in APCu
--DESCRIPTION--
The resource goes to igbinary with the rest of the value (NULL, with
igbinary's notice), as in APCu. With the php serializer it is int(0).
--SKIPIF--
<?php if (!file_exists(ini_get('extension_dir') . '/igbinary.so')) die('skip igbinary.so not installed'); ?>
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
$ext = extension_loaded('shardcache') ? 'extension=' . sc_extension_path() : 'extension=apcu.so';
$code = '$f = fopen("php://memory", "r");
         var_dump(apcu_store("r", ["a" => 1, "res" => $f, "l" => [$f, "s"]]));
         echo json_encode(apcu_fetch("r")), "\n";';
foreach (['igbinary', 'php'] as $ser) {
    [$out, $status] = sc_run_php(['extension=igbinary.so', $ext, 'apc.enable_cli=1', "apc.serializer=$ser",
                                  'display_errors=1', 'error_reporting=-1'], $code);
    echo "-- $ser\n", $out, "exit $status\n";
}
?>
--EXPECTF--
-- igbinary

%s: apcu_store(): Cannot serialize resource(stream)%s

%s: apcu_store(): Cannot serialize resource(stream)%s
bool(true)
{"a":1,"res":null,"l":[null,"s"]}
exit 0
-- php
bool(true)
{"a":1,"res":0,"l":[0,"s"]}
exit 0
