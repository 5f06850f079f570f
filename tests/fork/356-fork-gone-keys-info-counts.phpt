--TEST--
Fork: with keys deleted and revived without the lock, every count is exact
--DESCRIPTION--
Writers delete their own keys without the lock, bring them back with
same-length stores, replace them with other lengths and add them, checking
every answer, while another process walks apcu_cache_info and APCUIterator
(every value listed whole, no key twice). Whenever the writers pause,
num_entries, the cache_list, the iterator, shardcache_info entries and the
per-shard entries all equal the keys the writers hold: kept entries are not
counted.
--SKIPIF--
<?php
require __DIR__ . '/../lib/fork-update.inc';
fu_skip();
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.shards=2
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
const WRITERS = 2;
const KEYS = 64;
define('ROUNDS', getenv('SHARDCACHE_VALGRIND') ? 6 : 150);

/* Value of writer p's key j written in round r, of length 16 or 40. */
function val(int $p, int $j, int $r, int $len): string
{
    return str_pad("$p|$j|$r|", $len, chr(97 + ($j + $r) % 26));
}
function val_ok(string $key, $v): bool
{
    return is_string($v) && preg_match('/^w(\d+):(\d+)$/', $key, $k)
        && preg_match('/^(\d+)\|(\d+)\|(\d+)\|/', $v, $m) && $m[1] === $k[1] && $m[2] === $k[2]
        && (strlen($v) === 16 || strlen($v) === 40) && $v === val((int)$m[1], (int)$m[2], (int)$m[3], strlen($v));
}

// The walker: lists everything over and over until the parent closes its
// socket (polled without waiting).
$walker_pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$walker = pcntl_fork();
if ($walker === 0) {
    fclose($walker_pair[0]);
    stream_set_blocking($walker_pair[1], false);
    $bad = 0;
    $walks = 0;
    while (fread($walker_pair[1], 1) === '' && !feof($walker_pair[1])) {
        $walks++;
        $seen = [];
        foreach (apcu_cache_info()['cache_list'] as $e) {
            if (isset($seen[$e['info']])) $bad++;
            $seen[$e['info']] = true;
        }
        $seen = [];
        foreach (new APCUIterator('/^w/', APC_ITER_KEY | APC_ITER_VALUE) as $e) {
            if (isset($seen[$e['key']]) || !val_ok($e['key'], $e['value'])) $bad++;
            $seen[$e['key']] = true;
        }
    }
    exit($bad === 0 && $walks > 0 ? 0 : 1);
}
fclose($walker_pair[1]);

$kids = fu_start(WRITERS, function (int $p, $sock) {
    $present = array_fill(0, KEYS, false);
    $value = array_fill(0, KEYS, null);
    $len = array_fill(0, KEYS, 16);
    $bad = [];
    $note = function (string $what) use (&$bad) { $bad[$what] = ($bad[$what] ?? 0) + 1; };
    for ($r = 0; $r < ROUNDS; $r++) {
        if (fu_recv($sock) !== "go $r") {
            $note('protocol');
            break;
        }
        for ($j = 0; $j < KEYS; $j++) {
            $key = "w$p:$j";
            switch (($j * 5 + $r * 3 + $p) % 7) {
                case 0:
                case 1:   // delete
                    if (apcu_delete($key) !== $present[$j]) $note('delete answer');
                    $present[$j] = false;
                    break;
                case 2:   // same length: a lockless update, or a revival
                case 3:
                    $v = val($p, $j, $r, $len[$j]);
                    if (!apcu_store($key, $v)) $note('store');
                    [$present[$j], $value[$j]] = [true, $v];
                    break;
                case 4:   // another length: the locked path
                    $len[$j] = $len[$j] === 16 ? 40 : 16;
                    $v = val($p, $j, $r, $len[$j]);
                    if (!apcu_store($key, $v)) $note('store');
                    [$present[$j], $value[$j]] = [true, $v];
                    break;
                case 5:   // add
                    $v = val($p, $j, $r, $len[$j]);
                    if (apcu_add($key, $v) === $present[$j]) $note('add answer');
                    if (!$present[$j]) {
                        [$present[$j], $value[$j]] = [true, $v];
                    }
                    break;
                default:  // delete and bring back at once
                    apcu_delete($key);
                    $v = val($p, $j, $r, $len[$j]);
                    apcu_store($key, $v);
                    [$present[$j], $value[$j]] = [true, $v];
            }
            $v = apcu_fetch($key, $ok);
            if ($ok !== $present[$j] || ($ok && $v !== $value[$j]) || apcu_exists($key) !== $present[$j]) {
                $note('own key read back');
            }
        }
        $held = [];
        foreach ($present as $j => $is) {
            if ($is) $held["w$p:$j"] = $value[$j];
        }
        fu_send($sock, 'paused ' . base64_encode(serialize($held)));
    }
    return $bad;
});
fu_go($kids);

