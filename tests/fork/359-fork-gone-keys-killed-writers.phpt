--TEST--
Fork: writers of lockless deletes killed at any point: no hang, no bad value
--DESCRIPTION--
Processes that delete their keys without the lock and bring them back with
same-length stores are killed (SIGKILL) at arbitrary points, round after
round. No hang; every key reads absent or a value its writer stored; nothing
is repaired or reset; the keys can be stored again; and the entries figure
always equals the listing.
--SKIPIF--
<?php
require __DIR__ . '/../lib/fork-update.inc';
fu_skip();
if (!function_exists('exec')) die('skip exec not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.shards=2
--FILE--
<?php
const CHILDREN = 2;
const KEYS = 12;          // per child, its own
define('ROUNDS', getenv('SHARDCACHE_VALGRIND') ? 3 : 100);
define('WARMUP', getenv('SHARDCACHE_VALGRIND') ? 20 : 2000);

function key_of(int $c, int $j): string { return "c$c:k$j"; }
/* The values of a key: an int, or a 12-byte string, by key (so that every
 * store over a kept entry has its type and length: all lockless). */
function val(int $c, int $j, int $i) { return $j % 2 ? $i : sprintf('%d:%d:%06d', $c, $j, $i % 1000000); }
function val_ok(int $c, int $j, $v): bool {
    return $j % 2 ? is_int($v) && $v >= 0 : is_string($v) && preg_match("/^$c:$j:\\d{6}\$/", $v) === 1;
}
function entries_listed(): bool {
    $i = shardcache_info();
    $ci = apcu_cache_info();
    $n = count($ci['cache_list']);
    return $i['entries'] === $n && $ci['num_entries'] === $n && (new APCUIterator())->getTotalCount() === $n
        && array_sum(array_column($i['per_shard'], 'entries')) === $n;
}

$bad = [];
$note = function (string $what) use (&$bad) { $bad[$what] = ($bad[$what] ?? 0) + 1; };
pcntl_alarm(getenv('SHARDCACHE_VALGRIND') ? 600 : 120);   // a hang ends the test (no handler: SIGALRM)
for ($round = 0; $round < ROUNDS; $round++) {
    for ($c = 0; $c < CHILDREN; $c++) {
        for ($j = 0; $j < KEYS; $j++) {
            apcu_store(key_of($c, $j), val($c, $j, 0));
        }
    }
    $kids = [];
    for ($c = 0; $c < CHILDREN; $c++) {
        $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        $pid = pcntl_fork();
        if ($pid === 0) {
            fclose($pair[0]);
            stream_set_blocking($pair[1], false);
            for ($i = 1;; $i++) {
                $j = $i % KEYS;
                apcu_delete(key_of($c, $j));
                apcu_store(key_of($c, $j), val($c, $j, $i));
                if ($i === WARMUP) {
                    fwrite($pair[1], "running\n");
                }
                if (($i & 255) === 0 && fread($pair[1], 1) === '' && feof($pair[1])) {
                    exit(1);   // the parent is gone (it failed): do not spin on
                }
            }
        }
        fclose($pair[1]);
        $kids[$c] = [$pid, $pair[0]];
    }
    // Kill each child once it has run a while: wherever it then is.
    foreach ($kids as $c => [$pid, $sock]) {
        if (fgets($sock) !== "running\n") $note('child did not run');
        exec('kill -KILL ' . $pid);
        pcntl_waitpid($pid, $st);
        if (!pcntl_wifsignaled($st) || pcntl_wtermsig($st) !== SIGKILL) $note('child not killed');
        fclose($sock);
    }
    // Every key: absent (a delete, or a writer killed mid-write) or a value
    // its writer stored.
    for ($c = 0; $c < CHILDREN; $c++) {
        for ($j = 0; $j < KEYS; $j++) {
            $v = apcu_fetch(key_of($c, $j), $ok);
            if ($ok && !val_ok($c, $j, $v)) $note('bad value after the kill');
            if (apcu_exists(key_of($c, $j)) !== $ok) $note('exists disagrees');
        }
    }
    // Stored again (any store of the shards settles what a dead writer
    // left): every key back, the figures equal the listing.
    for ($c = 0; $c < CHILDREN; $c++) {
        for ($j = 0; $j < KEYS; $j++) {
            if (!apcu_store(key_of($c, $j), val($c, $j, 999999))) $note('store failed');
        }
    }
    for ($c = 0; $c < CHILDREN; $c++) {
        for ($j = 0; $j < KEYS; $j++) {
            if (apcu_fetch(key_of($c, $j)) !== val($c, $j, 999999)) $note('stored value not read back');
        }
    }
    if (!entries_listed()) $note('entries differ from the listing (all stored)');
    if (shardcache_info()['entries'] !== CHILDREN * KEYS) $note('entries not all keys');
    for ($c = 0; $c < CHILDREN; $c++) {
        for ($j = 0; $j < KEYS; $j++) {
            if (!apcu_delete(key_of($c, $j))) $note('delete said false');
        }
    }
    if (!entries_listed() || shardcache_info()['entries'] !== 0) $note('entries differ from the listing (all deleted)');
}
pcntl_alarm(0);
$i = shardcache_info();
echo "problems: ", $bad ? json_encode($bad) : 'none', "\n";
echo "repairs {$i['repairs']}, resets {$i['resets']}\n";
echo "lockless deletes and inserts happened: ", var_export($i['lockless_deletes'] > 0 && $i['lockless_inserts'] > 0, true), "\n";
?>
--EXPECT--
problems: none
repairs 0, resets 0
lockless deletes and inserts happened: true
