--TEST--
4 processes x 50,000 apcu_cas retry loops on one counter: exact, no double claim
--DESCRIPTION--
Increments go through apcu_fetch + apcu_cas retry loops on one counter. It
ends at exactly 200,000 and every successful cas claimed a distinct value.
Then cas loops race apcu_inc.
--SKIPIF--
<?php require __DIR__ . '/../lib/fork-update.inc'; fu_skip(); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
const PROCS = 4;
const N = 50000;

/* One process's work: $n increments of 'counter', by cas loops (or by apcu_inc when $use_inc).
 * Reports every value it installed, and checks that what it reads never goes down. */
function work(int $n, bool $use_inc): array {
    $mine = [];
    $bad = 0;
    $retries = 0;
    $last_seen = 0;
    for ($i = 0; $i < $n; $i++) {
        if ($use_inc) {
            $r = apcu_inc('counter', 1, $ok);
            if (!$ok || !is_int($r) || $r <= $last_seen) { $bad++; continue; }
            $mine[] = $last_seen = $r;
            continue;
        }
        for (;;) {
            $v = apcu_fetch('counter', $ok);
            if (!$ok || !is_int($v) || $v < $last_seen) { $bad++; break; }
            $last_seen = $v;
            if (apcu_cas('counter', $v, $v + 1)) {
                $mine[] = $last_seen = $v + 1;
                break;
            }
            $retries++;
        }
    }
    return ['bad' => $bad, 'retries' => $retries, 'values' => pack('P*', ...$mine)];
}

function check(array $results, int $total, int &$errors): void {
    $hit = str_repeat("\0", $total + 1);
    $count = $dups = 0;
    foreach ($results as $res) {
        $errors += $res['bad'];
        foreach (unpack('P*', $res['values']) as $v) {
            $count++;
            if ($v < 1 || $v > $total || $hit[$v] !== "\0") { $dups++; continue; }
            $hit[$v] = "\1";
        }
    }
    echo "bad reads: $errors, values claimed: $count, duplicates: $dups, missing: ", substr_count($hit, "\0") - 1, "\n";
}

echo "-- cas loops only\n";
apcu_store('counter', 0);
$kids = fu_start(PROCS, fn() => work(N, false));
fu_go($kids);
$errors = 0;
$results = fu_finish($kids, $errors);
check($results, PROCS * N, $errors);
var_dump(apcu_fetch('counter'));

echo "-- 2 cas loops racing 2 apcu_inc loops\n";
apcu_store('counter', 0);
$kids = fu_start(PROCS, fn(int $id) => work(N, $id % 2 == 1));
fu_go($kids);
$errors = 0;
$results = fu_finish($kids, $errors);
check($results, PROCS * N, $errors);
var_dump(apcu_fetch('counter'));
?>
--EXPECT--
-- cas loops only
bad reads: 0, values claimed: 200000, duplicates: 0, missing: 0
int(200000)
-- 2 cas loops racing 2 apcu_inc loops
bad reads: 0, values claimed: 200000, duplicates: 0, missing: 0
int(200000)
