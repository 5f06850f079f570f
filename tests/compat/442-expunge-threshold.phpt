--TEST--
apc.expunge_threshold: accepted from 0 to 100 with no effect, else startup stops
--DESCRIPTION--
The setting is from APCu's master, the successor of apc.smart: default 0.5,
system-only, accepted from 0 to 100 with no effect (the cache works,
apc.smart stays). Outside that range startup stops with APCu's error.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
$code = 'echo json_encode([ini_get("apc.expunge_threshold"), ini_get("apc.smart"), apcu_enabled(), apcu_store("k", 1), apcu_fetch("k")]), "\n";';
foreach (['0', '0.5', '12.5', '100', '-1', '100.5'] as $t) {
    [$out, $status] = sc_run_php(['extension=' . sc_extension_path(), 'apc.enable_cli=1', "apc.expunge_threshold=$t",
                                  'display_startup_errors=1', 'log_errors=0'], $code);
    echo "$t: exit ", $status === 0 ? 0 : 'non-zero', "\n", sc_strip_startup_trace(trim($out), $status), "\n";
}
echo "-- here\n";
var_dump(ini_get('apc.expunge_threshold'), ini_set('apc.expunge_threshold', '10'), ini_get_all('apcu')['apc.expunge_threshold']['access']);
?>
--EXPECT--
0: exit 0
["0","0",true,true,1]
0.5: exit 0
["0.5","0",true,true,1]
12.5: exit 0
["12.5","0",true,true,1]
100: exit 0
["100","0",true,true,1]
-1: exit non-zero
Fatal error: PHP Startup: apc.expunge_threshold must be a value from 0.0 - 100.0 in Unknown on line 0
100.5: exit non-zero
Fatal error: PHP Startup: apc.expunge_threshold must be a value from 0.0 - 100.0 in Unknown on line 0
-- here
string(3) "0.5"
bool(false)
int(4)
