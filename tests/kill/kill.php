<?php
/*
 * tests/kill/kill.php - the kill test: worker processes hammer the cache
 * while this process (the killer) SIGKILLs them at random moments and forks
 * replacements. Run it through tests/kill/run.sh, which loads the
 * extension (and posix, for posix_kill) into `php -n`.
 *
 *   php -n -d extension=posix -d extension=shardcache.so -d apc.enable_cli=1 \
 *       tests/kill/kill.php [--kills=N] [--workers=8] [--seconds=S] [--hang=5]
 *
 * The segment is created when this process starts; every worker is a
 * pcntl_fork child of it, so all share it. This process never calls the
 * cache itself: it must stay responsive when the cache is broken.
 *
 * Workers (tests/kill/workload.inc) report progress and wrong values over a
 * socket pair. The killer waits a random delay (log-uniform, 50 us .. 5 ms),
 * then kills a random worker among those that are past their first progress
 * report and reported progress in the last 200 ms, reaps it at once (so that no reservation waits on a zombie) and
 * forks a replacement. A worker that stops reporting is never chosen, so a
 * worker blocked on a lock left by a dead process sits there until it has
 * made no progress for --hang seconds: that is a hang. Then everything is
 * killed and the run fails. A worker that exits without being killed is a
 * crash.
 *
 * At the end: killing stops, every worker must report progress again within
 * --hang seconds (the last kills may have broken something), every worker is
 * killed (those kills count too), and a fresh checker process verifies every
 * key and that every key can be written, read, deleted and cleared, within
 * --hang seconds.
 *
 * --readers: the workers only read (tests/kill/readers.inc): a setup process
 * stores every key first, and the final check wants every one of them back,
 * unchanged, with no repair and no reset.
 *
 * A hang is counted once however many workers are stuck (they are listed).
 * Output: progress lines, then "kills: N, hangs: N, wrong values: N",
 * "crashes: N", and last "N passed, N failed" (1 passed when there was no
 * hang, wrong value or crash and the kill target was reached). Exit status 0
 * only then. Every process this script forked is gone when it exits.
 */
require __DIR__ . '/workload.inc';
require __DIR__ . '/readers.inc';

$opt = getopt('', ['kills:', 'workers:', 'seconds:', 'hang:', 'seed:', 'quiet', 'readers']);
$readers = isset($opt['readers']);
$target = isset($opt['kills']) ? (int) $opt['kills'] : (isset($opt['seconds']) ? 0 : 200);
$nworkers = isset($opt['workers']) ? max(1, (int) $opt['workers']) : 8;
$limit = isset($opt['seconds']) ? (float) $opt['seconds'] : 100.0;
$hang_after = isset($opt['hang']) ? (float) $opt['hang'] : 5.0;
$seed = isset($opt['seed']) ? (int) $opt['seed'] : random_int(1, 1 << 30);
$quiet = isset($opt['quiet']);

foreach (['pcntl_fork', 'posix_kill', 'apcu_store'] as $fn) {
    if (!function_exists($fn)) {
        fwrite(STDERR, "kill.php: $fn() is missing (load pcntl, posix and the cache extension)\n");
        echo "0 passed, 1 failed\n";
        exit(2);
    }
}
if (!apcu_enabled()) {
    fwrite(STDERR, "kill.php: the cache is not enabled (apc.enable_cli=1?)\n");
    echo "0 passed, 1 failed\n";
    exit(2);
}

const SIGKILL_NO = 9;

$workers = [];        // pid => ['sock', 'id', 'buf', 'last' (hrtime of last progress), 'ops', 'started', 'born']
$next_id = 1;
$kills = 0;
$hangs = 0;
$wrong = 0;
$crashes = 0;
$total_ops = 0;
$total_checked = 0;
$wrong_lines = [];
$notes = [];
$lifetimes = [];
$ops_at_kill = [];
$t0 = hrtime(true);

function now_s(): float { global $t0; return (hrtime(true) - $t0) / 1e9; }
function say(string $s): void { echo $s, "\n"; }

