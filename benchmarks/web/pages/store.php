<?php
/*
 * benchmarks/web/pages/store.php - 10 apcu_store per request into a rolling
 * set of 1000 keys per worker ("wst:<pid>:<slot>", 10 consecutive slots from
 * a random start), each value a small array (pid, slot, time, 64-byte
 * string). Every store must return true and the last value, fetched back,
 * must be identical (only this worker writes its keys). Otherwise 500.
 */
$pid = getmypid();
$base = mt_rand(0, 999);
$t = hrtime(true);
$bad = 0;
$key = '';
$v = null;
for ($j = 0; $j < 10; $j++) {
    $slot = ($base + $j) % 1000;
    $key = "wst:$pid:$slot";
    $v = ['pid' => $pid, 'slot' => $slot, 't' => $t + $j,
          's' => str_pad("$pid/$slot/$t", 64, '.')];
    if (apcu_store($key, $v) !== true) $bad++;
}
if (apcu_fetch($key) !== $v) $bad++;
header('Content-Type: text/plain');
if ($bad) {
    http_response_code(500);
    echo "store: $bad failures\n";
} else {
    echo "ok\n";
}
