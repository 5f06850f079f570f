<?php
// Driven by tests/pin/run.sh, which attaches gdb to this process's
// child and stops it just after sc_pin_claim_lane returned (it holds a pin slot of
// the only shard). Modes:
//  zombie, reaped: gdb kills the child there. This process then writes to
//    the shard; the writer must see that the pin's holder is gone (a zombie
//    not yet reaped, or reaped) and go on instead of waiting for the pin for
//    ever (then the alarm ends this process and the script reports it).
//  held: the child stays stopped, alive, holding the pin. A writer started
//    now must wait for the pin (a writer that did not would free memory the
//    child is about to update): it must not finish while the child is
//    stopped, and must finish once gdb lets the child go.
//  fetch-locked: the child stores in a loop instead, and gdb stops it inside
//    the shard's lock (at sc_entry_create, before the odd sequence window).
//    This process's fetches must all go on meanwhile: they read under the
//    sequence counter, and the one in 32 that records a sampled hit skips
//    the busy lock instead of waiting for it.
//  held-noproc: held, with this process and its children run with /proc
//    hidden (tests/lib/without-proc.sh): the liveness of the pin's holder must
//    not depend on /proc.
//  reused: as reaped, then a new, unrelated process (sleep) is made to get
//    the dead child's pid (through /proc/sys/kernel/ns_last_pid, root) and
//    kept alive: the writer must still see the pin's holder as gone.
//  hit-killed: the child only fetches; gdb kills it while it holds the
//    shard's lock to record a sampled hit. No entry may be lost.
//  walk-killed: the child only calls apcu_sma_info(); gdb kills it while it
//    holds the page-pool lock for the walk. No entry may be lost, and the
//    next store must not reset the cache.
//  store-reader, store-writer (issue 20): the child overwrites the int 's'
//    in a loop, which takes the lockless store path (sc_lockless.c); gdb
//    kills it inside the entry's version window (at sc_lockless_fill: the
//    version is odd, nothing written yet). Then, in store-reader, this
//    process first fetches 's' (the fetch must not spin for ever on the odd
//    version: it falls back to the lock, whose window finds the dead pin
//    holder and drops the key); in store-writer it first stores another key
//    of the shard (whose window does the same). Either way 's' is gone -
//    never a torn value - the rest of the shard stays (no repair), and 's'
//    can be stored again.
//  store-reader-noproc: store-reader with /proc hidden.
//  store-string: store-reader with 's' an 8-byte string overwritten by
//    strings of the same length (their bytes are written in the entry).
//  delete-reader, delete-writer (issue 20): the child deletes the int 's'
//    and stores it again in a loop: the delete takes the lockless path
//    (sc_lockless_delete: the entry kept, ttl SC_TTL_GONE) and the store
//    brings it back (sc_lockless_store over a kept entry). gdb kills it
//    inside the delete's version window (at sc_lockless_mark_gone: the version
//    odd, ttl not yet written). Then, as in store-reader/store-writer, 's'
//    must read absent (never hang), the rest of the shard stays, nothing is
//    repaired or reset, and shardcache_info's entries (which leave kept
//    entries out, recounted once the dead writer's entry is settled) equal
//    the entries listed; 's' can be stored, fetched and deleted again.
//  delete-revive: the same loop, killed inside the reviving store's window
//    (at sc_lockless_fill, over the kept entry); then as delete-writer.
//  delete-counted, revive-counted: the same loop, killed a little later:
//    right after sc_lockless_mark_gone (delete) or sc_lockless_fill (revive)
//    returned, at the next sc_pin_lane call, which is the count of kept
//    entries (sc_alloc_gone_add). After a store of another key of the
//    shard (whose window settles the entry if the writer died inside its
//    version window), whatever 's' then is (deleted; stored or not), the
//    entries figure must equal the listing: the count must not be left
//    one off for good by a death just after the version's release.
// Commands come one per line on stdin; $argv[2] is a file this process
// writes "checked" to in held mode, once it has looked at the writer.
$mode = $argv[1] ?? 'zombie';
$ack = $argv[2] ?? null;
if ($mode === 'held-noproc') {
    $mode = 'held';
}
if ($mode === 'store-reader-noproc') {
    $mode = 'store-reader';
}
// store-zc, delete-revive-zc: store-string and delete-revive with 's' a
// 200-byte string laid out zero-copy (run with shardcache.zero_copy=1):
// the lockless store rewrites its bytes in place (nobody is inside an
// epoch), and is killed there.
$zc = $mode === 'store-zc' || $mode === 'delete-revive-zc';
$strings = $mode === 'store-string' || $mode === 'store-zc';
if ($strings) {
    $mode = 'store-reader';
}
if ($mode === 'delete-revive-zc') {
    $mode = 'delete-revive';
}
$sval = function (int $i) use ($zc): string {
    return sprintf('%08d', $i) . ($zc ? str_repeat('z', 192) : '');
};
$storer = $mode === 'store-reader' || $mode === 'store-writer';
$deleter = in_array($mode, ['delete-reader', 'delete-writer', 'delete-revive', 'delete-counted', 'revive-counted'], true);
apcu_store('k', 0);
apcu_store('r', ['read', 42]);
apcu_store('s', $strings ? ($zc ? $sval(0) : 'start---') : -1);
$zc_laid = $zc && shardcache_info()['zero_copy']['bytes'] > 0;
$readers = $mode === 'hit-killed' || $mode === 'walk-killed';
if ($readers) {
    for ($i = 0; $i < 1000; $i++) {
        apcu_store("e$i", ['entry', $i, str_repeat('v', $i % 300)]);
    }
}
$pid = pcntl_fork();
if ($pid === 0) {
    for ($i = 0;; $i++) {
        if ($storer) {
            apcu_store('s', $strings ? $sval($i) : $i);
        } elseif ($deleter) {
            apcu_delete('s');
            apcu_store('s', $zc ? $sval($i) : $i);
        } elseif ($mode === 'hit-killed') {
            apcu_fetch('e' . ($i % 1000));
        } elseif ($mode === 'walk-killed') {
            apcu_sma_info();
        } elseif ($mode === 'fetch-locked') {
            apcu_store('w', "w$i"); // a string: a scalar over a scalar is written in place, without sc_entry_create
        } else {
            apcu_inc('k');
        }
    }
}
echo "child $pid\n";
$line = trim((string)fgets(STDIN));
$expect = $mode === 'held' || $mode === 'fetch-locked' ? 'held' : 'killed';
if ($line !== $expect) {
    echo "script said: " . var_export($line, true) . "\n";
    posix_kill($pid, SIGKILL);
    pcntl_waitpid($pid, $status);
    exit(1);
}
$stat = @file_get_contents("/proc/$pid/stat");
$state = $stat === false ? (is_dir('/proc/self') ? 'gone' : 'unknown (no /proc)')
                         : substr($stat, strrpos($stat, ')') + 2, 1);
