--TEST--
Liveness slots all taken: a process without one works at the fallback's cost
--DESCRIPTION--
With all 1,024 slots held by live processes, a process without one fetches
(zero-copy values copied), increments and stores at the fallback's cost: it
remembers that it found none and looks again only rarely, never at every
operation. Every value it reads is right.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (!function_exists('stream_socket_pair')) die('skip no socket pairs');
if (getenv('SHARDCACHE_VALGRIND')) die('skip 1,023 forked holders');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.zero_copy=1
--FILE--
<?php
require __DIR__ . '/../lib/live-slots-full.inc';
function arr(int $k): array { return ['k' => $k, 'rows' => array_fill(0, 20, str_repeat(chr(65 + $k % 26), 40))]; }
for ($k = 0; $k < 8; $k++) {
    apcu_store("a$k", arr($k));
}
apcu_store('n', 0);
$h = php_sc_live_fill();
if (!is_array($h)) {
    die("skip: $h\n");
}
echo "slots held by others: ", $h[2] >= 1000 ? 'yes' : "no ({$h[2]})", "\n";
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    /* The fork child finds no slot: every operation below must do without. */
    fclose($mine);
    $wrong = 0;
    for ($i = 0; $i < 3000; $i++) {
        $k = $i & 7;
        if (apcu_fetch("a$k") !== arr($k)) {
            $wrong++;
        }
        if (apcu_inc('n') !== $i + 1) {
            $wrong++;
        }
        if (!apcu_store("s$k", $i) || apcu_fetch("s$k") !== $i) {
            $wrong++;
        }
    }
    $info = shardcache_info();
    fwrite($theirs, sprintf("child: %d wrong, inside an epoch: %s, copied %s, full scans of the slots: %s\n",
        $wrong, $info['zero_copy']['inside'] ? 'yes' : 'no', $info['zero_copy']['copied'] >= 3000 ? 'all' : $info['zero_copy']['copied'],
        $info['local']['liveness_full_scans'] <= 3 ? 'at most 3' : $info['local']['liveness_full_scans']));
    exit(0);
}
fclose($theirs);
echo fgets($mine);
pcntl_waitpid($pid, $st);
php_sc_live_release($h);
echo "n: ", apcu_fetch('n'), "\n";
?>
--EXPECT--
slots held by others: yes
child: 0 wrong, inside an epoch: no, copied all, full scans of the slots: at most 3
n: 3000
