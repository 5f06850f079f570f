--TEST--
Zero-copy: in-place rewrites racing 60 readers never show a torn value
--DESCRIPTION--
A writer stores, deletes and stores again same-length zero-copy strings and
arrays of 16 keys without pause (rewritten in place whenever nobody is
inside an epoch) while 60 reader processes start one after another, each
fetching every key twice and checking every value, and every held value
again at its end. No reader ever sees a torn, mixed or changed value.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (!function_exists('stream_socket_pair')) die('skip no socket pairs');
if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: the readers read values another process wrote after they were forked, which memcheck cannot see (tests/zero-copy/425 runs the same paths from one writer)');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.zero_copy=1
--FILE--
<?php
const KEYS = 16;
const READERS = 60;
function sv(int $v): string { return sprintf('%08d', $v) . str_repeat(chr(65 + $v % 26), 292); }
function av(int $v): array {
    $rows = [];
    for ($j = 0; $j < 24; $j++) {
        $rows[] = sprintf('%08d-%02d', $v, $j);
    }
    return ['v' => sprintf('%08d', $v), 'n' => $v, 'rows' => $rows];
}
/* 0: $x is a value sv(v) or av(v) for the version it names; 1: anything
 * else (torn, mixed, wrong). false (a miss) is fine: keys are deleted. */
function wrong($x, bool $arr): int {
    if ($x === false) {
        return 0;
    }
    if ($arr) {
        return is_array($x) && isset($x['n']) && is_int($x['n']) && $x === av($x['n']) ? 0 : 1;
    }
    return is_string($x) && strlen($x) === 300 && preg_match('/^[0-9]{8}/', $x) === 1 && $x === sv((int)substr($x, 0, 8)) ? 0 : 1;
}

for ($k = 0; $k < KEYS; $k++) {
    apcu_store("s$k", sv(0));
    apcu_store("a$k", av(0));
}

/* The writer: runs until told to stop (a byte on its socket). */
[$wmine, $wtheirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$writer = pcntl_fork();
if ($writer === 0) {
    fclose($wmine);
    stream_set_blocking($wtheirs, false);
    $stores = 0;
    $failed = 0;
    for ($i = 1;; $i++) {
        $k = $i % KEYS;
        $failed += (apcu_store("s$k", sv($i)) ? 0 : 1) + (apcu_store("a$k", av($i)) ? 0 : 1);
        $stores += 2;
        if ($i % 5 === 0) {
            apcu_delete("s$k");
            apcu_delete("a$k");
            $failed += (apcu_store("s$k", sv($i)) ? 0 : 1) + (apcu_store("a$k", av($i)) ? 0 : 1);
            $stores += 2;
        }
        if ($i === 1) {
            fwrite($wtheirs, 'G');
        }
        if (($i & 63) === 0 && fread($wtheirs, 1) === 'S') {
            break;
        }
    }
    /* Every reader has exited now and the parent never fetched: two more
     * rounds over every key with nobody inside an epoch. The first frees
     * what the readers held back (each shard's first store takes the
     * locked path for it); in the second, nothing is retired. */
    for ($round = 0; $round < 2; $round++) {
        $r1 = shardcache_info()['zero_copy']['retired'];
        for ($k = 0; $k < KEYS; $k++, $i++) {
            $failed += (apcu_store("s$k", sv($i)) ? 0 : 1) + (apcu_store("a$k", av($i)) ? 0 : 1);
        }
        $last = shardcache_info()['zero_copy']['retired'] - $r1;
    }
    stream_set_blocking($wtheirs, true);
    fwrite($wtheirs, sprintf("%d %d %d\n", $stores, $failed, $last));
    exit(0);
}
fclose($wtheirs);
echo "writer started: ", fread($wmine, 1), "\n";

$bad = 0;
$hits = 0;
$readers = 0;
for ($r = 0; $r < READERS; $r++) {
    [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        $held = [];
        $b = 0;
        $h = 0;
        for ($round = 0; $round < 2; $round++) {
            for ($k = 0; $k < KEYS; $k++) {
                foreach (["s$k" => false, "a$k" => true] as $key => $arr) {
                    $x = apcu_fetch($key);
                    $b += wrong($x, $arr);
                    $h += $x !== false ? 1 : 0;
                    $held[] = [$x, $arr, $x === false ? null : ($arr ? $x['n'] : (int)substr($x, 0, 8))];
                }
            }
        }
        /* Every value held since its fetch is still the one it was. */
        foreach ($held as [$x, $arr, $v]) {
            if ($x !== false && $x !== ($arr ? av($v) : sv($v))) {
                $b++;
            }
        }
        fwrite($theirs, "$b $h\n");
        exit(0);
    }
    fclose($theirs);
    [$b, $h] = array_map('intval', explode(' ', trim((string)fgets($mine))));
    pcntl_waitpid($pid, $st);
    $bad += $b;
    $hits += $h;
    $readers += pcntl_wifexited($st) && pcntl_wexitstatus($st) === 0 ? 1 : 0;
}
fwrite($wmine, 'S');
[$stores, $failed, $last] = array_map('intval', explode(' ', trim((string)fgets($wmine))));
pcntl_waitpid($writer, $st);

echo "readers that finished: $readers of ", READERS, "\n";
echo "wrong values read or held: $bad\n";
echo "values read: ", $hits > 0 ? 'some' : 'none', "\n";
echo "writer: failed stores $failed, exited ", pcntl_wifexited($st) && pcntl_wexitstatus($st) === 0 ? 'yes' : 'no', "\n";
echo "writer stores while the readers ran: ", $stores > 0 ? 'some' : 'none', "\n";
echo "retired by the last round (nobody inside): $last\n";
for ($k = 0, $end = 0; $k < KEYS; $k++) {
    $end += wrong(apcu_fetch("s$k"), false) + wrong(apcu_fetch("a$k"), true);
}
echo "wrong values at the end: $end\n";
?>
--EXPECT--
writer started: G
readers that finished: 60 of 60
wrong values read or held: 0
values read: some
writer: failed stores 0, exited yes
writer stores while the readers ran: some
retired by the last round (nobody inside): 0
wrong values at the end: 0