echo "child state: $state\n";
pcntl_alarm(20);   // no handler: a writer stuck on the pin dies of SIGALRM

if ($mode === 'fetch-locked') {
    $good = 0;
    for ($i = 0; $i < 1000; $i++) {
        if (apcu_fetch('r') === ['read', 42]) {
            $good++;
        }
    }
    echo "fetches while the writer holds the lock: $good of 1000 right\n";
    file_put_contents($ack, "checked\n");
    posix_kill($pid, SIGKILL);
    pcntl_waitpid($pid, $status);
    pcntl_alarm(0);
    echo "ok\n";
    exit(0);
}

if ($mode === 'held') {
    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $writer = pcntl_fork();
    if ($writer === 0) {
        fclose($pair[0]);
        $ok = apcu_store('other', str_repeat('x', 100));
        fwrite($pair[1], $ok ? "stored\n" : "failed\n");
        exit(0);
    }
    fclose($pair[1]);
    // The writer cannot finish while the pin is held: nothing may arrive.
    // (A bounded look for something that must not happen; no ordering.)
    $r = [$pair[0]]; $w = $e = null;
    $n = stream_select($r, $w, $e, 1, 0);
    echo "writer waits for the pin: ", var_export($n === 0, true), "\n";
    file_put_contents($ack, "checked\n");
    // gdb now detaches: the child finishes its increment and releases the pin.
    echo "writer: ", trim((string)fgets($pair[0])), "\n";
    pcntl_waitpid($writer, $status);
    posix_kill($pid, SIGKILL);
    pcntl_waitpid($pid, $status);
    pcntl_alarm(0);
    $v = apcu_fetch('k');
    echo "k is a positive int: ", var_export(is_int($v) && $v > 0, true), "\n";
    echo "ok\n";
    exit(0);
}

