<?php
/*
 * benchmarks/web/pages/abuse.php - one request of the fpm abuse test: 30
 * random operations on the shared keys of abuse.inc (store, fetch, multi-key
 * fetch, add, delete, store-then-fetch, inc), every value read checked.
 * Status 500 and "X-Sc-Wrong: N" when a value read was wrong; 200 otherwise.
 */
require __DIR__ . '/abuse.inc';

$pid = getmypid();
$ops = 0;
for ($i = 0; $i < 30; $i++, $ops++) {
    $key = ab_key(mt_rand(0, AB_NKEYS - 1));
    $r = mt_rand(0, 99);
    if ($r < 35) {
        ab_store($key, ab_make($key, $pid, mt_rand()));
    } elseif ($r < 75) {
        $v = apcu_fetch($key, $ok);
        if ($ok) ab_check($key, $v);
    } elseif ($r < 82) {
        $keys = [$key];
        for ($j = 0; $j < 3; $j++) $keys[] = ab_key(mt_rand(0, AB_NKEYS - 1));
        $got = apcu_fetch($keys);
        if (!is_array($got)) {
            ab_wrong($key, "multi-key fetch returned " . gettype($got));
        } else {
            foreach ($got as $k => $v) {
                if (!in_array($k, $keys, true)) {
                    ab_wrong((string) $k, "multi-key fetch returned a key not asked for");
                } else {
                    ab_check($k, $v);
                }
            }
        }
    } elseif ($r < 87) {
        apcu_add($key, ab_make($key, $pid, mt_rand()));
    } elseif ($r < 92) {
        apcu_delete($key);
    } elseif ($r < 97) {
        if (ab_store($key, ab_make($key, $pid, mt_rand()))) {
            $v = apcu_fetch($key, $ok);
            if ($ok) ab_check($key, $v);
        }
    } else {
        $ckey = 'ab:c' . mt_rand(0, AB_NCOUNTERS - 1);
        $v = apcu_inc($ckey, 1, $ok);
        if ($ok) ab_check($ckey, $v);
        $v = apcu_fetch($ckey, $ok);
        if ($ok) ab_check($ckey, $v);
    }
}
ab_finish("ops=$ops");
