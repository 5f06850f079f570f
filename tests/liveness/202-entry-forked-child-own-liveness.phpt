--TEST--
apcu_entry: a forked child is an owner of its own, taken over when killed
--DESCRIPTION--
A child forked by a process that already used the cache is an owner of its
own: when the child is killed computing a key, a waiter takes the key over
although the parent lives on.
--SKIPIF--
<?php
require __DIR__ . '/../lib/fork-update.inc';
fu_skip();
if (!extension_loaded('shardcache')) die('skip shardcache-specific: APCu never recovers a lock held by a killed process');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
// B is forked before the parent touches the cache; then the parent takes
// part (an inc and an apcu_entry of its own), then forks A.
$pb = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$b = pcntl_fork();
if ($b === 0) {
    fclose($pb[0]);
    fgets($pb[1]);
    $v = apcu_entry('k', fn() => 'from B');
    fwrite($pb[1], "B got: $v\n");
    exit(0);
}
fclose($pb[1]);
var_dump(apcu_inc('n'));
var_dump(apcu_entry('p', fn() => 'parent'));
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
fwrite($pb[0], "go\n");
$r = [$pb[0]];
$w = $e = null;
$limit = (int) (getenv('SLOW_LIMIT') ?: 30);
echo stream_select($r, $w, $e, $limit, 0) ? fgets($pb[0]) : "B still waits after {$limit}s\n";
exec('kill -KILL ' . $b);
pcntl_waitpid($b, $st);
var_dump(apcu_fetch('k'), apcu_inc('n'));
?>
--EXPECT--
int(1)
string(6) "parent"
A: computing
A killed by signal 9
B got: from B
string(6) "from B"
int(2)
