<?php
/*
 * benchmarks/web/pages/abuse_check.php - the final check of the fpm abuse
 * test: every key of abuse.inc that is present must hold a correct value,
 * and the cache must still work: a fresh small string and array (< 256
 * bytes) can be stored, fetched back identical, deleted, and are then gone;
 * a counter can be created and incremented. Two bigger values (~4 KB) may be
 * refused by a full cache (counted as refused=N in the body), but if stored
 * must behave the same. 200 "ok ... refused=N" or 500 with the reasons.
 */
require __DIR__ . '/abuse.inc';

$present = 0;
for ($n = 0; $n < AB_NKEYS; $n++) {
    $key = ab_key($n);
    $v = apcu_fetch($key, $ok);
    if ($ok) {
        $present++;
        ab_check($key, $v);
    }
}
for ($n = 0; $n < AB_NCOUNTERS; $n++) {
    $v = apcu_fetch("ab:c$n", $ok);
    if ($ok) ab_check("ab:c$n", $v);
}

$pid = getmypid();
$fail = [];
$refused = 0;
$tag = $pid . '.' . hrtime(true);
// Small values (< 256 bytes) must always be stored; the bigger ones may be
// refused by a full cache (counted), but when stored they must read back.
$tests = [
    ["ab:s-final-$tag", str_repeat("$tag;", 4), true],
    ["ab:a-final-$tag", ['k' => $tag, 'n' => [1, 2, 3], 'pid' => $pid], true],
    ["ab:S-final-$tag", str_repeat("$tag;", 200), false],
    ["ab:A-final-$tag", ['k' => $tag, 'list' => range(1, 50), 'pid' => $pid], false],
];
foreach ($tests as [$key, $v, $must]) {
    if (apcu_store($key, $v) !== true) {
        if ($must) $fail[] = "store $key";
        else $refused++;
        continue;
    }
    if (apcu_fetch($key) !== $v) $fail[] = "fetch-back $key";
    if (apcu_delete($key) !== true) $fail[] = "delete $key";
    if (apcu_exists($key) !== false) $fail[] = "still exists $key";
}
$ckey = "ab:c-final-$tag";
if (apcu_inc($ckey, 5) !== 5 || apcu_inc($ckey, 2) !== 7 || apcu_fetch($ckey) !== 7) $fail[] = "inc $ckey";
apcu_delete($ckey);

if ($fail) {
    header('Content-Type: text/plain');
    header('X-Sc-Wrong: ' . $GLOBALS['ab_wrong']);
    http_response_code(500);
    echo 'cache broken: ', implode('; ', $fail), " (present=$present wrong={$GLOBALS['ab_wrong']})\n";
    exit;
}
ab_finish("present=$present refused=$refused");
