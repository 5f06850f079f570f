--TEST--
Zero-copy: same-length stores rewrite in place only with no reader inside
--DESCRIPTION--
With nobody inside an epoch, a store over a zero-copy value of the same
length rewrites it in place and a delete keeps it (nothing retired). With a
reader inside, the same store makes a new entry, retires the old one, and
the reader's values stay as they were. Once the reader is gone, the next
store frees what was retired.
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
--FILE--
<?php
function zc() { return shardcache_info()['zero_copy']; }
/* Same length for every v below 10^8: a string and an array whose
 * zero-copy layouts are the same size from one version to the next. */
function sv(int $v): string { return sprintf('%08d', $v) . str_repeat(chr(65 + $v % 26), 192); }
function av(int $v): array {
    $rows = [];
    for ($j = 0; $j < 20; $j++) {
        $rows[] = sprintf('%08d-%02d', $v, $j);
    }
    return ['v' => sprintf('%08d', $v), 'rows' => $rows];
}
function borrowed($v): bool {
    ob_start();
    debug_zval_dump($v);
    return str_contains(strtok(ob_get_clean(), "\n"), ' interned');
}
/* A child fetches 's' and 'a' and says whether they are sv($v), av($v),
 * borrowed from the segment. This process never fetches (until the end):
 * it stays outside every epoch. */
function child_reads(int $v): string {
    [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        $s = apcu_fetch('s');
        $a = apcu_fetch('a');
        fwrite($theirs, sprintf("s %s, a %s, borrowed %s\n", $s === sv($v) ? 'right' : 'WRONG',
                                $a === av($v) ? 'right' : 'WRONG', borrowed($s) && borrowed($a) ? 'yes' : 'no'));
        exit(0);
    }
    fclose($theirs);
    $line = trim((string)fgets($mine));
    pcntl_waitpid($pid, $st);
    return $line;
}

apcu_store('s', sv(0));
apcu_store('a', av(0));
$z = zc();
echo "laid out zero-copy: ", $z['bytes'] > 0 ? 'yes' : 'no', "\n";
$bytes = $z['bytes'];
$r0 = $z['retired'];
$ok = 0;
for ($v = 1; $v <= 99; $v++) {
    $ok += apcu_store('s', sv($v)) + apcu_store('a', av($v));
    if ($v % 3 === 0) {
        $ok += apcu_delete('s') + apcu_delete('a');
        $ok += apcu_store('s', sv($v)) + apcu_store('a', av($v));
    }
}
$z = zc();
echo "198 stores over the same length, 66 deletes and 66 stores after them: $ok true\n";
echo "retired: ", $z['retired'] - $r0, ", zero-copy bytes unchanged: ", $z['bytes'] === $bytes ? 'yes' : 'no', "\n";
echo "entries: ", apcu_cache_info(true)['num_entries'], "\n";
echo "a child reads: ", child_reads(99), "\n";

/* A reader inside its epoch, holding both values. */
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($mine);
    $s = apcu_fetch('s');
    $a = apcu_fetch('a');
    fwrite($theirs, $s === sv(99) && $a === av(99) && borrowed($s) && borrowed($a) ? 'R' : 'X');
    fread($theirs, 1);     /* the parent has stored over both */
    $held = $s === sv(99) && $a === av(99);
    $new = apcu_fetch('s') === sv(100) && apcu_fetch('a') === av(100);
    fwrite($theirs, sprintf("held values unchanged: %s, new values read: %s\n", $held ? 'yes' : 'no', $new ? 'yes' : 'no'));
    exit(0);
}
fclose($theirs);
echo "reader holding: ", fread($mine, 1), "\n";
$r1 = zc()['retired'];
$ok = apcu_store('s', sv(100)) + apcu_store('a', av(100));
echo "stores while the reader is inside: $ok true, retired: ", zc()['retired'] - $r1, "\n";
fwrite($mine, 'W');
echo trim((string)fgets($mine)), "\n";
pcntl_waitpid($pid, $st);
echo "reader exited: ", pcntl_wifexited($st) && pcntl_wexitstatus($st) === 0 ? 'yes' : 'no', "\n";

/* Nobody inside again: the next store of each key takes the locked path
 * (its shard has a retired entry) and frees what is retired. */
$c1 = zc()['reclaimed'];
$ok = apcu_store('s', sv(101)) + apcu_store('a', av(101));
$z = zc();
echo "stores after the reader left: $ok true, reclaimed: ", $z['reclaimed'] - $c1, ", retired bytes: ", $z['retired_bytes'], "\n";
$r2 = $z['retired'];
$ok = apcu_store('s', sv(102)) + apcu_store('a', av(102));
echo "then in place again: $ok true, retired: ", zc()['retired'] - $r2, ", zero-copy bytes unchanged: ", zc()['bytes'] === $bytes ? 'yes' : 'no', "\n";
echo "a child reads: ", child_reads(102), "\n";
/* A fetch enters the epoch only for a zero-copy value. */
apcu_store('i', 5);
apcu_store('short', 'abc');
var_dump(apcu_fetch('i'), apcu_fetch('short'), apcu_fetch('nothing'));
echo "inside after fetching an int, a short string and a miss: ", zc()['inside'] ? 'yes' : 'no', "\n";
var_dump(apcu_fetch('s') === sv(102), apcu_fetch('a') === av(102));
echo "inside after fetching zero-copy values: ", zc()['inside'] ? 'yes' : 'no', "\n";
?>
--EXPECT--
laid out zero-copy: yes
198 stores over the same length, 66 deletes and 66 stores after them: 330 true
retired: 0, zero-copy bytes unchanged: yes
entries: 2
a child reads: s right, a right, borrowed yes
reader holding: R
stores while the reader is inside: 2 true, retired: 2
held values unchanged: yes, new values read: yes
reader exited: yes
stores after the reader left: 2 true, reclaimed: 2, retired bytes: 0
then in place again: 2 true, retired: 0, zero-copy bytes unchanged: yes
a child reads: s right, a right, borrowed yes
int(5)
string(3) "abc"
bool(false)
inside after fetching an int, a short string and a miss: no
bool(true)
bool(true)
inside after fetching zero-copy values: yes