function spawn(): void
{
    global $workers, $next_id;
    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    if (!$pair) {
        throw new RuntimeException('socket pair failed');
    }
    $id = $next_id++;
    $pid = pcntl_fork();
    if ($pid < 0) {
        throw new RuntimeException('fork failed');
    }
    if ($pid == 0) {
        // Drop the killer's ends of the other workers' sockets, so that a
        // worker notices (EPIPE) when the killer is gone.
        foreach ($workers as $w) {
            fclose($w['sock']);
        }
        fclose($pair[0]);
        pcntl_signal(SIGTERM, SIG_DFL);
        pcntl_signal(SIGINT, SIG_DFL);
        if ($GLOBALS['readers']) {
            rk_worker($id, $pair[1]);
        } else {
            kt_worker($id, $pair[1]);
        }
        exit(0);
    }
    fclose($pair[1]);
    stream_set_blocking($pair[0], false);
    $workers[$pid] = ['sock' => $pair[0], 'id' => $id, 'buf' => '', 'last' => hrtime(true),
                      'ops' => 0, 'checked' => 0, 'started' => false, 'born' => hrtime(true)];
}

function handle_line(int $pid, string $line): void
{
    global $workers, $wrong, $wrong_lines, $total_ops, $total_checked;
    $w = &$workers[$pid];
    if ($line === 'R') {
        $w['started'] = true;
        $w['last'] = hrtime(true);
    } elseif (strncmp($line, 'P ', 2) === 0) {
        [, $ops, $checked] = explode(' ', $line) + [0, 0, 0];
        $total_ops += max(0, (int) $ops - $w['ops']);
        $total_checked += max(0, (int) $checked - $w['checked']);
        $w['ops'] = (int) $ops;
        $w['checked'] = (int) $checked;
        $w['last'] = hrtime(true);
    } elseif (strncmp($line, 'W ', 2) === 0) {
        $wrong++;
        if (count($wrong_lines) < 20) {
            $wrong_lines[] = sprintf('%.3fs worker %d (pid %d): %s', now_s(), $w['id'], $pid, substr($line, 2));
        }
    } else {
        $wrong_lines[] = "worker pid $pid sent garbage: " . substr($line, 0, 100);
    }
}

/* Reads whatever the workers sent, for up to $seconds. */
function service(float $seconds): void
{
    global $workers;
    $until = hrtime(true) + (int) ($seconds * 1e9);
    do {
        $read = [];
        foreach ($workers as $w) {
            $read[] = $w['sock'];
        }
        $left = max(0, $until - hrtime(true));
        if (!$read) {
            usleep((int) ($left / 1000));
            break;
        }
        $wr = $ex = null;
        $n = @stream_select($read, $wr, $ex, 0, (int) ($left / 1000));
        if ($n === false) {
            break;    // interrupted by a signal
        }
        foreach ($read as $sock) {
            foreach ($workers as $pid => $w) {
                if ($w['sock'] !== $sock) continue;
                $data = fread($sock, 65536);
                if ($data === false || $data === '') break;
                $buf = $w['buf'] . $data;
                $lines = explode("\n", $buf);
                $workers[$pid]['buf'] = array_pop($lines);
                foreach ($lines as $line) {
                    handle_line($pid, $line);
                }
                break;
            }
        }
    } while (hrtime(true) < $until);
    reap_unexpected();
}

function forget(int $pid): void
{
    global $workers, $lifetimes, $ops_at_kill;
    $lifetimes[] = (hrtime(true) - $workers[$pid]['born']) / 1e6;
    $ops_at_kill[] = $workers[$pid]['ops'];
    fclose($workers[$pid]['sock']);
    unset($workers[$pid]);
}

function describe_status(int $status): string
{
    if (pcntl_wifsignaled($status)) return 'killed by signal ' . pcntl_wtermsig($status);
    if (pcntl_wifexited($status)) return 'exited with status ' . pcntl_wexitstatus($status);
    return "status $status";
}

/* Workers that ended without being killed by us. */
function reap_unexpected(): void
{
    global $workers, $crashes, $notes, $stopping;
    while (($pid = pcntl_waitpid(-1, $status, WNOHANG)) > 0) {
        if (!isset($workers[$pid])) continue;
        $crashes++;
        $notes[] = sprintf('%.3fs crash: worker %d (pid %d) %s after %d ops', now_s(), $workers[$pid]['id'], $pid,
                           describe_status($status), $workers[$pid]['ops']);
        forget($pid);
        if (empty($stopping)) spawn();
    }
}

