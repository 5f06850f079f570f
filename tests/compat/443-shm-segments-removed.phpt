--TEST--
apc.shm_segments (removed in APCu 5.1.25): any value starts quietly
--DESCRIPTION--
Any value (1, 0, 4, not a number) starts quietly with display_startup_errors
on: no warning, ini_get() is false as in APCu 5.1.28, and the cache works.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
$code = 'echo json_encode([ini_get("apc.shm_segments"), apcu_enabled(), apcu_store("k", 1), apcu_fetch("k"), apcu_sma_info(true)["num_seg"]]), "\n";';
foreach (['1', '0', '4', 'abc'] as $v) {
    [$out, $status] = sc_run_php(['extension=' . sc_extension_path(), 'apc.enable_cli=1', "apc.shm_segments=$v",
                                  'display_startup_errors=1', 'error_reporting=-1', 'log_errors=0'], $code);
    echo "$v: exit $status ", trim($out), "\n";
}
?>
--EXPECT--
1: exit 0 [false,true,true,1,1]
0: exit 0 [false,true,true,1,1]
4: exit 0 [false,true,true,1,1]
abc: exit 0 [false,true,true,1,1]
