--TEST--
Fork stress: scalars overwritten in place while others read them and inc them
--DESCRIPTION--
Scalars are overwritten in place (and turned into strings and back) while
other processes fetch them and apcu_inc them. Every value read belongs to
its key, every inc result too, and the last store of every key stays.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
apc.shm_size=32M
--FILE--
<?php
const KEYS = 8;          // keys per writer
const STEPS = 12000;     // stores per writer
const WRITERS = 2;

/* The value writer w stores under its key k at step s: the low 8 bits of
 * every number are the key's id (w * KEYS + k), whatever the type. */
function value_for(int $id, int $s)
{
    $n = ($s << 8) | $id;
    switch ($s % 4) {
        case 0: return $n;
        case 1: return $n + 0.5;
        case 2: return "s:$id:$s";
        default: return $s % 8 === 3 ? true : $n;
    }
}

function value_ok(int $id, $v): bool
{
    if (is_int($v)) {
        return ($v & 255) === $id;
    }
    if (is_float($v)) {
        return fmod($v, 1.0) === 0.5 && (((int)$v) & 255) === $id;
    }
    if (is_string($v)) {
        return str_starts_with($v, "s:$id:");
    }
    return $v === true;
}

for ($id = 0; $id < WRITERS * KEYS; $id++) {
    apcu_store("ip_$id", value_for($id, 0));
    apcu_store("ipc_$id", $id);
}
apcu_delete('ip_done');

$pids = [];
$spawn = function (callable $fn) use (&$pids) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $errors = $fn();
        apcu_store('ip_err_' . getmypid(), $errors);
        exit($errors === 0 ? 0 : 1);
    }
    $pids[] = $pid;
};

// Writers: their own keys, cycling int / float / string / int-or-true, and
// the ipc_ keys (ints only, in place) that the incrementer also changes.
for ($w = 0; $w < WRITERS; $w++) {
    $spawn(function () use ($w) {
        for ($s = 1; $s <= STEPS; $s++) {
            for ($k = 0; $k < KEYS; $k++) {
                $id = $w * KEYS + $k;
                if (!apcu_store("ip_$id", value_for($id, $s))) {
                    return 1;
                }
                if ($s % 4 === 0 && !apcu_store("ipc_$id", ($s << 8) | $id)) {
                    return 1;
                }
            }
        }
        apcu_inc('ip_done');
        return 0;
    });
}
// Readers: every value fetched belongs to its key.
for ($r = 0; $r < 2; $r++) {
    $spawn(function () use ($r) {
        $errors = 0;
        $n = 0;
        mt_srand(1000 + $r);
        while (apcu_fetch('ip_done') !== WRITERS && $n < 5000000) {
            $id = mt_rand(0, WRITERS * KEYS - 1);
            $v = apcu_fetch("ip_$id", $ok);
            if (!$ok || !value_ok($id, $v)) {
                $errors++;
            }
            $c = apcu_fetch("ipc_$id");
            if (!is_int($c) || ($c & 255) !== $id) {
                $errors++;
            }
            $n++;
        }
        return $errors;
    });
}
// Incrementer: adds 256 (the low bits stay the key's id) to the ipc_ keys.
$spawn(function () {
    $errors = 0;
    $i = 0;
    while (apcu_fetch('ip_done') !== WRITERS && $i < 5000000) {
        $id = $i++ % (WRITERS * KEYS);
        $v = apcu_inc("ipc_$id", 256);
        if (!is_int($v) || ($v & 255) !== $id) {
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
        echo "process failed: ", apcu_fetch("ip_err_$pid"), " errors\n";
    }
}
echo "failed processes: $failed\n";

// The last store of every key is what the key holds.
$wrong = 0;
for ($id = 0; $id < WRITERS * KEYS; $id++) {
    if (apcu_fetch("ip_$id") !== value_for($id, STEPS)) {
        $wrong++;
    }
    $c = apcu_fetch("ipc_$id");
    if (!is_int($c) || ($c & 255) !== $id) {
        $wrong++;
    }
}
echo "wrong final values: $wrong\n";
?>
--EXPECT--
failed processes: 0
wrong final values: 0
