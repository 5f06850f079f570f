<?php
/*
 * benchmarks/web/pages/init.php - stores what the fetch pages read:
 * "ws:<i>" => i * 1000003 (i < 100) and "wa:<i>" => WEB_ARRAY_TPL with
 * 'id' => i (i < 100); "wo:list:<i>" (i < WEB_OBJ_LISTS) and "wo:ev:<k>"
 * (k < 2 * WEB_OBJ_LISTS), the objects of obj_tpl.inc. 200 "ok" when every
 * store returned true and every object value reads back as it must.
 */
require __DIR__ . '/array_tpl.inc';
require __DIR__ . '/obj_tpl.inc';
header('Content-Type: text/plain');
$bad = 0;
for ($i = 0; $i < 100; $i++) {
    if (apcu_store("ws:$i", $i * 1000003) !== true) $bad++;
    $a = WEB_ARRAY_TPL;
    $a['id'] = $i;
    if (apcu_store("wa:$i", $a) !== true) $bad++;
}
for ($i = 0; $i < WEB_OBJ_LISTS; $i++) {
    if (apcu_store("wo:list:$i", web_obj_list($i)) !== true
        || !web_obj_list_ok($i, apcu_fetch("wo:list:$i"))) $bad++;
}
for ($k = 0; $k < 2 * WEB_OBJ_LISTS; $k++) {
    if (apcu_store("wo:ev:$k", web_obj_event($k)) !== true
        || !web_obj_event_ok($k, apcu_fetch("wo:ev:$k"))) $bad++;
}
if ($bad) {
    http_response_code(500);
    echo "init: $bad stores failed or read back wrong\n";
} else {
    echo "ok\n";
}
