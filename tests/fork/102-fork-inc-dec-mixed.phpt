--TEST--
4 processes mix apcu_inc(3)/apcu_dec(1) on one counter: exact, serial history
--DESCRIPTION--
The counter is missing at the start; 50,000 ops each. It ends at exactly
200,000 and the results form one serial history.
--SKIPIF--
<?php require __DIR__ . '/../lib/fork-update.inc'; fu_skip(); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
const PROCS = 4;
const N = 50000;
// every process does 25,000 x inc(3) and 25,000 x dec(1), in a per-process random order: net +50,000 each
$kids = fu_start(PROCS, function (int $id) {
    mt_srand(100 + $id);
    $out = [];
    $kinds = '';
    $incs = $decs = 0;
    $bad = 0;
    for ($i = 0; $i < N; $i++) {
        $ok = null;
        $inc = $decs >= N / 2 || ($incs < N / 2 && mt_rand(0, 1));
        if ($inc) {
            $incs++;
            $r = apcu_inc('counter', 3, $ok);
        } else {
            $decs++;
            $r = apcu_dec('counter', 1, $ok);
        }
        if ($ok !== true || !is_int($r)) {
            $bad++;
        } else {
            $out[] = $r;
            $kinds .= $inc ? '+' : '-';
        }
    }
    return ['bad' => $bad, 'results' => pack('q*', ...$out), 'kinds' => $kinds];
});
fu_go($kids);
$errors = 0;
$results = fu_finish($kids, $errors);
$ops = [];
foreach ($results as $res) {
    $errors += $res['bad'];
    foreach (array_values(unpack('q*', $res['results'])) as $n => $v) {
        $ops[] = [$v, $res['kinds'][$n] === '+' ? 3 : -1];
    }
}
echo "bad results: $errors\n";
echo "ops: ", count($ops), "\n";
$final = apcu_fetch('counter');
var_dump($final);
echo "history problems: ", fu_check_linear($ops, 0, $final), "\n";
?>
--EXPECT--
bad results: 0
ops: 200000
int(200000)
history problems: 0
