--TEST--
4 processes x 50,000 apcu_inc on one counter: exactly 200,000, distinct results
--DESCRIPTION--
The counter is missing at the start. It ends at exactly 200,000 and every
call returned a distinct value.
--SKIPIF--
<?php require __DIR__ . '/../lib/fork-update.inc'; fu_skip(); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
const PROCS = 4;
const N = 50000;
$kids = fu_start(PROCS, function (int $id) {
    $seen = [];
    $bad = 0;
    $prev = 0;
    for ($i = 0; $i < N; $i++) {
        $ok = null;
        $r = apcu_inc('counter', 1, $ok);
        if ($ok !== true || !is_int($r) || $r <= $prev || $r > PROCS * N) {
            $bad++;                      // must grow for this process too
        } else {
            $seen[] = $r;
        }
        $prev = is_int($r) ? $r : $prev;
    }
    return ['bad' => $bad, 'seen' => pack('P*', ...$seen)];
});
fu_go($kids);
$errors = 0;
$results = fu_finish($kids, $errors);
$hit = str_repeat("\0", PROCS * N + 1);
$dups = 0;
$total = 0;
foreach ($results as $id => $res) {
    $errors += $res['bad'];
    foreach (unpack('P*', $res['seen']) as $v) {
        $total++;
        if ($hit[$v] !== "\0") $dups++;
        $hit[$v] = "\1";
    }
}
echo "bad results: $errors\n";
echo "values returned: $total, duplicates: $dups, missing: ", substr_count($hit, "\0") - 1, "\n";
var_dump(apcu_fetch('counter'));
?>
--EXPECT--
bad results: 0
values returned: 200000, duplicates: 0, missing: 0
int(200000)
