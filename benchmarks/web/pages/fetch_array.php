<?php
/*
 * benchmarks/web/pages/fetch_array.php - 100 apcu_fetch of 100-element
 * arrays ("wa:0".."wa:99", stored by init.php), each compared in full with
 * the template (its 'id' must be the key number). Any miss or wrong value:
 * status 500.
 */
require __DIR__ . '/array_tpl.inc';
$bad = 0;
for ($i = 0; $i < 100; $i++) {
    $v = apcu_fetch("wa:$i");
    if (!is_array($v) || ($v['id'] ?? null) !== $i) {
        $bad++;
        continue;
    }
    $v['id'] = 0;
    if ($v !== WEB_ARRAY_TPL) $bad++;
}
header('Content-Type: text/plain');
if ($bad) {
    http_response_code(500);
    echo "fetch_array: $bad wrong values\n";
} else {
    echo "ok\n";
}
