--TEST--
Zero-copy: a child forked inside an epoch keeps the borrowed arrays right
--DESCRIPTION--
A process that borrowed arrays forks and exits. Its child keeps the borrowed
arrays (it published the same epoch at the fork) and stores something of its
own (which must not end that epoch), while another process deletes,
overwrites and refills the whole cache. Every element the child holds is
still right, and its memory comes back once the child has ended.
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
shardcache.shards=2
--FILE--
<?php
require __DIR__ . '/../lib/proc-gone.inc';
function val(int $k): array
{
    $a = [];
    for ($i = 0; $i < 120; $i++) {
        $a["r$i"] = $i % 3 ? "v-$k-$i" : [$k, $i, $k * 0.25];
    }
    return $a;
}
const N = 30;
for ($k = 0; $k < N; $k++) {
    apcu_store("k$k", val($k));
}
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$p = pcntl_fork();
if ($p === 0) {
    // The holder: borrows every array, forks, and leaves at once.
    fclose($mine);
    $held = [];
    for ($k = 0; $k < N; $k++) {
        $held[$k] = apcu_fetch("k$k");
    }
    $c = pcntl_fork();
    if ($c === 0) {
        $zc = shardcache_info()['zero_copy'];
        fwrite($theirs, sprintf("%d\nchild ready: inside %s\n", getmypid(), $zc['inside'] ? 'yes' : 'no'));
        fgets($theirs);                                 // "store"
        $stored = apcu_store('child-own', str_repeat('c', 500)) && apcu_store('child-arr', [1, 2, 3]);
        fwrite($theirs, sprintf("child stored: %s\n", $stored ? 'yes' : 'no'));
        fgets($theirs);                                 // "check"
        $wrong = 0;
        for ($k = 0; $k < N; $k++) {
            if ($held[$k] !== val($k)) {
                $wrong++;
            }
        }
        $zc = shardcache_info()['zero_copy'];
        fwrite($theirs, sprintf("child: %d arrays held, %d wrong, still inside %s, copied %d\n",
                                N, $wrong, $zc['inside'] ? 'yes' : 'no', $zc['copied']));
        fgets($theirs);                                 // "bye"
        exit(0);
    }
    exit(0);
}
fclose($theirs);
$child = (int)fgets($mine);                             // the child's pid (not ours: the holder's)
echo fgets($mine);
pcntl_waitpid($p, $st);
echo "holder exited: ", pcntl_wifexited($st) ? 'yes' : 'no', "\n";
// The child stores (that must not end the epoch that protects what it
// holds); then everything it holds is deleted or overwritten, and the
// cache filled with other arrays many times over.
fwrite($mine, "store\n");
echo fgets($mine);
for ($k = 0; $k < N; $k++) {
    $k % 2 ? apcu_delete("k$k") : apcu_store("k$k", ['gone' => $k]);
}
for ($i = 0; $i < 4000; $i++) {
    $v = [];
    for ($j = 0; $j < 120; $j++) {
        $v["r$j"] = "OVERWRITE-$i-$j";
    }
    apcu_store("f" . ($i % 300), $v);
}
$zc = shardcache_info()['zero_copy'];
echo "retired: ", $zc['retired'] >= N ? 'yes' : 'no', "\n";
fwrite($mine, "check\n");
echo fgets($mine);
fwrite($mine, "bye\n");
// The child (not ours: the holder's) ends, and its epoch with it; then
// what it pinned can come back.
fgets($mine);                                           // EOF: the child is gone or going
proc_gone_wait($child);                                 // gone: its slot is free
echo "readers left: ", shardcache_info()['zero_copy']['readers'], "\n";
for ($i = 0; $i < 200; $i++) {
    apcu_store("g" . ($i % 50), ['after' => $i]);
}
$zc = shardcache_info()['zero_copy'];
echo "reclaimed after the child left: ", $zc['reclaimed'] >= N ? 'yes' : "no ({$zc['reclaimed']})", "\n";
?>
--EXPECT--
child ready: inside yes
holder exited: yes
child stored: yes
retired: yes
child: 30 arrays held, 0 wrong, still inside yes, copied 0
readers left: 0
reclaimed after the child left: yes
