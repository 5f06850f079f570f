--TEST--
Zero-copy: a writer killed in the shard lock with a reader inside keeps entries
--DESCRIPTION--
Issue 43 (tenants share no fate), with zero-copy on. One shard holds user
A's 300 entries (half of them zero-copy arrays) and user B's. A reader of
B fetches two zero-copy arrays and stays inside its epoch; one of them is
then overwritten (its old entry is retired, the reader still holds it),
as are ten of A's arrays. A writer of B that overwrites the other array
the reader holds is stopped by gdb in sc_epoch_release_entry, after it
unlinked that entry and before it retired it, and killed there: the
shard's lock is left "owner died" with the shard's retire list holding
zero-copy bytes while a reader is inside an epoch. The next store repairs
the shard. Every one of A's entries is kept with its exact value (the
repair used to empty the shard then, every user's entries in it), B's key
has the dead writer's value, and after more than the cache holds has been
stored, both arrays the reader holds still read exactly: neither the
entry the dead writer unlinked nor the retired one was handed out again.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork') || !function_exists('posix_setuid') || !function_exists('posix_mkfifo')) die('skip pcntl and posix needed');
if (posix_geteuid() !== 0) die('skip needs root (seteuid to other users, gdb)');
if (getenv('SHARDCACHE_VALGRIND')) die('skip gdb attaches to a child');
if (trim((string)shell_exec('command -v gdb 2>/dev/null')) === '') die('skip no gdb');
?>
--EXTENSIONS--
posix
pcntl
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.shards=1
shardcache.zero_copy=1
--FILE--
<?php
require __DIR__ . '/../lib/isolation.inc';

/* One shard: every key below lives in it. The parent (root) only stores
 * and reads figures: it never enters an epoch. */
const VICTIM_KEYS = 300;

function victim_value(int $i, int $v = 0)
{
    return $i % 2 ? "victim-$i-$v-" . str_repeat(chr(97 + $i % 26), $i % 200)
                  : ['i' => $i, 'v' => $v, 'rows' => array_fill(0, 10 + $i % 20, str_repeat(chr(97 + $i % 26), 40))];
}
function b_value(string $k, int $v): array { return ['k' => $k, 'v' => $v, 'rows' => array_fill(0, 200, str_repeat($k, 100))]; }
function zc() { return shardcache_info()['zero_copy']; }

iso_as(ISO_A, function () {
    $ok = 0;
    for ($i = 0; $i < VICTIM_KEYS; $i++) {
        $ok += apcu_store("v$i", victim_value($i)) ? 1 : 0;
    }
    echo "victim stored $ok/", VICTIM_KEYS, "\n";
});
iso_as(ISO_B, function () {
    echo "B stored: ", apcu_store('held', b_value('h', 0)) && apcu_store('ret', b_value('r', 0)) ? 'yes' : 'no', "\n";
});

