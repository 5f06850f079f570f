--TEST--
Fork race on counters while tables grow and fill with tombstones: exact counts
--DESCRIPTION--
4 processes inc counters spread over every shard and race cas on 4000 slots,
while storing and deleting thousands of other keys. Every increment is
counted once, and there is one cas winner per slot.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
const PROCS = 4;
const N = 4000;
const SPREAD = 64;

for ($i = 0; $i < N; $i++) apcu_store("slot$i", 0);

$gate = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$children = [];
for ($c = 0; $c < PROCS; $c++) {
    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid < 0) { echo "fork failed\n"; exit(1); }
    if ($pid == 0) {
        fclose($pair[0]);
        fclose($gate[0]);
        fread($gate[1], 1);   // start together
        mt_srand(50 + $c);
        $r = ['inc' => [], 'bad' => [], 'slots' => []];
        for ($i = 0; $i < N; $i++) {
            // one shared counter: every value it passes through is returned to exactly one caller
            $v = apcu_inc('ctr_inc', 1, $ok);
            if (!$ok || !is_int($v)) $r['bad'][] = "inc returned " . var_export($v, true);
            else $r['inc'][] = $v;
            // counters spread over many shards, hit in random order
            apcu_inc('spread' . mt_rand(0, SPREAD - 1), 1);
            // one winner per slot
            if (apcu_cas("slot$i", 0, $c + 1)) $r['slots'][] = $i;
            // other keys come and go, so that tables grow, fill with tombstones and are
            // rebuilt while the counters are being updated
            apcu_store("junk$c-$i", str_repeat('j', mt_rand(1, 300)));
            if ($i % 3 == 0) apcu_delete("junk$c-" . mt_rand(0, $i));
        }
        fwrite($pair[1], json_encode($r));
        fclose($pair[1]);
        exit(0);
    }
    fclose($pair[1]);
    $children[$c] = [$pid, $pair[0]];
}
fclose($gate[1]);
fclose($gate[0]);

$errors = 0;
function problem(string $m) { global $errors; if ($errors++ < 10) echo $m, "\n"; }
$seen = [];
$slot_winner = [];
foreach ($children as $c => [$pid, $sock]) {
    $r = json_decode(stream_get_contents($sock), true);
    fclose($sock);
    pcntl_waitpid($pid, $status);
    if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0 || !is_array($r)) { problem("child $c failed"); continue; }
    foreach ($r['bad'] as $b) problem("child $c: $b");
    foreach ($r['inc'] as $v) {
        if (isset($seen[$v])) problem("ctr_inc returned $v twice");
        $seen[$v] = true;
    }
    foreach ($r['slots'] as $i) {
        if (isset($slot_winner[$i])) problem("slot$i won by child {$slot_winner[$i]} and child $c");
        $slot_winner[$i] = $c;
    }
}
$total = PROCS * N;
echo 'ctr_inc: ', var_export(apcu_fetch('ctr_inc') === $total, true), "\n";
echo 'values returned by inc are 1..', $total, ': ', var_export(count($seen) === $total && min(array_keys($seen)) === 1 && max(array_keys($seen)) === $total, true), "\n";
$sum = 0;
for ($j = 0; $j < SPREAD; $j++) $sum += (int) apcu_fetch("spread$j");
echo 'spread counters sum: ', var_export($sum === $total, true), "\n";
for ($i = 0; $i < N; $i++) {
    if (!isset($slot_winner[$i])) problem("slot$i has no winner");
    elseif (apcu_fetch("slot$i") !== $slot_winner[$i] + 1) problem("slot$i holds " . var_export(apcu_fetch("slot$i"), true));
}
echo "errors: $errors\n";
?>
--EXPECT--
ctr_inc: true
values returned by inc are 1..16000: true
spread counters sum: true
errors: 0
