--TEST--
Fork: lockless scalar and string overwrites are never read torn
--DESCRIPTION--
Two writers overwrite shared keys of every scalar type (int, float, bool,
null: written without the shard lock) and same-length strings, while readers
fetch them, ask apcu_key_info and walk APCUIterator. Every value read is one
that was stored whole, every time is sane, and the last stores stay.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.shards=4
--FILE--
<?php
const KEYS = 6;          // keys of each type
const WRITERS = 2;
define('STEPS', getenv('SHARDCACHE_VALGRIND') ? 300 : 60000);

/* x = writer and step; the int carries a checksum of x in its low 16 bits,
 * the float is x + 0.25 (exact below 2^52), the string repeats "w:s;". */
function x_of(int $w, int $s): int { return ($w << 24) | $s; }
function int_of(int $x): int { return ($x << 16) | (($x * 40503) & 0xffff); }
function int_ok($v): bool { return is_int($v) && $v >= 0 && ((($v >> 16) * 40503) & 0xffff) === ($v & 0xffff) && x_ok($v >> 16); }
function x_ok(int $x): bool { return ($x >> 24) < WRITERS && ($x & 0xffffff) <= STEPS; }
function float_ok($v): bool { return is_float($v) && fmod($v, 1.0) === 0.25 && x_ok((int)$v); }
function str_of(int $x): string { return substr(str_repeat(sprintf('%d:%d;', $x >> 24, $x & 0xffffff), 200), 0, 512); }
function str_ok($v): bool {
    return is_string($v) && strlen($v) === 512 && preg_match('/^(\d+):(\d+);/', $v, $m)
        && x_ok(((int)$m[1] << 24) | (int)$m[2]) && $v === str_of(((int)$m[1] << 24) | (int)$m[2]);
}
function check($k, $v): bool {
    switch ($k[0]) {
        case 'i': return int_ok($v);
        case 'f': return float_ok($v);
        case 'b': return is_bool($v);
        case 'n': return $v === null;
        default:  return str_ok($v);
    }
}
function store_all(int $w, int $s): bool {
    $x = x_of($w, $s);
    for ($k = 0; $k < KEYS; $k++) {
        if (!apcu_store("i$k", int_of($x)) || !apcu_store("f$k", $x + 0.25) || !apcu_store("b$k", ($s & 1) === 1)
            || !apcu_store("n$k", null) || !apcu_store("s$k", str_of($x))) {
            return false;
        }
    }
    return true;
}

// One second of slack: the cache's coarse clock can be one tick behind
// time() just after a second turns (php_sc_now in shardcache.c).
$start = time() - 1;
store_all(0, 0);
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
for ($w = 0; $w < WRITERS; $w++) {
    $spawn(function () use ($w) {
        $errors = 0;
        for ($s = 1; $s <= STEPS; $s++) {
            if (!store_all($w, $s)) {
                $errors++;
            }
        }
        apcu_inc('done');
        return $errors;
    });
}
// Fetchers.
for ($r = 0; $r < 2; $r++) {
    $spawn(function () use ($r) {
        $errors = 0;
        $keys = [];
        foreach (['i', 'f', 'b', 'n', 's'] as $t) {
            for ($k = 0; $k < KEYS; $k++) {
                $keys[] = "$t$k";
            }
        }
        $n = 0;
        while (apcu_fetch('done') !== WRITERS && $n < 20000000) {
            $k = $keys[$n++ % count($keys)];
            $v = apcu_fetch($k, $ok);
            if (!$ok || !check($k, $v)) {
                $errors++;
                fwrite(STDERR, "$k: " . var_export($v, true) . "\n");
            }
        }
        return $errors;
    });
}
// Info readers: apcu_key_info and APCUIterator (with values and times).
$spawn(function () use ($start) {
    $errors = 0;
    $n = 0;
    while (apcu_fetch('done') !== WRITERS && $n < 1000000) {
        $n++;
        $k = ['i', 'f', 'b', 'n'][$n % 4] . ($n % KEYS);
        $ki = apcu_key_info($k);
        if (!is_array($ki) || $ki['ttl'] !== 0 || $ki['creation_time'] < $start || $ki['creation_time'] > time()
            || $ki['mtime'] < $ki['creation_time']) {
            $errors++;
        }
        foreach (new APCUIterator('/^[ifbns]\d$/', APC_ITER_KEY | APC_ITER_VALUE | APC_ITER_CTIME | APC_ITER_MTIME) as $e) {
            if (!check($e['key'], $e['value']) || $e['creation_time'] < $start || $e['creation_time'] > time()
                || $e['mtime'] < $e['creation_time']) {
                $errors++;
            }
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
// Every key holds one of the writers' last stores.
$wrong = 0;
for ($k = 0; $k < KEYS; $k++) {
    $v = apcu_fetch("i$k");
    if (!int_ok($v) || (($v >> 16) & 0xffffff) !== STEPS) {
        $wrong++;
    }
    $v = apcu_fetch("f$k");
    if (!float_ok($v) || (((int)$v) & 0xffffff) !== STEPS) {
        $wrong++;
    }
    if (apcu_fetch("b$k") !== (STEPS % 2 === 1) || !apcu_exists("n$k") || apcu_fetch("n$k") !== null) {
        $wrong++;
    }
    $v = apcu_fetch("s$k");
    if ($v !== str_of(x_of(0, STEPS)) && $v !== str_of(x_of(1, STEPS))) {
        $wrong++;
    }
}
echo "wrong final values: $wrong\n";
?>
--EXPECT--
failed processes: 0
wrong final values: 0
