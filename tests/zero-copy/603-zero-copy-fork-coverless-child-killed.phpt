--TEST--
Zero-copy: a fork child killed while it has no liveness slot leaves no cover
--DESCRIPTION--
A process that borrowed arrays forks while every liveness slot is held by
live processes: the child gets no slot, and a cover keeps what it
inherited. The child is killed (SIGKILL) there, the slots come free and the
parent exits. The cover must end with the child: with nobody left inside an
epoch, 3,000 overwrites of a 1,000-element array free every old value at
once (nothing retired) and the cache counts no reader. A cover that only
the child could end would stay for the segment's life
(src/sc_epoch_cover.c).
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork') || !function_exists('posix_kill')) die('skip pcntl and posix needed');
if (!function_exists('stream_socket_pair')) die('skip no socket pairs');
if (getenv('SHARDCACHE_VALGRIND')) die('skip 1,023 forked holders');
?>
--EXTENSIONS--
posix
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.zero_copy=1
shardcache.shards=2
--FILE--
<?php
require __DIR__ . '/../lib/live-slots-full.inc';
require __DIR__ . '/../lib/proc-gone.inc';
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
[$pm, $pt] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
foreach ([$mine, $theirs, $pm, $pt] as $s) {
    stream_set_timeout($s, 3600);
}
$p = pcntl_fork();
if ($p === 0) {
    fclose($mine);
    fclose($pm);
    $held = apcu_fetch('big');
    fwrite($pt, zc()['inside'] ? "P\n" : "p\n");
    fgets($pt);                                         // "fork"
    $c = pcntl_fork();
    if ($c === 0) {
        fwrite($theirs, sprintf("%d\nchild: inside %s, inherited value %s\n", getmypid(), zc()['inside'] ? 'yes' : 'no',
            $held === val(0, 1000) ? 'right' : 'WRONG'));
        fgets($theirs);                                 // never: killed here
        exit(0);
    }
    fgets($pt);                                         // "exit"
    exit(0);
}
fclose($theirs);
fclose($pt);
echo "parent inside: ", trim(fgets($pm)), "\n";
$h = php_sc_live_fill();
if (!is_array($h)) {
    fwrite($pm, "fork\n");
    fwrite($pm, "exit\n");
    die("skip: $h\n");
}
echo "every other slot held: ", $h[2] >= 1000 ? 'yes' : "no ({$h[2]})", "\n";
fwrite($pm, "fork\n");
$child = (int)fgets($mine);                             // the child's pid (not ours: the holder's)
echo fgets($mine);
echo "killed: ", posix_kill($child, 9) ? 'yes' : 'no', "\n";
proc_gone_wait($child);
php_sc_live_release($h);
fwrite($pm, "exit\n");
pcntl_waitpid($p, $st);
echo "parent exited: ", pcntl_wifexited($st) && pcntl_wexitstatus($st) === 0 ? 'yes' : 'no', "\n";
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
parent inside: P
every other slot held: yes
child: inside no, inherited value right
killed: yes
parent exited: yes
readers: 0
retired by 3000 overwrites: 0 entries, 0 bytes
value: right