function kill_worker(int $pid): void
{
    global $kills;
    posix_kill($pid, SIGKILL_NO);
    pcntl_waitpid($pid, $status);
    $kills++;
    forget($pid);
}

function proc_info(int $pid): string
{
    $wchan = @file_get_contents("/proc/$pid/wchan");
    $stat = @file_get_contents("/proc/$pid/stat");
    $state = $stat ? (explode(' ', substr($stat, strrpos($stat, ')') + 2))[0] ?? '?') : '?';
    return "state $state, wchan " . ($wchan === false || $wchan === '' ? '?' : $wchan);
}

/* Workers without progress for $hang_after seconds. */
function find_hangs(float $since_ns = 0): array
{
    global $workers, $hang_after;
    $now = hrtime(true);
    $hung = [];
    foreach ($workers as $pid => $w) {
        $ref = max($w['last'], $since_ns);
        if ($now - $ref > $hang_after * 1e9) {
            $hung[] = $pid;
        }
    }
    return $hung;
}

function report_hangs(array $hung, string $when): void
{
    global $workers, $hangs, $notes, $kills;
    $hangs++;
    $notes[] = sprintf('%.3fs hang (%s, after %d kills): %d of %d workers stuck:', now_s(), $when,
                       $kills, count($hung), count($workers));
    foreach ($hung as $pid) {
        $w = $workers[$pid];
        $notes[] = sprintf('    worker %d (pid %d): stuck %.1f s after %d ops; %s', $w['id'], $pid,
                           (hrtime(true) - $w['last']) / 1e9, $w['ops'], proc_info($pid));
    }
    // Where they wait (for whoever reads the report): the stack of the
    // first two stuck workers and the lock word they wait on, when gdb is here.
    foreach (array_slice($hung, 0, 2) as $pid) {
        $gdb = 'timeout 30 gdb -p ' . (int)$pid . ' -batch -nx -ex ' . escapeshellarg('bt 12')
             . ' -ex ' . escapeshellarg('frame function sc_mutex_lock') . ' -ex ' . escapeshellarg('print lock->mx.__data')
             . ' 2>/dev/null | grep -E ' . escapeshellarg('^#|^[$][0-9]') . ' | head -n 16';
        $bt = @shell_exec($gdb);
        foreach (explode("\n", trim((string)$bt)) as $line) {
            if ($line !== '') {
                $notes[] = "      $pid: $line";
            }
        }
    }
}

function kill_all(bool $count): void
{
    global $workers, $kills;
    foreach (array_keys($workers) as $pid) {
        posix_kill($pid, SIGKILL_NO);
    }
    foreach (array_keys($workers) as $pid) {
        pcntl_waitpid($pid, $status);
        if ($count) $kills++;
        forget($pid);
    }
}

$cleanup = function () {
    global $workers;
    foreach (array_keys($workers) as $pid) {
        posix_kill($pid, SIGKILL_NO);
        pcntl_waitpid($pid, $status);
    }
    echo "kill.php: interrupted\n0 passed, 1 failed\n";
    exit(1);
};
pcntl_async_signals(true);
pcntl_signal(SIGTERM, $cleanup);
pcntl_signal(SIGINT, $cleanup);

mt_srand($seed);
say(sprintf('kill test%s: %d workers, target %s kills, time limit %.0f s, hang after %.1f s, seed %d, shm %s, shards %s%s',
            $readers ? ' (readers only)' : '', $nworkers, $target ?: 'no', $limit, $hang_after, $seed,
            ini_get('apc.shm_size') ?: '?', ini_get('shardcache.shards') ?: '-',
            is_dir('/proc/self') ? '' : ', /proc hidden'));

if ($readers) {
    // The keys the readers read, stored by a process of their own (this
    // process never calls the cache).
    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid == 0) {
        fclose($pair[0]);
        fwrite($pair[1], json_encode(rk_setup()));
        exit(0);
    }
    fclose($pair[1]);
    $setup = json_decode((string) stream_get_contents($pair[0]), true);
    fclose($pair[0]);
    pcntl_waitpid($pid, $status);
    if (!is_array($setup) || $setup) {
        say('setup failed: ' . (is_array($setup) ? implode('; ', $setup) : describe_status($status)));
        say('0 passed, 1 failed');
        exit(1);
    }
    say(sprintf('setup: %d keys stored', RK_NKEYS));
}

