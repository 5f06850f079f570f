--TEST--
Zero-copy: a forked child is covered from the fork on, before its own epoch
--DESCRIPTION--
A process that borrowed arrays forks; gdb holds the child before its fork
handler runs (before it has an epoch of its own) while the parent goes on,
leaves and exits and another process overwrites and refills the cache. The
child, let go, still finds every inherited array right: it is covered from
the fork on, with no wait and no timeout.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork') || !function_exists('proc_open')) die('skip pcntl or proc_open not available');
if (!function_exists('stream_socket_pair')) die('skip no socket pairs');
if (getenv('SHARDCACHE_VALGRIND')) die('skip gdb attaches to a child');
if (trim((string)shell_exec('command -v gdb 2>/dev/null')) === '') die('skip no gdb');
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
    for ($i = 0; $i < 100; $i++) {
        $a["r$i"] = $i % 3 ? "v-$k-$i" : [$k, $i];
    }
    return $a;
}
function zc() { return shardcache_info()['zero_copy']; }
const N = 20;
for ($k = 0; $k < N; $k++) {
    apcu_store("k$k", val($k));
}
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
[$pm, $pt] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
foreach ([$mine, $theirs, $pm, $pt] as $s) {
    stream_set_timeout($s, 3600);
}
$p = pcntl_fork();
if ($p === 0) {
    fclose($mine);
    fclose($pm);
    $held = [];
    for ($k = 0; $k < N; $k++) {
        $held[$k] = apcu_fetch("k$k");
    }
    fwrite($pt, zc()['inside'] ? "P\n" : "p\n");
    fgets($pt);                                         // "fork" (gdb is attached)
    $c = pcntl_fork();
    if ($c === 0) {
        $wrong = 0;
        for ($k = 0; $k < N; $k++) {
            if ($held[$k] !== val($k)) {
                $wrong++;
            }
        }
        fwrite($theirs, sprintf("child: %d inherited arrays, %d wrong\n", N, $wrong));
        exit(0);
    }
    fwrite($pt, "$c\nforked\n");
    exit(0);                                            // leaves its epoch, gives its slot back
}
fclose($theirs);
fclose($pt);
echo "parent inside: ", trim(fgets($pm)), "\n";
/* gdb follows the fork into the child and stops it at the epoch's fork
 * handler, before it publishes anything; it lets it go once $go exists. */
$go = tempnam(sys_get_temp_dir(), 'scgo');
unlink($go);
$cmd = tempnam(sys_get_temp_dir(), 'scgdb');
file_put_contents($cmd, implode("\n", [
    'set follow-fork-mode child',
    'set detach-on-fork on',
    'break sc_epoch_child',
    'echo READY\n',
    'continue',
    'echo STOPPED\n',
    "shell while [ ! -e '$go' ]; do sleep 0.05; done",
    'detach',
    '',
]));
$gdb = proc_open("env -u LD_PRELOAD timeout 300 gdb -p $p -batch -nx -x " . escapeshellarg($cmd) . ' 2>&1',
                 [1 => ['pipe', 'w']], $pipes);
$log = '';
while (($l = fgets($pipes[1])) !== false && trim($l) !== 'READY') {
    $log .= $l;
}
fwrite($pm, "fork\n");
$child = (int)fgets($pm);                               // the child's pid (not ours: the holder's)
echo "parent: ", trim((string)fgets($pm)), "\n";
pcntl_waitpid($p, $st);
echo "parent exited: ", pcntl_wifexited($st) ? 'yes' : 'no', "\n";
while (($l = fgets($pipes[1])) !== false && trim($l) !== 'STOPPED') {
    $log .= $l;
}
echo "child held before its fork handler: ", preg_match('/Breakpoint 1, .*sc_epoch_child/', $log) ? 'yes' : "no\n$log", "\n";
for ($k = 0; $k < N; $k++) {
    $k % 2 ? apcu_delete("k$k") : apcu_store("k$k", ['gone' => $k]);
}
for ($i = 0; $i < 3000; $i++) {
    $v = [];
    for ($j = 0; $j < 100; $j++) {
        $v["r$j"] = "OVERWRITE-$i-$j";
    }
    apcu_store("f" . ($i % 200), $v);
}
echo "retired: ", zc()['retired'] >= N ? 'yes' : 'no', "\n";
touch($go);
echo fgets($mine);
stream_get_contents($pipes[1]);
proc_close($gdb);
unlink($go);
unlink($cmd);
proc_gone_wait($child);                                 // gone: its slot is free
echo "readers left: ", zc()['readers'], "\n";
?>
--EXPECT--
parent inside: P
parent: forked
parent exited: yes
child held before its fork handler: yes
retired: yes
child: 20 inherited arrays, 0 wrong
readers left: 0
