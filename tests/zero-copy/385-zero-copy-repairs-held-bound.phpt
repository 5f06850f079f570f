--TEST--
Zero-copy: what repairs keep back for one reader stays within zero_copy_max
--DESCRIPTION--
One long-lived reader stays inside its epoch while writer after writer is
killed holding the shard lock (each repair keeps the shard's entries and
retires, rather than frees, every zero-copy entry no kept entry uses).
What the reader holds back (retired or held bytes) stays bounded by
shardcache.zero_copy_max, stores keep succeeding, the reader's entry is
kept and its value stays right.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork') || !function_exists('exec')) die('skip pcntl or exec not available');
if (!function_exists('stream_socket_pair')) die('skip no socket pairs');
if (getenv('SHARDCACHE_VALGRIND')) die('skip gdb attaches to a child');
if (trim((string)shell_exec('command -v gdb 2>/dev/null')) === '') die('skip no gdb');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.shards=1
shardcache.zero_copy=1
shardcache.zero_copy_max=3M
--FILE--
<?php
function zc() { return shardcache_info()['zero_copy']; }
function held_value(): array { return ['k' => 'held', 'rows' => array_fill(0, 50, str_repeat('h', 100))]; }
function arr(int $r, int $i): array { return ['r' => $r, 'i' => $i, 'rows' => array_fill(0, 60, str_repeat(chr(65 + ($r + $i) % 26), 500))]; }
apcu_store('held', held_value());
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
stream_set_timeout($mine, 3600);
stream_set_timeout($theirs, 3600);
$reader = pcntl_fork();
if ($reader === 0) {
    fclose($mine);
    $v = apcu_fetch('held');
    fwrite($theirs, $v === held_value() && zc()['inside'] ? 'R' : 'X');
    fread($theirs, 1);
    fwrite($theirs, $v === held_value() ? 'S' : 'X');
    exit(0);
}
fclose($theirs);
echo "reader holds the value: ", fread($mine, 1), "\n";

/* Each round fills the shard with zero-copy arrays (about 1.9 MB), then a
 * writer is stopped by gdb inside the shard lock (sc_entry_create) and
 * killed there; the next store repairs the shard. */
$repairs = shardcache_info()['repairs'];
$failed = 0;
for ($r = 0; $r < 12; $r++) {
    for ($i = 0; $i < 60; $i++) {
        $failed += apcu_store("r{$r}_$i", arr($r, $i)) ? 0 : 1;
    }
    [$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $w = pcntl_fork();
    if ($w === 0) {
        fclose($a);
        fwrite($b, 'G');
        for ($i = 0; ; $i++) {
            apcu_store('w' . ($i & 7), str_repeat('w', 20000) . $i);
        }
    }
    fclose($b);
    fread($a, 1);
    exec("env -u LD_PRELOAD timeout 60 gdb -p $w -batch -nx -ex 'break sc_entry_create' -ex continue -ex kill 2>&1", $out);
    $out = [];
    function_exists('posix_kill') ? posix_kill($w, 9) : exec('kill -KILL ' . $w);
    pcntl_waitpid($w, $st);
    fclose($a);
    $failed += apcu_store('probe', $r) ? 0 : 1;    /* repairs */
}
$z = zc();
echo "writers died holding the lock: ", shardcache_info()['repairs'] - $repairs >= 10 ? 'yes' : 'no', "\n";
$back = $z['leaked_bytes'] + $z['retired_bytes'];
echo "the reader's entry kept by the repairs: ", apcu_exists('held') ? 'yes' : 'no', "\n";
echo "held back within the budget and one shard's worth: ", $back <= 3 * 1024 * 1024 + 4 * 1024 * 1024 ? 'yes' : "no ($back)", "\n";
echo "stores that failed: $failed\n";
$ok = 0;
for ($i = 0; $i < 20; $i++) {
    $ok += apcu_store("big$i", str_repeat('b', 200000) . $i) ? 1 : 0;
}
echo "big stores now: $ok of 20\n";
fwrite($mine, 'C');
echo "reader's value: ", fread($mine, 1), "\n";
pcntl_waitpid($reader, $st);
$z = zc();
echo "after the reader left: held ", $z['leaked_bytes'], "\n";
?>
--EXPECT--
reader holds the value: R
writers died holding the lock: yes
the reader's entry kept by the repairs: yes
held back within the budget and one shard's worth: yes
stores that failed: 0
big stores now: 20 of 20
reader's value: S
after the reader left: held 0