if ($readers) {
    pcntl_waitpid($pid, $status);
    echo "reaped, killed by signal ", pcntl_wtermsig($status), "\n";
    // The next lockers of the shard and of the pool find the dead holder;
    // then a store (which performs any pending reset first).
    apcu_sma_info(true);
    apcu_exists('e1');
    var_dump(apcu_store('after', 1));
    $right = 0;
    for ($i = 0; $i < 1000; $i++) {
        if (apcu_fetch("e$i") === ['entry', $i, str_repeat('v', $i % 300)]) {
            $right++;
        }
    }
    $info = shardcache_info();
    echo "entries after the reader died: $right of 1000 right\n";
    echo "repairs: {$info['repairs']}, resets: {$info['resets']}\n";
    pcntl_alarm(0);
    echo "ok\n";
    exit(0);
}

if ($storer) {
    pcntl_waitpid($pid, $status);
    echo "reaped, killed by signal ", pcntl_wtermsig($status), "\n";
    if ($mode === 'store-writer') {
        var_dump(apcu_store('other', str_repeat('x', 100)));
    }
    echo "s: ", var_export(apcu_fetch('s'), true), "\n";
    echo "s exists: ", var_export(apcu_exists('s'), true), "\n";
    echo "s key info: ", var_export(apcu_key_info('s'), true), "\n";
    $listed = 0;
    foreach (new APCUIterator('/^s$/') as $unused) {
        $listed++;
    }
    echo "s listed by the iterator: $listed\n";
    echo "r: ", var_export(apcu_fetch('r') === ['read', 42], true), "\n";
    var_dump(apcu_store('s', 7));
    echo "s: ", var_export(apcu_fetch('s'), true), "\n";
    var_dump(apcu_store('s', 8));
    echo "s: ", var_export(apcu_fetch('s'), true), "\n";
    $info = shardcache_info();
    if ($zc) {
        echo "s was laid out zero-copy: ", var_export($zc_laid, true), "\n";
    }
    echo "repairs: {$info['repairs']}, resets: {$info['resets']}\n";
    pcntl_alarm(0);
    echo "ok\n";
    exit(0);
}