$wrong = [];
$note = function (string $what) use (&$wrong) { $wrong[$what] = ($wrong[$what] ?? 0) + 1; };
for ($r = 0; $r < ROUNDS; $r++) {
    foreach ($kids->socks as $s) {
        fu_send($s, "go $r");
    }
    $held = [];
    foreach ($kids->socks as $s) {
        $line = fu_recv($s);
        if ($line === null || strncmp($line, 'paused ', 7) !== 0) {
            $note('writer did not pause');
            break 2;
        }
        $held += unserialize(base64_decode(substr($line, 7)));
    }
    // Every writer is paused: the listing and every count must be exact.
    $n = count($held);
    $ci = apcu_cache_info();
    $listed = [];
    foreach ($ci['cache_list'] as $e) {
        $listed[$e['info']] = true;
    }
    if ($ci['num_entries'] !== $n) $note('num_entries');
    if (count($ci['cache_list']) !== $n || array_diff_key($held, $listed) || array_diff_key($listed, $held)) $note('cache_list');
    $it = new APCUIterator(null, APC_ITER_KEY | APC_ITER_VALUE);
    $values = [];
    foreach ($it as $e) {
        $values[$e['key']] = $e['value'];
    }
    ksort($values);
    ksort($held);
    if ($values !== $held) $note('iterator listing');
    if ($it->getTotalCount() !== $n) $note('iterator total count');
    $info = shardcache_info();
    if ($info['entries'] !== $n) $note('shardcache_info entries');
    if (array_sum(array_column($info['per_shard'], 'entries')) !== $n) $note('per-shard entries');
    if (apcu_cache_info(true)['num_entries'] !== $n) $note('limited num_entries');
}
$errors = 0;
$res = fu_finish($kids, $errors);
fclose($walker_pair[0]);
pcntl_waitpid($walker, $st);
echo "writers failed: $errors\n";
$bad = [];
foreach ($res as $b) {
    foreach ($b as $what => $n) {
        $bad[$what] = ($bad[$what] ?? 0) + $n;
    }
}
echo "wrong answers to the writers: ", $bad ? json_encode($bad) : 'none', "\n";
echo "wrong counts while paused: ", $wrong ? json_encode($wrong) : 'none', "\n";
echo "walker: ", pcntl_wifexited($st) && pcntl_wexitstatus($st) === 0 ? 'every value whole, no key twice' : 'FAILED', "\n";
$i = shardcache_info();
echo "lockless deletes and inserts happened: ", var_export($i['lockless_deletes'] > 0 && $i['lockless_inserts'] > 0, true), "\n";
echo "evicted ", $i['evicted'], ", repairs ", $i['repairs'], "\n";
?>
--EXPECT--
writers failed: 0
wrong answers to the writers: none
wrong counts while paused: none
walker: every value whole, no key twice
lockless deletes and inserts happened: true
evicted 0, repairs 0
