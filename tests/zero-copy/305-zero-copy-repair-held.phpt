--TEST--
Zero-copy: a repaired shard keeps a reader's pages until the reader has gone
--DESCRIPTION--
The shard is repaired because its writer was killed with SIGKILL holding the
shard lock, while a reader holds one of its values. The repair keeps the
shard's entries, that value's too (the shard is not emptied, no pages are
held back), and the value stays intact while the cache is refilled; once
the reader has gone no bytes stay held.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork') || !function_exists('exec')) die('skip pcntl or exec not available');
if (!function_exists('stream_socket_pair')) die('skip no socket pairs');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.shards=1
shardcache.zero_copy=1
--FILE--
<?php
/* One shard: every key below lives in it. The parent never fetches a
 * zero-copy value before the end, so it is never inside an epoch. */
function zc() { return shardcache_info()['zero_copy']; }
function held_value(): array { return ['k' => 'held', 'rows' => array_fill(0, 200, str_repeat('h', 100))]; }
function kill9(int $pid): void
{
    function_exists('posix_kill') ? posix_kill($pid, 9) : exec('kill -KILL ' . $pid);
    pcntl_waitpid($pid, $st);
}

apcu_store('held', held_value());

/* The reader: takes a zero-copy value, keeps it (and its epoch) until told,
 * then says whether it is still what it was. */
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
stream_set_timeout($mine, 3600);
stream_set_timeout($theirs, 3600);
$reader = pcntl_fork();
if ($reader === 0) {
    fclose($mine);
    $v = apcu_fetch('held');
    fwrite($theirs, $v === held_value() && shardcache_info()['zero_copy']['inside'] ? 'R' : 'X');
    fread($theirs, 1);
    fwrite($theirs, $v === held_value() ? 'S' : 'X');
    exit(0);
}
fclose($theirs);
echo "reader holds the value: ", fread($mine, 1), "\n";

/* A writer that stores big strings without pause is killed (SIGKILL) while
 * it holds the shard lock; the next store repairs the shard. With gdb (not
 * under valgrind, whose children gdb cannot stop at a function) the kill is
 * exact: gdb stops the writer at sc_entry_create, which runs under the
 * lock, and kills it there. Without gdb, writers are killed at random
 * moments until one dies holding the lock (under ASan, 2000 random kills
 * were once not enough: the writer spends most of its time outside it). */
$big = str_repeat('w', 20000);
$repairs = shardcache_info()['repairs'];
$gdb = !getenv('SHARDCACHE_VALGRIND') && trim((string)shell_exec('command -v gdb 2>/dev/null')) !== '';
$tries = 0;
while (shardcache_info()['repairs'] === $repairs && $tries < ($gdb ? 3 : 2000)) {
    $tries++;
    [$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $w = pcntl_fork();
    if ($w === 0) {
        fclose($a);
        fwrite($b, 'G');
        for ($i = 0; ; $i++) {
            apcu_store('w' . ($i & 7), $big . $i);
        }
    }
    fclose($b);
    fread($a, 1);
    if ($gdb) {
        /* env -u LD_PRELOAD: the ASan run (tests/asan/run.sh) preloads
         * its runtime into PHP, and so into every program PHP starts; gdb
         * under it never got as far as attaching. */
        exec("env -u LD_PRELOAD timeout 60 gdb -p $w -batch -nx -ex 'break sc_entry_create' -ex continue -ex kill 2>&1", $out);
        if (!preg_grep('/^Breakpoint 1, .*sc_entry_create/', $out)) {
            echo "gdb did not stop the writer in sc_entry_create:\n", implode("\n", array_slice($out, -8)), "\n";
        }
        $out = [];
        kill9($w);   /* gdb killed it already: reaps it (or kills it if gdb failed) */
    } else {
        usleep(mt_rand(0, 2000));
        kill9($w);
    }
    fclose($a);
    apcu_store('probe', 1);   /* takes the shard lock: repairs if needed */
}
echo "a writer died holding the lock: ", shardcache_info()['repairs'] > $repairs ? 'yes' : "no (after $tries kills)", "\n";
echo "the reader's entry kept, no pages held: ", apcu_exists('held') && zc()['leaked_bytes'] === 0 ? 'yes' : 'no', "\n";

/* More than the cache holds is stored: held pages must not be handed out
 * (the reader checks every element of its value). */
$ok = 0;
for ($i = 0; $i < 40; $i++) {
    $ok += apcu_store('f' . $i, str_repeat(chr(97 + $i % 26), 1500000)) ? 1 : 0;
}
echo "stores while held: ", $ok > 0 ? 'some succeed' : 'none', "\n";

fwrite($mine, 'C');
echo "reader's value after the refill: ", fread($mine, 1), "\n";
pcntl_waitpid($reader, $st);
echo "reader ended: ", pcntl_wifexited($st) && pcntl_wexitstatus($st) === 0 ? 'yes' : 'no', "\n";

/* Nobody is inside an epoch now: nothing may stay held, before any clear. */
$z = zc();
echo "readers: ", $z['readers'], ", held bytes: ", $z['leaked_bytes'], "\n";
$ok = 0;
for ($i = 0; $i < 100; $i++) {
    $ok += apcu_store('g' . $i, str_repeat('g', 50000) . $i) ? 1 : 0;
}
echo "stores after: $ok of 100\n";
var_dump(apcu_fetch('g99') === str_repeat('g', 50000) . '99');
?>
--EXPECT--
reader holds the value: R
a writer died holding the lock: yes
the reader's entry kept, no pages held: yes
stores while held: some succeed
reader's value after the refill: S
reader ended: yes
readers: 0, held bytes: 0
stores after: 100 of 100
bool(true)
