--TEST--
Lock-free apcu_inc/dec/cas racing writers in one shard: exact, no use-after-free
--DESCRIPTION--
Counts stay exact, and no update lands in memory a writer freed and reused;
every string read is checksummed.
--SKIPIF--
<?php require __DIR__ . '/../lib/fork-update.inc'; fu_skip(); ?>
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.shards=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
const N = 20000;

function payload(int $id, int $i): string {
    // Small values mostly, so that freed entries' memory (the counters'
    // size class included) is reused at once; a few bigger ones.
    $len = ($i % 17 === 0) ? 100 + ($i * 37) % 9000 : ($i * 7) % 90;
    $body = str_repeat(chr(65 + ($i + $id) % 26), $len);
    return sprintf('%08x', crc32($body)) . $body;
}

function check(string $s): bool {
    return strlen($s) >= 8 && sprintf('%08x', crc32(substr($s, 8))) === substr($s, 0, 8);
}

apcu_store('exact', 0);
apcu_store('cas', 0);
apcu_store('churned', 0);
$kids = fu_start(4, function (int $id) {
    $bad = [];
    $note = function (string $m) use (&$bad) { if (count($bad) < 5) $bad[] = $m; };
    $cas_wins = 0;
    for ($i = 0; $i < N; $i++) {
        if ($id >= 2) {
            // Updaters: one exact counter (never overwritten), a CAS counter,
            // and a counter the writers keep replacing and deleting.
            $r = $id === 2 ? apcu_inc('exact', 3, $ok) : apcu_dec('exact', 1, $ok);
            if ($ok !== true || !is_int($r)) $note("exact op $i: " . var_export($r, true));
            $cur = apcu_fetch('cas');
            if (!is_int($cur)) $note("cas read $i: " . var_export($cur, true));
            elseif (apcu_cas('cas', $cur, $cur + 1)) $cas_wins++;
            $r = apcu_inc('churned', 1, $ok);
            if ($ok !== true || !is_int($r)) $note("churned op $i: " . var_export($r, true));
            continue;
        }
        // Writers: overwrite and delete checksummed strings in the same shard,
        // and replace or delete the churned counter.
        $k = 'w' . $id . '_' . ($i % 64);
        if (!apcu_store($k, payload($id, $i))) $note("store $k failed");
        if ($i % 3 === 0) apcu_delete('w' . $id . '_' . (($i * 7) % 64));
        if ($i % 5 === 0) { if ($i % 10) apcu_store('churned', 0); else apcu_delete('churned'); }
        $v = apcu_fetch('w' . $id . '_' . (($i * 11) % 64), $ok);
        if ($ok && (!is_string($v) || !check($v))) $note("read $i: bad value " . substr(var_export($v, true), 0, 40));
        $v = apcu_fetch('w' . (1 - $id) . '_' . ($i % 64), $ok);
        if ($ok && (!is_string($v) || !check($v))) $note("read other $i: bad value " . substr(var_export($v, true), 0, 40));
    }
    return ['bad' => $bad, 'cas_wins' => $cas_wins];
});
fu_go($kids);
$errors = 0;
$res = fu_finish($kids, $errors);
$cas_wins = 0;
foreach ($res as $id => $r) {
    foreach ($r['bad'] as $b) { echo "process $id: $b\n"; $errors++; }
    $cas_wins += $r['cas_wins'];
}
$exact = apcu_fetch('exact');
echo "exact: ", $exact === N * 3 - N ? 'right' : "wrong ($exact)", "\n";
echo "cas: ", apcu_fetch('cas') === $cas_wins ? 'right' : 'wrong (' . apcu_fetch('cas') . " vs $cas_wins wins)", "\n";
$c = apcu_fetch('churned', $ok);
echo "churned: ", (!$ok || is_int($c)) ? 'an int' : var_export($c, true), "\n";
foreach (apcu_cache_info()['cache_list'] as $e) {
    $v = apcu_fetch($e['info']);
    if ($e['info'][0] === 'w' && !check($v)) { echo "bad {$e['info']}\n"; $errors++; }
}
echo "errors: $errors\n";
?>
--EXPECT--
exact: right
cas: right
churned: an int
errors: 0
