--TEST--
apcu_entry under contention: the callback runs once, every caller gets its value
--DESCRIPTION--
4 processes ask for the same missing key while its callback is held running.
The callback runs exactly once in total and every caller gets its value (20
rounds).
--SKIPIF--
<?php require __DIR__ . '/../lib/fork-update.inc'; fu_skip(); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
const PROCS = 4;
const ROUNDS = 20;
/* Protocol, per round r:
 *   parent -> every child: "round r"
 *   child -> parent: "calling r", then apcu_entry("once:r", cb)
 *   cb (in whichever process runs it) -> parent: "run r", then blocks until the parent answers "finish"
 *   child -> parent: "got r <value>" when apcu_entry returned
 * The parent answers "finish" to a "run" only once all PROCS children said "calling": so every
 * caller asked for the key while the callback was running. A second "run" for a round (the
 * callback running twice) is answered too, so a broken cache fails this test instead of hanging. */
$kids = fu_start(PROCS, function (int $id, $sock) {
    $got = [];
    while (($msg = fu_recv($sock)) !== null && $msg !== 'done') {
        [, $r] = explode(' ', $msg);
        fu_send($sock, "calling $r");
        $v = apcu_entry("once:$r", function ($key) use ($sock, $id, $r) {
            apcu_inc("runs:$r");
            fu_send($sock, "run $r");
            if (fu_recv($sock) !== 'finish') throw new Exception('protocol');
            return ['key' => $key, 'by' => $id, 'payload' => str_repeat("$r.", 1000)];
        });
        fu_send($sock, "got $r " . json_encode($v === false ? false : [$v['key'], $v['by'], strlen($v['payload'])]));
    }
    return 'bye';
});
fu_go($kids);
$errors = 0;
for ($r = 0; $r < ROUNDS; $r++) {
    foreach ($kids->socks as $s) fu_send($s, "round $r");
    $socks = $kids->socks;
    $calling = 0;
    $runs = [];
    $waiting = [];
    $got = [];
    while (count($got) < PROCS) {
        [$id, $line] = fu_next($socks);
        if ($line === null) { echo "round $r: child $id went away\n"; $errors++; break; }
        [$what, $rr, $rest] = explode(' ', $line . ' ', 3);
        if ((int) $rr !== $r) { echo "round $r: unexpected '$line'\n"; $errors++; continue; }
        if ($what === 'calling') $calling++;
        elseif ($what === 'run') { $runs[] = $id; $waiting[] = $id; }
        elseif ($what === 'got') $got[$id] = trim($rest);
        if ($calling === PROCS) {
            foreach ($waiting as $w) fu_send($kids->socks[$w], 'finish');
            $waiting = [];
        }
    }
    $values = array_unique($got);
    $by = count($runs) ? $runs[0] : -1;
    $want = json_encode(["once:$r", $by, 1000 * (strlen((string) $r) + 1)]);
    if (count($runs) !== 1 || count($values) !== 1 || reset($values) !== $want || apcu_fetch("runs:$r") !== 1) {
        echo "round $r: callback ran in ", json_encode($runs), ', runs counter ', var_export(apcu_fetch("runs:$r"), true),
             ', values ', json_encode($got), "\n";
        $errors++;
    }
}
foreach ($kids->socks as $s) fu_send($s, 'done');
$res = fu_finish($kids, $errors);
echo "rounds: ", ROUNDS, ", errors: $errors, children finished: ", count($res), "\n";
?>
--EXPECT--
rounds: 20, errors: 0, children finished: 4
