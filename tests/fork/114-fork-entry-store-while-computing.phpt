--TEST--
shardcache apcu_entry: a store by another process during the callback is kept
--DESCRIPTION--
A value another process stores for the key while the callback runs is kept;
the callback's result is only returned. APCu likewise keeps a value stored
inside the callback (see 094).
--SKIPIF--
<?php
require __DIR__ . '/../lib/fork-update.inc';
fu_skip();
if (!extension_loaded('shardcache')) die('skip shardcache-specific: in APCu the other process cannot store while the callback runs');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
$limit = (float) (getenv('SLOW_LIMIT') ?: 30);
$kids = fu_start(2, function (int $id, $sock) {
    if ($id === 0) {
        return apcu_entry('contested', function () use ($sock) {
            fu_send($sock, 'in callback');
            fu_recv($sock);
            return 'computed by A';
        });
    }
    fu_recv($sock);
    $r = [apcu_store('contested', 'stored by B'), apcu_fetch('contested')];
    fu_send($sock, 'stored');
    return $r;
});
fu_go($kids);
[$sa, $sb] = $kids->socks;
echo 'A: ', fu_recv($sa), "\n";
fu_send($sb, 'go');
$b = fu_recv_timeout($sb, $limit);
echo 'B: ', $b === 'TIMEOUT' ? "could not store within {$limit}s" : $b, "\n";
fu_send($sa, 'finish');
$errors = 0;
$res = fu_finish($kids, $errors);
echo 'A got: ', json_encode($res[0] ?? null), "\n";
echo 'B got: ', json_encode($res[1] ?? null), "\n";
echo 'stored: ', var_export(apcu_fetch('contested'), true), "\n";
echo "errors: $errors\n";
?>
--EXPECT--
A: in callback
B: stored
A got: "computed by A"
B got: [true,"stored by B"]
stored: 'stored by B'
errors: 0
