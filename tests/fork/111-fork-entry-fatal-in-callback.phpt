--TEST--
apcu_entry: a fatal error in the callback does not leave the key blocked
--DESCRIPTION--
The fatal error is a bailout inside the callback. While the failed process
is still alive (running its shutdown functions), another process's
apcu_entry for that key computes the value itself.
--SKIPIF--
<?php require __DIR__ . '/../lib/fork-update.inc'; fu_skip(); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
$limit = (float) (getenv('SLOW_LIMIT') ?: 30);
$kids = fu_start(2, function (int $id, $sock) {
    if ($id === 0) {
        // A: the fatal error unwinds past apcu_entry (no exception: a bailout); the shutdown
        // function then runs in the same, still living process
        ini_set('display_errors', '0');      // the fatal error message would name this file's path
        ini_set('log_errors', '0');
        register_shutdown_function(function () use ($sock) {
            fu_send($sock, 'in shutdown, fetch=' . var_export(apcu_fetch('fatal'), true));
            fu_recv($sock);                    // stay alive until the parent says so
        });
        apcu_entry('fatal', function () use ($sock) {
            fu_send($sock, 'in callback');
            trigger_error('fatal error inside the callback', E_USER_ERROR);
            return 'not reached';
        });
        return 'not reached either';
    }
    // B
    if (fu_recv($sock) !== 'go') throw new Exception('protocol');
    $ran = false;
    $v = apcu_entry('fatal', function ($k) use (&$ran) { $ran = true; return "computed by B for $k"; });
    fu_send($sock, 'returned');
    return ['value' => $v, 'own callback ran' => $ran];
});
fu_go($kids);
[$sa, $sb] = $kids->socks;
echo 'A: ', fu_recv($sa), "\n";
echo 'A: ', fu_recv($sa), "\n";
fu_send($sb, 'go');
$b = fu_recv_timeout($sb, $limit);
echo 'B: ', $b === 'TIMEOUT' ? "still waiting after {$limit}s for the callback that died" : $b, "\n";
fu_send($sa, 'exit');
$errors = 0;
$res = fu_finish($kids, $errors);     // A exits with status 255 after its fatal error
echo 'B got: ', json_encode($res[1] ?? null), "\n";
echo 'stored: ', var_export(apcu_fetch('fatal'), true), "\n";
?>
--EXPECT--
A: in callback
A: in shutdown, fetch=false
B: returned
child 0 died: exit 255
child 0 sent no result
B got: {"value":"computed by B for fatal","own callback ran":true}
stored: 'computed by B for fatal'
