--TEST--
Zero-copy: a fork child killed before its fork handler ran leaves no cover
--DESCRIPTION--
A process that borrowed arrays forks; gdb stops the child at the epoch's
fork handler, before it has an epoch of its own, and kills it there. The
parent then exits. The cover made for the child must end with it: with
nobody left inside an epoch, 3,000 overwrites of a 1,000-element array free
every old value at once (nothing retired) and the cache counts no reader.
A cover that only the child's fork handler could end would stay for the
segment's life: every overwrite retired until the zero-copy budget is full
(src/sc_epoch_cover.c).
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (!function_exists('stream_socket_pair')) die('skip no socket pairs');
if (getenv('SHARDCACHE_VALGRIND')) die('skip gdb attaches to a child');
if (trim((string)shell_exec('command -v gdb 2>/dev/null')) === '') die('skip no gdb');
?>
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.zero_copy=1
shardcache.shards=2
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
[$pm, $pt] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
foreach ([$pm, $pt] as $s) {
    stream_set_timeout($s, 3600);
}
$p = pcntl_fork();
if ($p === 0) {
    fclose($pm);
    $held = apcu_fetch('big');
    fwrite($pt, zc()['inside'] ? "P\n" : "p\n");
    fgets($pt);                                         // "fork" (gdb is attached)
    $c = pcntl_fork();
    if ($c === 0) {
        fwrite($pt, "child ran\n");                     // never: killed in its fork handler
        exit(0);
    }
    fwrite($pt, "forked\n");
    fgets($pt);                                         // "exit"
    exit(0);                                            // leaves its epoch, gives its slot back
}
fclose($pt);
echo "parent inside: ", trim(fgets($pm)), "\n";
/* gdb follows the fork into the child, stops it at the epoch's fork
 * handler, before it publishes anything, and kills it there. */
$cmd = tempnam(sys_get_temp_dir(), 'scgdb');
file_put_contents($cmd, implode("\n", [
    'set follow-fork-mode child',
    'set detach-on-fork on',
    'break sc_epoch_child',
    'echo READY\n',
    'continue',
    'echo STOPPED\n',
    'kill',
    'echo KILLED\n',
    '',
]));
$gdb = proc_open("env -u LD_PRELOAD timeout 300 gdb -p $p -batch -nx -x " . escapeshellarg($cmd) . ' 2>&1',
                 [1 => ['pipe', 'w']], $pipes);
$log = '';
while (($l = fgets($pipes[1])) !== false && trim($l) !== 'READY') {
    $log .= $l;
}
fwrite($pm, "fork\n");
echo "parent: ", trim((string)fgets($pm)), "\n";
while (($l = fgets($pipes[1])) !== false && trim($l) !== 'KILLED') {
    $log .= $l;
}
echo "child killed in its fork handler: ", preg_match('/Breakpoint 1, .*sc_epoch_child/', $log) ? 'yes' : "no\n$log", "\n";
stream_get_contents($pipes[1]);
proc_close($gdb);
unlink($cmd);
fwrite($pm, "exit\n");
echo "from the child: ", ($l = fgets($pm)) === false ? 'nothing' : trim($l), "\n";   // EOF: the parent is gone
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
parent: forked
child killed in its fork handler: yes
from the child: nothing
parent exited: yes
readers: 0
retired by 3000 overwrites: 0 entries, 0 bytes
value: right
