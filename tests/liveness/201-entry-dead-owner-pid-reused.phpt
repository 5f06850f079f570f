--TEST--
apcu_entry: a killed owner's reservation is taken over though its pid is reused
--DESCRIPTION--
The reservation of an owner that was killed is taken over even when an
unrelated, live process got the dead owner's pid.
--SKIPIF--
<?php
require __DIR__ . '/../lib/fork-update.inc';
fu_skip();
if (!extension_loaded('shardcache')) die('skip shardcache-specific: APCu never recovers a lock held by a killed process');
if (!is_writable('/proc/sys/kernel/ns_last_pid')) die('skip forcing pid reuse needs a writable /proc/sys/kernel/ns_last_pid (root)');
if (!is_executable('/bin/sleep')) die('skip no /bin/sleep');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
$pa = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$a = pcntl_fork();
if ($a === 0) {
    fclose($pa[0]);
    apcu_entry('k', function () use ($pa) {
        fwrite($pa[1], "A: computing\n");
        fgets($pa[1]);
        exec('kill -KILL ' . getmypid());
        return 'not reached';
    });
    exit(0);
}
fclose($pa[1]);
echo fgets($pa[0]);
fwrite($pa[0], "die\n");
pcntl_waitpid($a, $status);
echo 'A killed by signal ', pcntl_wtermsig($status), "\n";

// An unrelated program (sleep) takes A's pid: the kernel hands out
// ns_last_pid + 1 next, unless another process forks in between.
$sleeper = 0;
for ($try = 0; $try < 200 && !$sleeper; $try++) {
    @file_put_contents('/proc/sys/kernel/ns_last_pid', (string) ($a - 1));
    $p = pcntl_fork();
    if ($p === 0) {
        if (getmypid() === $a) {
            pcntl_exec('/bin/sleep', ['60']);
        }
        exit(0);
    }
    if ($p === $a) {
        $sleeper = $p;
    } else {
        pcntl_waitpid($p, $st);
    }
}
echo 'A\'s pid now belongs to a live, unrelated process: ', var_export($sleeper === $a, true), "\n";

$pb = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$b = pcntl_fork();
if ($b === 0) {
    fclose($pb[0]);
    $v = apcu_entry('k', fn() => 'from B');
    fwrite($pb[1], "B got: $v\n");
    exit(0);
}
fclose($pb[1]);
$r = [$pb[0]];
$w = $e = null;
$limit = (int) (getenv('SLOW_LIMIT') ?: 30);
echo stream_select($r, $w, $e, $limit, 0) ? fgets($pb[0]) : "B still waits after {$limit}s\n";
exec('kill -KILL ' . $b . ' ' . $sleeper);
pcntl_waitpid($b, $st);
pcntl_waitpid($sleeper, $st);
var_dump(apcu_fetch('k'));
?>
--EXPECT--
A: computing
A killed by signal 9
A's pid now belongs to a live, unrelated process: true
B got: from B
string(6) "from B"
