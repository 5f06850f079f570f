--TEST--
Zero-copy in a long-running worker: what it pins is bounded by zero_copy_max
--DESCRIPTION--
The worker has no request end. What it can pin is bounded by
shardcache.zero_copy_max; past the bound stores go on (in the copying
layout) and never fail, and the worker's values stay right. Once it ends the
memory comes back.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (!function_exists('stream_socket_pair')) die('skip no socket pairs');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.zero_copy=1
shardcache.zero_copy_max=1M
--FILE--
<?php
function zc() { return shardcache_info()['zero_copy']; }
function value(int $k, int $v): array { return ['k' => $k, 'v' => $v, 'rows' => array_fill(0, 40, str_repeat(chr(65 + ($k + $v) % 26), 100))]; }
const KEYS = 16;
for ($k = 0; $k < KEYS; $k++) {
    apcu_store("w$k", value($k, 0));
}
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
stream_set_timeout($mine, 3600);     /* valgrind runs are slow: no 60 s default timeout */
stream_set_timeout($theirs, 3600);
$pid = pcntl_fork();
if ($pid === 0) {
    /* The worker: one endless "request"; it takes jobs (here: one) and
     * keeps what it fetched. */
    fclose($mine);
    $held = [];
    for ($k = 0; $k < KEYS; $k++) {
        $held[$k] = apcu_fetch("w$k");
    }
    fwrite($theirs, 'R');
    fread($theirs, 1);
    $wrong = 0;
    for ($k = 0; $k < KEYS; $k++) {
        $wrong += $held[$k] === value($k, 0) ? 0 : 1;
    }
    /* Fetches go on working while it is over the bound. */
    $later = apcu_fetch('w3');
    fwrite($theirs, "$wrong " . (is_array($later) && $later['k'] === 3 ? 'ok' : 'bad') . "\n");
    exit(0);
}
fclose($theirs);
echo "worker holding: ", fread($mine, 1), "\n";

$budget = zc()['budget'];
$max = 0;
$failed = 0;
$n = getenv('SHARDCACHE_VALGRIND') ? 800 : 3000;   /* 800 x 10 KB still fills the 1 MB budget */
for ($i = 1; $i <= $n; $i++) {
    $k = $i % KEYS;
    $failed += apcu_store("w$k", value($k, $i)) ? 0 : 1;
    $z = zc();
    $max = max($max, $z['bytes']);
}
$z = zc();
echo "budget: $budget\n";
echo "stores failed: $failed\n";
/* Checked before each store: one value past the budget at most. The
 * worker pins about 170 retired values: all that fits in the budget. */
echo "zero-copy bytes (live + retired) within the budget: ", $max <= $budget + 16384 ? 'yes' : "no ($max)", "\n";
echo "pinned by the worker (retired, not freed): ", $z['retired_bytes'] > $budget / 2 ? 'yes' : 'no', "\n";
/* Read in a short-lived child: this process (the writer) stays out of any
 * epoch, as a process that only stores does. */
$c = pcntl_fork();
if ($c === 0) {
    $ok = true;
    for ($k = 0; $k < KEYS; $k++) {
        $ok = $ok && apcu_fetch("w$k") === value($k, $n - ($n - $k) % KEYS);
    }
    exit($ok ? 0 : 1);
}
pcntl_waitpid($c, $st);
echo "latest values readable: ", pcntl_wifexited($st) && pcntl_wexitstatus($st) === 0 ? 'yes' : 'no', "\n";
fwrite($mine, 'G');
echo "worker: ", trim((string) fgets($mine)), "\n";
pcntl_waitpid($pid, $st);
/* The worker ended: the next stores free what it pinned (a scan runs at
 * least every 64 retirements, and when the budget is full after an epoch
 * was left) and lay values out zero-copy again. */
$before = $z['reclaimed'];
for ($i = 1; $i <= 300; $i++) {
    apcu_store('w0', value(0, $i));
}
$z = zc();
echo "after the worker ended, pinned memory freed: ", $z['reclaimed'] - $before >= 170 ? 'yes' : 'no', "\n";
echo "retired bytes below the budget: ", $z['retired_bytes'] < $budget ? 'yes' : 'no', "\n";
?>
--EXPECT--
worker holding: R
budget: 1048576
stores failed: 0
zero-copy bytes (live + retired) within the budget: yes
pinned by the worker (retired, not freed): yes
latest values readable: yes
worker: 0 ok
after the worker ended, pinned memory freed: yes
retired bytes below the budget: yes