for ($i = 0; $i < $nworkers; $i++) {
    spawn();
}
service(0.2);

// ---- the killing ----
$stopping = false;
$last_say = 0.0;
$hung = [];
while (true) {
    if ($target && $kills >= $target) break;
    if (now_s() >= $limit) {
        if ($target) $notes[] = sprintf('time limit: only %d of %d kills in %.0f s', $kills, $target, $limit);
        break;
    }
    // log-uniform delay between 50 us and 5 ms
    service(exp(log(50e-6) + mt_rand() / mt_getrandmax() * (log(5e-3) - log(50e-6))));
    if ($hung = find_hangs()) break;
    $now = hrtime(true);
    $cands = [];
    foreach ($workers as $pid => $w) {
        // running for a while (past its first report) and not stuck
        if ($w['ops'] > 0 && $now - $w['last'] < 200e6) $cands[] = $pid;
    }
    if ($cands) {
        kill_worker($cands[mt_rand(0, count($cands) - 1)]);
        spawn();
    }
    if (!$quiet && now_s() - $last_say >= 5) {
        $last_say = now_s();
        say(sprintf('%6.1fs kills %d, ops %d, wrong values %d, crashes %d', $last_say, $kills, $total_ops, $wrong, $crashes));
    }
}
$stopping = true;
$kill_phase = now_s();

if ($hung) {
    // Stop killing for a moment, then list every worker that is stuck (the
    // killer may have replaced others that were stuck for less time).
    service(1.0);
    $hung = [];
    foreach ($workers as $pid => $w) {
        if (hrtime(true) - $w['last'] > 1e9) $hung[] = $pid;
    }
    report_hangs($hung, 'while killing');
} else {
    // ---- settle: every worker must make progress again ----
    $stop_ns = hrtime(true);
    $need = [];
    foreach ($workers as $pid => $w) $need[$pid] = $w['ops'];
    while ($need && !find_hangs($stop_ns)) {
        service(0.02);
        foreach ($need as $pid => $ops) {
            if (!isset($workers[$pid]) || $workers[$pid]['ops'] > $ops + 32) unset($need[$pid]);
        }
    }
    if ($need) {
        // A lock-up never ends; a worker starved of CPU (a loaded machine,
        // this test run at a low priority) waits behind a lock holder that
        // runs slowly, and does go on. Before calling it a hang, give the
        // workers that have not moved 4 more periods: any progress among
        // them restarts the wait, none at all confirms the hang.
        $slow_since = hrtime(true);
        $moved = $need;
        $quiet_from = hrtime(true);
        while ($need && hrtime(true) - $quiet_from < 4 * $hang_after * 1e9) {
            service(0.05);
            foreach ($need as $pid => $ops) {
                if (!isset($workers[$pid]) || $workers[$pid]['ops'] > $ops + 32) unset($need[$pid]);
            }
            foreach ($moved as $pid => $ops) {
                if (isset($workers[$pid]) && $workers[$pid]['ops'] !== $ops) {
                    $moved[$pid] = $workers[$pid]['ops'];
                    $quiet_from = hrtime(true);
                }
            }
        }
        if ($need) {
            report_hangs(array_keys(array_filter($need, fn($ops, $pid) => isset($workers[$pid]), ARRAY_FILTER_USE_BOTH)),
                         'after the last kill');
        } else {
            $notes[] = sprintf('slow, not stuck: %d workers made no progress for %.1f s after the last kill, then did (%.1f s later)',
                               count($moved), $hang_after, (hrtime(true) - $slow_since) / 1e9);
        }
    }
}
$had_hang = $hangs > 0;
kill_all(!$had_hang);