if ($deleter) {
    $entries_listed = function () {
        $ci = apcu_cache_info();
        $i = shardcache_info();
        $n = count($ci['cache_list']);
        $ok = $i['entries'] === $n && $ci['num_entries'] === $n
            && array_sum(array_column($i['per_shard'], 'entries')) === $n;
        return var_export($ok, true) . ($ok ? '' : " (entries {$i['entries']}, num_entries {$ci['num_entries']}, listed $n)");
    };
    pcntl_waitpid($pid, $status);
    echo "reaped, killed by signal ", pcntl_wtermsig($status), "\n";
    if ($mode !== 'delete-reader') {
        // A store of another key of the shard opens its window: the
        // dead writer's entry, if still odd, is settled there.
        var_dump(apcu_store('other', str_repeat('x', 100)));
    }
    $v = apcu_fetch('s', $found);
    if ($mode === 'revive-counted') {
        // Killed after its value was written: either answer is right.
        echo "s: ", var_export(!$found || is_int($v) && $v >= 0, true), "\n";
        echo "s exists: ", var_export(apcu_exists('s') === $found, true), "\n";
        echo "s key info: ", var_export((apcu_key_info('s') !== null) === $found, true), "\n";
    } else {
        echo "s: ", var_export($v, true), "\n";
        echo "s exists: ", var_export(apcu_exists('s'), true), "\n";
        echo "s key info: ", var_export(apcu_key_info('s'), true), "\n";
    }
    $listed = 0;
    foreach (new APCUIterator('/^s$/') as $unused) {
        $listed++;
    }
    echo "s listed by the iterator: ", $mode === 'revive-counted' ? var_export($listed === ($found ? 1 : 0), true) : $listed, "\n";
    echo "k: ", var_export(apcu_fetch('k'), true), ", r: ", var_export(apcu_fetch('r') === ['read', 42], true), "\n";
    echo "entries = listed: ", $entries_listed(), "\n";
    var_dump(apcu_store('s', 7));
    echo "s: ", var_export(apcu_fetch('s'), true), "\n";
    var_dump(apcu_delete('s'));
    echo "s: ", var_export(apcu_fetch('s'), true), "\n";
    var_dump(apcu_delete('s'));
    var_dump(apcu_store('s', 8));
    echo "s: ", var_export(apcu_fetch('s'), true), "\n";
    echo "entries = listed: ", $entries_listed(), "\n";
    $info = shardcache_info();
    if ($zc) {
        echo "s was laid out zero-copy: ", var_export($zc_laid, true), "\n";
    }
    echo "repairs: {$info['repairs']}, resets: {$info['resets']}\n";
    pcntl_alarm(0);
    echo "ok\n";
    exit(0);
}

$sleeper = 0;
if ($mode === 'reaped' || $mode === 'reused') {
    pcntl_waitpid($pid, $status);
    echo "reaped, killed by signal ", pcntl_wtermsig($status), "\n";
}
if ($mode === 'reused') {
    // Make an unrelated program take the dead child's pid: the kernel hands
    // out ns_last_pid + 1 next, unless another process forks in between.
    // If another process got it (a busy machine: a build forking beside
    // this test), the pid is just as reused by an unrelated process; while
    // it keeps it, tries of our own cannot succeed, so that ends the loop.
    // (kill(pid, 0) only asks whether some process has the pid now.)
    $other = false;
    $until = hrtime(true) + 8 * 1000000000; // within the 20 s alarm
    for ($try = 0; $try < 5000 && !$sleeper && !$other && hrtime(true) < $until; $try++) {
        @file_put_contents('/proc/sys/kernel/ns_last_pid', (string)($pid - 1));
        $p = pcntl_fork();
        if ($p === 0) {
            if (getmypid() === $pid) {
                pcntl_exec('/bin/sleep', ['60']);
            }
            exit(0);
        }
        if ($p === $pid) {
            $sleeper = $p;
        } else {
            pcntl_waitpid($p, $st);
            $other = posix_kill($pid, 0);
        }
    }
    echo "pid reused by an unrelated process: ", var_export($sleeper === $pid || $other, true), "\n";
}
var_dump(apcu_store('other', str_repeat('x', 100)));
$v = apcu_fetch('k');
echo "k is an int: ", var_export(is_int($v) && $v >= 0, true), "\n";
var_dump(apcu_store('k', 100));
var_dump(apcu_inc('k'));
var_dump(apcu_delete('other'));
pcntl_alarm(0);
if ($mode === 'zombie') {
    pcntl_waitpid($pid, $status);
    echo "reaped, killed by signal ", pcntl_wtermsig($status), "\n";
}
if ($sleeper) {
    posix_kill($sleeper, SIGKILL);
    pcntl_waitpid($sleeper, $status);
}
echo "ok\n";
