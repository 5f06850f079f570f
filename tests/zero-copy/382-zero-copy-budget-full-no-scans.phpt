--TEST--
Zero-copy: with zero_copy_max full, stores fall back without epoch-slot scans
--DESCRIPTION--
With shardcache.zero_copy_max full and a reader that stays inside its epoch,
stores fall back to the copying layout at no extra cost. A writer that
enters and leaves an epoch around every store (as requests do) does not scan
the epoch slots at every store, only when the reader that holds everything
back may have left (or once a second). Every value stays right.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (!function_exists('stream_socket_pair')) die('skip no socket pairs');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.zero_copy=1
shardcache.zero_copy_max=256K
shardcache.shards=64
--FILE--
<?php
function zc() { return shardcache_info()['zero_copy']; }
function value(int $k, int $v): array { return ['k' => $k, 'v' => $v, 'rows' => array_fill(0, 20, str_repeat(chr(65 + ($k + $v) % 26), 50))]; }
const KEYS = 64;
for ($k = 0; $k < KEYS; $k++) {
    apcu_store("w$k", value($k, 0));
}
apcu_store('int', 7);
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
stream_set_timeout($mine, 3600);
stream_set_timeout($theirs, 3600);
$pid = pcntl_fork();
if ($pid === 0) {
    /* The reader: borrows one value and stays inside its epoch. */
    fclose($mine);
    $v = apcu_fetch('w0');
    fwrite($theirs, $v === value(0, 0) && zc()['inside'] ? 'R' : 'X');
    fread($theirs, 1);
    fwrite($theirs, $v === value(0, 0) ? 'S' : 'X');
    exit(0);
}
fclose($theirs);
echo "reader holds a value: ", fread($mine, 1), "\n";
/* Overwrites fill the budget with retired values the reader pins. */
for ($r = 1; zc()['bytes'] < 200000 && $r < 100; $r++) {
    for ($k = 0; $k < KEYS; $k++) {
        apcu_store("w$k", value($k, $r));
    }
}
echo "budget nearly full: ", zc()['bytes'] >= 200000 ? 'yes' : 'no', "\n";
/* Each round: a fetch (enters an epoch, holds nothing), a store (leaves
 * it first, then finds the budget full). */
$scans = zc()['scans'];
$t0 = microtime(true);
$wrong = 0;
for ($i = 0; $i < 3000; $i++) {
    $k = $i % KEYS;
    if (apcu_fetch('int') !== 7) {
        $wrong++;
    }
    if (!apcu_store("w$k", value($k, 1000 + $i))) {
        $wrong++;
    }
}
for ($k = 0; $k < KEYS; $k++) {
    if (apcu_fetch("w$k") !== value($k, 1000 + 2999 - ((2999 - $k) % KEYS))) {
        $wrong++;
    }
}
$secs = (int)ceil(microtime(true) - $t0);
$n = zc()['scans'] - $scans;
echo "wrong: $wrong\n";
echo "scans during 3000 stores: ", $n <= 4 + 2 * $secs ? 'at most one a second' : "$n in $secs s", "\n";
fwrite($mine, 'C');
echo "reader's value: ", fread($mine, 1), "\n";
pcntl_waitpid($pid, $st);
echo "bytes below the budget: ", zc()['bytes'] <= 256 * 1024 ? 'yes' : 'no', "\n";
?>
--EXPECT--
reader holds a value: R
budget nearly full: yes
wrong: 0
scans during 3000 stores: at most one a second
reader's value: S
bytes below the budget: yes
