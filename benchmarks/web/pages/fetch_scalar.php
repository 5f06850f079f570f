<?php
/*
 * benchmarks/web/pages/fetch_scalar.php - 100 apcu_fetch of integers
 * ("ws:0".."ws:99", stored by init.php), each compared with its expected
 * value. Any miss or wrong value: status 500.
 */
$bad = 0;
for ($i = 0; $i < 100; $i++) {
    if (apcu_fetch("ws:$i") !== $i * 1000003) $bad++;
}
header('Content-Type: text/plain');
if ($bad) {
    http_response_code(500);
    echo "fetch_scalar: $bad wrong values\n";
} else {
    echo "ok\n";
}