/* The reader (user B): holds both arrays, and its epoch, until told. */
[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
stream_set_timeout($mine, 3600);
stream_set_timeout($theirs, 3600);
$reader = pcntl_fork();
if ($reader === 0) {
    fclose($mine);
    posix_setegid(ISO_B);
    posix_seteuid(ISO_B);
    $h = apcu_fetch('held');
    $r = apcu_fetch('ret');
    fwrite($theirs, $h === b_value('h', 0) && $r === b_value('r', 0) && zc()['inside'] ? 'R' : 'X');
    fread($theirs, 1);
    fwrite($theirs, $h === b_value('h', 0) && $r === b_value('r', 0) ? 'S' : 'X');
    posix_seteuid(0);
    posix_setegid(0);
    exit(0);
}
fclose($theirs);
echo "reader holds both values: ", fread($mine, 1), "\n";

/* Retired while the reader is inside: the array it holds, and 10 of A's. */
iso_as(ISO_B, function () { apcu_store('ret', b_value('r', 1)); });
iso_as(ISO_A, function () {
    for ($i = 0; $i < 20; $i += 2) {
        apcu_store("v$i", victim_value($i, 1));
    }
});
echo "retired bytes waiting: ", zc()['retired_bytes'] > 0 ? 'yes' : 'no', "\n";

/* The writer (user B): once gdb has set its breakpoint (it writes to the
 * FIFO), overwrites 'held'; gdb kills it in sc_epoch_release_entry, the
 * old entry unlinked and not yet retired, the shard lock held. */
$fifo = sys_get_temp_dir() . '/sc665-' . getmypid();
@unlink($fifo);
posix_mkfifo($fifo, 0600);
$before = shardcache_info();
[$a, $b] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$w = pcntl_fork();
if ($w === 0) {
    fclose($a);
    $go = fopen($fifo, 'r+');    // read-write: opens without a writer
    posix_setegid(ISO_B);
    posix_seteuid(ISO_B);
    fwrite($b, 'G');
    fread($go, 1);
    apcu_store('held', b_value('h', 1));
    exit(0);
}
fclose($b);
fread($a, 1);
exec("env -u LD_PRELOAD timeout 60 gdb -p $w -batch -nx -ex 'break sc_epoch_release_entry' -ex 'shell echo g > $fifo'"
     . " -ex continue -ex kill 2>&1", $out);
if (!preg_grep('/^Breakpoint 1, .*sc_epoch_release_entry/', $out)) {
    echo "gdb did not stop the writer in sc_epoch_release_entry:\n", implode("\n", array_slice($out, -8)), "\n";
}
function_exists('posix_kill') ? posix_kill($w, 9) : exec('kill -KILL ' . $w);
pcntl_waitpid($w, $st);
fclose($a);
unlink($fifo);
echo "writer killed: ", pcntl_wifsignaled($st) ? 'yes' : 'no', "\n";

apcu_store('probe', 1);     /* takes the shard lock: repairs */
$after = shardcache_info();
echo "repairs: +", $after['repairs'] - $before['repairs'], ", resets: +", $after['resets'] - $before['resets'], "\n";

iso_as(ISO_A, function () {
    $kept = $wrong = 0;
    for ($i = 0; $i < VICTIM_KEYS; $i++) {
        $v = apcu_fetch("v$i", $found);
        if ($found) {
            $v === victim_value($i, $i < 20 && $i % 2 === 0 ? 1 : 0) ? $kept++ : $wrong++;
        }
    }
    echo "victim kept $kept/", VICTIM_KEYS, ", wrong $wrong\n";
});
iso_as(ISO_B, function () {
    echo "B's keys: held ", apcu_fetch('held') === b_value('h', 1) ? 'new' : 'other',
         ", ret ", apcu_fetch('ret') === b_value('r', 1) ? 'new' : 'other', "\n";
});

/* More than the cache holds: nothing the reader holds may be handed out. */
$ok = 0;
for ($i = 0; $i < 40; $i++) {
    $ok += apcu_store('f' . $i, str_repeat(chr(97 + $i % 26), 1500000)) ? 1 : 0;
}
echo "stores while the reader holds: ", $ok > 0 ? 'some succeed' : 'none', "\n";
fwrite($mine, 'C');
echo "reader's values after the refill: ", fread($mine, 1), "\n";
pcntl_waitpid($reader, $st);
echo "reader ended: ", pcntl_wifexited($st) && pcntl_wexitstatus($st) === 0 ? 'yes' : 'no', "\n";
$z = zc();
echo "readers: ", $z['readers'], ", held bytes: ", $z['leaked_bytes'], "\n";
?>
--EXPECT--
victim stored 300/300
B stored: yes
reader holds both values: R
retired bytes waiting: yes
writer killed: yes
repairs: +1, resets: +0
victim kept 300/300, wrong 0
B's keys: held new, ret new
stores while the reader holds: some succeed
reader's values after the refill: S
reader ended: yes
readers: 0, held bytes: 0
