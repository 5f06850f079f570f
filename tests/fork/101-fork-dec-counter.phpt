--TEST--
4 processes x 50,000 apcu_dec on one counter: exactly 0, one serial history
--DESCRIPTION--
The steps are 1 and 2, the counter starts at 300,000. It ends at exactly 0
and the results form one serial history.
--SKIPIF--
<?php require __DIR__ . '/../lib/fork-update.inc'; fu_skip(); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
const PROCS = 4;
const N = 50000;
var_dump(apcu_store('counter', 300000));
// processes 0 and 1 decrement by 1, processes 2 and 3 by 2: 2*50000*1 + 2*50000*2 = 300000
$kids = fu_start(PROCS, function (int $id) {
    $step = $id < 2 ? 1 : 2;
    $out = [];
    $bad = 0;
    $prev = PHP_INT_MAX;
    for ($i = 0; $i < N; $i++) {
        $ok = null;
        $r = apcu_dec('counter', $step, $ok);
        if ($ok !== true || !is_int($r) || $r >= $prev || $r < 0) {
            $bad++;
        } else {
            $out[] = $r;
        }
        $prev = is_int($r) ? $r : $prev;
    }
    return ['bad' => $bad, 'step' => $step, 'results' => pack('P*', ...$out)];
});
fu_go($kids);
$errors = 0;
$results = fu_finish($kids, $errors);
$ops = [];
foreach ($results as $res) {
    $errors += $res['bad'];
    foreach (unpack('P*', $res['results']) as $v) {
        $ops[] = [$v, -$res['step']];
    }
}
echo "bad results: $errors\n";
echo "ops: ", count($ops), "\n";
$final = apcu_fetch('counter');
var_dump($final);
echo "history problems: ", fu_check_linear($ops, 300000, $final), "\n";
?>
--EXPECT--
bool(true)
bad results: 0
ops: 200000
int(0)
history problems: 0
