--TEST--
Fork race: 4 processes apcu_add the same keys at once; one winner per key
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
const NKEYS = 20000;
const ROUNDS = 4;

$errors = 0;
function report(string $msg) {   // prints the first 10 problems only
    global $errors;
    if ($errors++ < 10) echo $msg, "\n";
}
for ($round = 0; $round < ROUNDS; $round++) {
    // round 0: fresh keys; round 1: keys deleted in between; round 2: array form; round 3: expired (negative ttl) entries
    if ($round == 1) {
        apcu_delete(array_map(fn($i) => "race$i", range(0, NKEYS - 1)));
    } elseif ($round == 2) {
        apcu_clear_cache();
    } elseif ($round == 3) {
        apcu_clear_cache();
        for ($i = 0; $i < NKEYS; $i++) apcu_store("race$i", 'expired', -1);
    }
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
            // all children walk the keys in the same order: a child that falls behind fails fast
            // and catches up, so running children move in lockstep and collide on most keys
            $order = range(0, NKEYS - 1);
            $won = [];
            if ($round == 2) {
                foreach (array_chunk($order, 10) as $chunk) {
                    $batch = [];
                    foreach ($chunk as $i) $batch["race$i"] = "child$c";
                    $failed = apcu_add($batch);
                    foreach ($chunk as $i) {
                        if (!isset($failed["race$i"])) $won[] = $i;
                        elseif ($failed["race$i"] !== -1) $won[] = -1000000;   // malformed result
                    }
                }
            } else {
                foreach ($order as $i) {
                    $r = apcu_add("race$i", "child$c");
                    if ($r === true) $won[] = $i;
                    elseif ($r !== false) $won[] = -1000000;
                }
            }
            fwrite($pair[1], json_encode($won));
            fclose($pair[1]);
            exit(0);
        }
        fclose($pair[1]);
        $children[$c] = [$pid, $pair[0]];
    }
    fclose($gate[1]);
    fclose($gate[0]);

    $winner = [];
    foreach ($children as $c => [$pid, $sock]) {
        $won = json_decode(stream_get_contents($sock), true);
        fclose($sock);
        pcntl_waitpid($pid, $status);
        if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0 || !is_array($won)) {
            report("round $round: child $c failed");
            continue;
        }
        foreach ($won as $i) {
            if ($i < 0 || $i >= NKEYS) { report("round $round: child $c got a malformed result"); continue; }
            if (isset($winner[$i])) { report("round $round: key $i won by child {$winner[$i]} and child $c"); }
            $winner[$i] = $c;
        }
    }
    $nowinner = 0;
    for ($i = 0; $i < NKEYS; $i++) {
        if (!isset($winner[$i])) { $nowinner++; continue; }
        $v = apcu_fetch("race$i");
        if ($v !== "child{$winner[$i]}") { report("round $round: race$i holds " . var_export($v, true) . ", winner was child {$winner[$i]}"); }
    }
    echo "round $round: keys without a winner: $nowinner\n";
}
echo "errors: $errors\n";
?>
--EXPECT--
round 0: keys without a winner: 0
round 1: keys without a winner: 0
round 2: keys without a winner: 0
round 3: keys without a winner: 0
errors: 0
