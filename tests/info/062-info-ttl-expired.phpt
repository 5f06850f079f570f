--TEST--
Expired entries are listed nowhere; ttl is reported per entry
--DESCRIPTION--
Expired entries are not listed by APCUIterator, apcu_cache_info's cache_list
or apcu_key_info. The ttl is reported per entry.
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
apcu_store('forever', 1);
apcu_store('short', 2, 1);
apcu_store('long', 3, 1000);
function listed() {
    $it = new APCUIterator(null, APC_ITER_TTL);
    $out = [];
    foreach ($it as $k => $item) {
        $out[$k] = $item['ttl'];
    }
    ksort($out);
    $ci = [];
    foreach (apcu_cache_info()['cache_list'] as $e) {
        $ci[$e['info']] = $e['ttl'];
    }
    ksort($ci);
    $ki = [];
    foreach (['forever', 'short', 'long'] as $k) {
        $ki[$k] = apcu_key_info($k)['ttl'] ?? null;
    }
    echo json_encode($out), ' ', json_encode($ci), ' ', json_encode($ki), ' count ', $it->getTotalCount(), "\n";
}
listed();
// let 2 full seconds pass on the monotonic clock: any whole-second clock then
// shows at least ctime + 2, past the 1-second ttl
$start = hrtime(true);
while (hrtime(true) - $start < 2100000000) {
    usleep(100000);
}
listed();
var_dump(apcu_delete(new APCUIterator()));
listed();
?>
--EXPECT--
{"forever":0,"long":1000,"short":1} {"forever":0,"long":1000,"short":1} {"forever":0,"short":1,"long":1000} count 3
{"forever":0,"long":1000} {"forever":0,"long":1000,"short":1} {"forever":0,"short":1,"long":1000} count 2
bool(true)
[] {"short":1} {"forever":null,"short":1,"long":null} count 0
