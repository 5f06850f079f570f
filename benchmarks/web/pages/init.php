<?php
/*
 * benchmarks/web/pages/init.php - stores what the fetch pages read:
 * "ws:<i>" => i * 1000003 (i < 100) and "wa:<i>" => WEB_ARRAY_TPL with
 * 'id' => i (i < 100). 200 "ok" when every store returned true.
 */
require __DIR__ . '/array_tpl.inc';
header('Content-Type: text/plain');
$bad = 0;
for ($i = 0; $i < 100; $i++) {
    if (apcu_store("ws:$i", $i * 1000003) !== true) $bad++;
    $a = WEB_ARRAY_TPL;
    $a['id'] = $i;
    if (apcu_store("wa:$i", $a) !== true) $bad++;
}
if ($bad) {
    http_response_code(500);
    echo "init: $bad stores failed\n";
} else {
    echo "ok\n";
}
