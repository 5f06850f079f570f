--TEST--
apcu_entry: when the callback throws, exactly one waiter computes the value
--DESCRIPTION--
When the running callback throws, the two processes waiting for the same key
go on: exactly one of them runs its own callback and both get that value.
--SKIPIF--
<?php require __DIR__ . '/../lib/fork-update.inc'; fu_skip(); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
$kids = fu_start(3, function (int $id, $sock) {
    if ($id === 0) {                    // A: its callback throws when the parent says so
        try {
            apcu_entry('thrown', function () use ($sock) {
                fu_send($sock, 'in callback');
                fu_recv($sock);         // 'throw'
                throw new RuntimeException('callback failed');
            });
            return 'no exception';
        } catch (RuntimeException $e) {
            return 'caught: ' . $e->getMessage();
        }
    }
    if (fu_recv($sock) !== 'go') throw new Exception('protocol');   // C and D
    fu_send($sock, 'calling');
    $ran = false;
    $v = apcu_entry('thrown', function ($k) use (&$ran, $id) { $ran = true; return "computed by $id"; });
    return ['value' => $v, 'ran' => $ran];
});
fu_go($kids);
[$sa, $sc, $sd] = $kids->socks;
echo 'A: ', fu_recv($sa), "\n";
fu_send($sc, 'go');
fu_send($sd, 'go');
echo 'C: ', fu_recv($sc), "\n";
echo 'D: ', fu_recv($sd), "\n";
fu_send($sa, 'throw');
$errors = 0;
$res = fu_finish($kids, $errors);
echo 'A: ', $res[0] ?? '?', "\n";
$runner = ($res[1]['ran'] ?? false) ? 1 : 2;
echo 'callbacks run by the waiters: ', (int) ($res[1]['ran'] ?? 0) + (int) ($res[2]['ran'] ?? 0), "\n";
echo 'both got the runner\'s value: ', var_export(($res[1]['value'] ?? 1) === "computed by $runner" && ($res[2]['value'] ?? 2) === "computed by $runner", true), "\n";
echo 'stored is the runner\'s value: ', var_export(apcu_fetch('thrown') === "computed by $runner", true), "\n";
echo "errors: $errors\n";
?>
--EXPECT--
A: in callback
C: calling
D: calling
A: caught: callback failed
callbacks run by the waiters: 1
both got the runner's value: true
stored is the runner's value: true
errors: 0
