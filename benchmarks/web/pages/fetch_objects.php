<?php
/*
 * benchmarks/web/pages/fetch_objects.php - what a page of an application
 * fetches: WEB_OBJ_LISTS times a list of 50 entities ("wo:list:<i>") and
 * two events holding DateTimeImmutable ("wo:ev:<2i>", "wo:ev:<2i+1>"), all
 * stored by init.php (obj_tpl.inc). Every property of every object is
 * checked; any miss or wrong value: status 500.
 */
require __DIR__ . '/obj_tpl.inc';
$bad = 0;
for ($i = 0; $i < WEB_OBJ_LISTS; $i++) {
    if (!web_obj_list_ok($i, apcu_fetch("wo:list:$i"))) $bad++;
    for ($k = 2 * $i; $k < 2 * $i + 2; $k++) {
        if (!web_obj_event_ok($k, apcu_fetch("wo:ev:$k"))) $bad++;
    }
}
header('Content-Type: text/plain');
if ($bad) {
    http_response_code(500);
    echo "fetch_objects: $bad wrong values\n";
} else {
    echo "ok\n";
}
