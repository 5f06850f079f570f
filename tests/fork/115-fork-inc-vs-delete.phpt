--TEST--
apcu_inc/apcu_dec racing apcu_delete and apcu_store: every inc/dec succeeds
--DESCRIPTION--
Every inc/dec of the same key succeeds with an int: a missing key is
recreated from 0, never reported as a failure.
--SKIPIF--
<?php require __DIR__ . '/../lib/fork-update.inc'; fu_skip(); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
const N = 30000;
$kids = fu_start(4, function (int $id) {
    $bad = [];
    $ops = 0;
    for ($i = 0; $i < N; $i++) {
        $k = 'hot' . ($i % 4);
        if ($id === 3) {                     // the deleter: delete, or store an int
            if ($i % 2) apcu_delete($k); else apcu_store($k, 1000000);
            continue;
        }
        $ok = null;
        $r = $id === 2 ? apcu_dec($k, 1, $ok) : apcu_inc($k, 1, $ok);
        $ops++;
        if ($ok !== true || !is_int($r)) {
            if (count($bad) < 5) $bad[] = "op $i on $k: " . var_export($r, true) . ' success=' . var_export($ok, true);
        }
        $r = apcu_cas($k, -12345, 1);        // never matches: must not create anything wrong
    }
    return ['ops' => $ops, 'bad' => $bad];
});
fu_go($kids);
$errors = 0;
$res = fu_finish($kids, $errors);
$ops = 0;
foreach ($res as $id => $r) {
    $ops += $r['ops'];
    foreach ($r['bad'] as $b) { echo "process $id: $b\n"; $errors++; }
}
for ($i = 0; $i < 4; $i++) {
    $v = apcu_fetch("hot$i", $ok);
    if ($ok && !is_int($v)) { echo "hot$i holds ", var_export($v, true), "\n"; $errors++; }
}
echo "ops: $ops, errors: $errors\n";
?>
--EXPECT--
ops: 90000, errors: 0
