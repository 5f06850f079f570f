--TEST--
Zero-copy: a proc_open() whose fork fails inside an epoch leaves no cover
--DESCRIPTION--
As 600, with proc_open() (which forks too: an FPM request that holds a
fetched array and runs a command) in place of pcntl_fork(). A process
borrows an array (it is inside its epoch), then the fork of proc_open() fails
for real: the process runs as a user other than root with RLIMIT_NPROC 0
(a root test process first drops to uid 65534, keeping gid 0 so that a
named segment file, made 0660, stays readable), so fork() returns EAGAIN
and only the parent's fork handler runs. The process then exits. The cover
its prepare handler made for the child that never was must be gone: once
it has exited nobody is inside an epoch, 3,000 overwrites of a 1,000-element
array free every old value at once (nothing retired) and the cache counts
no reader. A cover that only the child's fork handler could end would stay
for the segment's life: every overwrite retired until the zero-copy budget
is full (src/sc_epoch_cover.c). PHP 8.4 and later start the command with
posix_spawn(), which runs no fork handler: there the same checks show that
a failed spawn leaves nothing either.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork') || !function_exists('proc_open')) die('skip pcntl or proc_open not available');
if (!function_exists('posix_setrlimit') || !defined('POSIX_RLIMIT_NPROC')) die('skip posix_setrlimit not available');
if (!function_exists('stream_socket_pair')) die('skip no socket pairs');
if (getenv('SHARDCACHE_VALGRIND') && function_exists('posix_getuid') && posix_getuid() === 0) {
    die('skip under valgrind as root: valgrind cannot remove its files once the child drops root');
}
?>
--EXTENSIONS--
posix
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.zero_copy=1
shardcache.shards=2
shardcache.segment_mode=0660
--FILE--
<?php
function val(int $k, int $n): array
{
    $a = [];
    for ($i = 0; $i < $n; $i++) {
        $a["r$i"] = "v-$k-$i";
    }
    return $a;
}
function zc() { return shardcache_info()['zero_copy']; }
apcu_store('big', val(0, 1000));
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$p = pcntl_fork();
if ($p === 0) {
    fclose($mine);
    $held = apcu_fetch('big');
    $out = sprintf("child: inside %s, value %s\n", zc()['inside'] ? 'yes' : 'no', $held === val(0, 1000) ? 'right' : 'WRONG');
    if (posix_getuid() === 0 && !posix_setuid(65534)) {
        $out .= "child: cannot drop root\n";
    }
    if (!posix_setrlimit(POSIX_RLIMIT_NPROC, 0, 0)) {
        $out .= "child: cannot set RLIMIT_NPROC\n";
    }
    $proc = @proc_open(['true'], [], $pipes);
    $err = error_get_last()['message'] ?? '';
    // PHP 8.2 forks ("fork failed"); PHP 8.4 and later spawn with
    // posix_spawn ("posix_spawn() failed"), which runs no fork handler.
    $failed = $proc === false && (stripos($err, 'fork failed') !== false || stripos($err, 'posix_spawn() failed') !== false);
    $out .= sprintf("child: proc_open %s\n", $failed ? 'failed: its fork or spawn failed'
        : 'did not fail as expected: ' . ($proc === false ? $err : 'it ran'));
    $out .= sprintf("child: value %s, still inside %s\n", $held === val(0, 1000) ? 'right' : 'WRONG', zc()['inside'] ? 'yes' : 'no');
    fwrite($theirs, $out);
    exit(0);                                            // leaves its epoch
}
fclose($theirs);
echo stream_get_contents($mine);
pcntl_waitpid($p, $st);
echo "child exited: ", pcntl_wifexited($st) && pcntl_wexitstatus($st) === 0 ? 'yes' : 'no', "\n";
echo "readers: ", zc()['readers'], "\n";
$before = zc()['retired'];
for ($i = 1; $i <= 3000; $i++) {
    apcu_store('big', val($i, 1000));
}
$zc = zc();
echo "retired by 3000 overwrites: ", $zc['retired'] - $before, " entries, ", $zc['retired_bytes'], " bytes\n";
echo "value: ", apcu_fetch('big') === val(3000, 1000) ? 'right' : 'WRONG', "\n";
?>
--EXPECT--
child: inside yes, value right
child: proc_open failed: its fork or spawn failed
child: value right, still inside yes
child exited: yes
readers: 0
retired by 3000 overwrites: 0 entries, 0 bytes
value: right
