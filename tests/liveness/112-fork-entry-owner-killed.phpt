--TEST--
shardcache apcu_entry: a waiter takes over from a callback's killed process
--DESCRIPTION--
When the process running a callback is killed (SIGKILL), a process waiting
for that key takes over once the dead one is reaped and computes the value
itself.
--SKIPIF--
<?php
require __DIR__ . '/../lib/fork-update.inc';
fu_skip();
if (!extension_loaded('shardcache')) die('skip shardcache-specific: APCu never recovers a lock held by a killed process');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
$limit = (float) (getenv('SLOW_LIMIT') ?: 30);
$kids = fu_start(2, function (int $id, $sock) {
    if ($id === 0) {                    // A: killed inside its callback
        apcu_entry('killed', function () use ($sock) {
            fu_send($sock, 'in callback');
            fu_recv($sock);             // 'die'
            exec('kill -KILL ' . getmypid());
            return 'not reached';
        });
        return 'not reached';
    }
    if (fu_recv($sock) !== 'go') throw new Exception('protocol');   // B
    fu_send($sock, 'calling');
    $ran = false;
    $v = apcu_entry('killed', function ($k) use (&$ran) { $ran = true; return "computed by B for $k"; });
    fu_send($sock, 'returned');
    return ['value' => $v, 'own callback ran' => $ran];
});
fu_go($kids);
[$sa, $sb] = $kids->socks;
echo 'A: ', fu_recv($sa), "\n";
fu_send($sb, 'go');
echo 'B: ', fu_recv($sb), "\n";
fu_send($sa, 'die');
var_dump(fu_recv($sa));                 // EOF: A is gone
pcntl_waitpid($kids->pids[0], $status);
echo 'A killed by signal ', pcntl_wtermsig($status), "\n";
fclose($sa);
unset($kids->pids[0], $kids->socks[0]);
$b = fu_recv_timeout($sb, $limit);
echo 'B: ', $b === 'TIMEOUT' ? "still waiting after {$limit}s" : $b, "\n";
$errors = 0;
$res = fu_finish($kids, $errors);
echo 'B got: ', json_encode($res[1] ?? null), "\n";
echo 'stored: ', var_export(apcu_fetch('killed'), true), "\n";
echo 'a new apcu_entry: ', var_export(apcu_entry('killed', fn() => 'recomputed'), true), "\n";
echo "errors: $errors\n";
?>
--EXPECT--
A: in callback
B: calling
NULL
A killed by signal 9
B: returned
B got: {"value":"computed by B for killed","own callback ran":true}
stored: 'computed by B for killed'
a new apcu_entry: 'computed by B for killed'
errors: 0
