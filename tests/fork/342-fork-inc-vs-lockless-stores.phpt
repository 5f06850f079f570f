--TEST--
Fork: apcu_inc racing stores of the same key never lands on a float
--DESCRIPTION--
The stores are ints over ints (written without the shard lock) and int/float
type changes (locked). An increment never lands on a float; every value read
and every inc result is one of the key's own.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.shards=2
--FILE--
<?php
// Ints stored and incremented keep 0x55 in their low byte (incs add 256);
// floats stored are n + 0.5 for n <= STEPS. An inc applied to a float's
// bits would make a float outside that set.
define('STEPS', getenv('SHARDCACHE_VALGRIND') ? 300 : 30000);
function ok($v): bool
{
    if (is_int($v)) {
        return ($v & 0xff) === 0x55;
    }
    return is_float($v) && fmod($v, 1.0) === 0.5 && $v >= 0 && $v <= STEPS + 1;
}
apcu_store('x', 0x55);
apcu_store('done', 0);
$pids = [];
$spawn = function (callable $fn) use (&$pids) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $errors = $fn();
        apcu_store('err_' . getmypid(), $errors);
        exit($errors === 0 ? 0 : 1);
    }
    $pids[] = $pid;
};
// Writer A: ints only (lockless over an int, locked over a float).
$spawn(function () {
    for ($s = 1; $s <= STEPS; $s++) {
        apcu_store('x', ($s << 8) | 0x55);
    }
    apcu_inc('done');
    return 0;
});
// Writer B: a float, then an int (both type changes), in turn.
$spawn(function () {
    for ($s = 1; $s <= STEPS; $s++) {
        apcu_store('x', $s + 0.5);
        apcu_store('x', ($s << 8) | 0x55);
    }
    apcu_inc('done');
    return 0;
});
// Incrementer and reader.
$spawn(function () {
    $errors = 0;
    $n = 0;
    while (apcu_fetch('done') !== 2 && $n++ < 10000000) {
        $r = apcu_inc('x', 256);
        if ($r !== false && (!is_int($r) || ($r & 0xff) !== 0x55)) {
            $errors++;
        }
        $v = apcu_fetch('x', $found);
        if (!$found || !ok($v)) {
            $errors++;
        }
    }
    return $errors;
});
$spawn(function () {
    $errors = 0;
    $n = 0;
    while (apcu_fetch('done') !== 2 && $n++ < 10000000) {
        $v = apcu_fetch('x', $found);
        if (!$found || !ok($v)) {
            $errors++;
        }
    }
    return $errors;
});
$failed = 0;
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $st);
    if (!pcntl_wifexited($st) || pcntl_wexitstatus($st) !== 0) {
        $failed++;
        echo "process failed: ", var_export(apcu_fetch("err_$pid"), true), " errors\n";
    }
}
echo "failed processes: $failed\n";
$v = apcu_fetch('x');
var_dump(is_int($v) && ($v & 0xff) === 0x55);
var_dump(apcu_inc('x', 256) === $v + 256);
?>
--EXPECT--
failed processes: 0
bool(true)
bool(true)
