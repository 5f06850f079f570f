--TEST--
Zero-copy: a child forked with no liveness slot copies; inherited arrays stay
--DESCRIPTION--
A process that borrowed arrays forks while every liveness slot is held by
live processes. The child gets no slot (no epoch of its own): it copies
every later fetch, and the arrays it inherited stay right after the parent
has exited and another process has overwritten them and refilled the cache.
Once it ends, their memory comes back.
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
shardcache.shards=2
--FILE--
<?php
require __DIR__ . '/../lib/live-slots-full.inc';
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
    /* The parent of the child: borrows every array (takes a slot, enters
     * its epoch), waits until every other slot is held, forks, exits. */
    fclose($mine);
    fclose($pm);
    $held = [];
    for ($k = 0; $k < N; $k++) {
        $held[$k] = apcu_fetch("k$k");
    }
    fwrite($pt, zc()['inside'] ? "P\n" : "p\n");
    fgets($pt);                                         // "fork"
    $c = pcntl_fork();
    if ($c === 0) {
        $zc = zc();
        fwrite($theirs, sprintf("%d\nchild: inside %s\n", getmypid(), $zc['inside'] ? 'yes' : 'no'));
        fgets($theirs);                                 // "check"
        $wrong = 0;
        for ($k = 0; $k < N; $k++) {
            if ($held[$k] !== val($k)) {
                $wrong++;
            }
        }
        $copied = zc()['copied'];
        $now = apcu_fetch('k0');
        $zc = zc();
        fwrite($theirs, sprintf("child: %d inherited arrays, %d wrong; a new fetch %s, %s; inside %s\n", N, $wrong,
            $now === ['gone' => 0] ? 'right' : 'WRONG', $zc['copied'] > $copied ? 'copied' : 'BORROWED',
            $zc['inside'] ? 'yes' : 'no'));
        fgets($theirs);                                 // "bye"
        exit(0);
    }
    /* Alive (its slot held) until the child has taken, or failed to
     * take, a slot: then exits. */
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
fwrite($pm, "exit\n");
pcntl_waitpid($p, $st);
echo "parent exited: ", pcntl_wifexited($st) ? 'yes' : 'no', "\n";
/* Everything the child holds is overwritten or deleted, and the cache
 * refilled many times over: freed memory would be reused. */
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
fwrite($mine, "check\n");
echo fgets($mine);
fwrite($mine, "bye\n");
fgets($mine);                                           // EOF: the child is gone or going
proc_gone_wait($child);                                 // gone: its cover is dropped
php_sc_live_release($h);
echo "readers left: ", zc()['readers'], "\n";
$before = zc()['reclaimed'];
for ($i = 0; $i < 200; $i++) {
    apcu_store("g" . ($i % 50), ['after' => $i]);
}
echo "reclaimed after the child left: ", zc()['reclaimed'] > $before ? 'yes' : 'no', "\n";
?>
--EXPECT--
parent inside: P
every other slot held: yes
child: inside no
parent exited: yes
retired: yes
child: 20 inherited arrays, 0 wrong; a new fetch right, copied; inside no
readers left: 0
reclaimed after the child left: yes