// ---- final check in a fresh process (not after a hang: the cache is known to be stuck) ----
if (!$had_hang) {
    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid == 0) {
        fclose($pair[0]);
        // the cache's own account of the run first (before the check writes)
        $info = function_exists('shardcache_info') ? shardcache_info() : null;
        $figures = [];
        foreach (['repairs', 'resets', 'expunges', 'evicted', 'nomem', 'clears'] as $f) {
            if (is_array($info) && isset($info[$f])) $figures[$f] = $info[$f];
        }
        /* Zero-copy: every worker is gone, so no epoch may still be held
         * (a killed holder's is released through its liveness slot). */
        $zc = is_array($info) ? ($info['zero_copy'] ?? null) : null;
        if (is_array($zc) && $zc['enabled']) {
            foreach (['bytes', 'retired_bytes', 'reclaimed', 'leaked_bytes', 'readers'] as $f) {
                $figures["zero_copy_$f"] = $zc[$f];
            }
        }
        $problems = $GLOBALS['readers'] ? rk_final_check() : kt_final_check();
        if (is_array($zc) && $zc['enabled'] && $zc['readers'] !== 0) {
            $problems[] = "{$zc['readers']} epoch(s) still held after every worker ended";
        }
        /* Pages of shards repaired while readers were inside an epoch are
         * held for them only: with every worker gone they must be back in
         * the pool (the figures give back what nobody can hold) - once the
         * pool can take them: a worker killed inside the pool's lock as the
         * run ended leaves it waiting for its full reset, which the next
         * store makes (held pages can come back only then). */
        if (is_array($zc) && $zc['enabled']) {
            apcu_store('kill-final-check', 1);
            $leaked = shardcache_info()['zero_copy']['leaked_bytes'];
            if ($leaked !== 0) {
                $problems[] = "$leaked bytes of repaired shards still held back after every worker ended and a store";
            }
        }
        fwrite($pair[1], json_encode(['problems' => $problems, 'figures' => $figures]));
        fclose($pair[1]);
        exit(0);
    }
    fclose($pair[1]);
    stream_set_blocking($pair[0], false);
    $out = '';
    $deadline = hrtime(true) + (int) ($hang_after * 2e9);
    $done = false;
    while (hrtime(true) < $deadline) {
        $r = [$pair[0]];
        $wr = $ex = null;
        if (@stream_select($r, $wr, $ex, 0, 50000) > 0) {
            $d = fread($pair[0], 65536);
            if ($d === '' || $d === false) { $done = true; break; }
            $out .= $d;
        }
    }
    if (!$done) {
        $hangs++;
        $notes[] = sprintf('hang (final check): the checker (pid %d) did not finish in %.0f s; %s', $pid, $hang_after * 2,
                           proc_info($pid));
        posix_kill($pid, SIGKILL_NO);
    }
    pcntl_waitpid($pid, $status);
    fclose($pair[0]);
    if ($done) {
        $res = json_decode($out, true);
        $problems = is_array($res) ? ($res['problems'] ?? null) : null;
        if (is_array($res) && $res['figures']) {
            $parts = [];
            foreach ($res['figures'] as $f => $n) $parts[] = "$f $n";
            $notes[] = 'cache figures after the run: ' . implode(', ', $parts)
                     . ' (repairs/resets: kills that landed inside a write and were recovered;'
                     . ' evicted and nomem count since the last apcu_clear_cache)';
        }
        if (!is_array($problems)) {
            $crashes++;
            $notes[] = 'final check: the checker ' . describe_status($status) . ' without a report';
        } else {
            $wrong += count($problems);
            foreach (array_slice($problems, 0, 10) as $p) $wrong_lines[] = $p;
        }
    }
}

// ---- report ----
foreach ($notes as $n) say($n);
foreach (array_slice($wrong_lines, 0, 20) as $l) say("wrong value: $l");
sort($lifetimes);
sort($ops_at_kill);
$median = fn(array $a) => $a ? $a[intdiv(count($a), 2)] : 0;
say(sprintf('killing ran %.1f s; %d operations, %d values read and checked; killed workers lived a median %.1f ms and %d operations',
            $kill_phase, $total_ops, $total_checked, $median($lifetimes), $median($ops_at_kill)));
say("kills: $kills, hangs: $hangs, wrong values: $wrong");
say("crashes: $crashes");
$ok = $hangs == 0 && $wrong == 0 && $crashes == 0 && (!$target || $kills >= $target);
say($ok ? '1 passed, 0 failed' : '0 passed, 1 failed');
exit($ok ? 0 : 1);
