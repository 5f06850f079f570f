<?php
/*
 * shardcache / APCu benchmark: one run of one workload with N forked processes.
 *
 * The same script serves both caches, because both register the apcu_*
 * functions; which cache is measured depends on how PHP is started:
 *
 *   APCu:       php -n -d extension=apcu.so -d apc.enable_cli=1 -d apc.shm_size=128M \
 *                   benchmarks/bench.php --workload=fetch_int_hot16 --procs=2 --seconds=2
 *   shardcache: php -n -d extension=/work/main/modules/shardcache.so -d apc.enable_cli=1 \
 *                   -d apc.shm_size=128M benchmarks/bench.php ...
 *
 * Protocol (parent <-> each child, one unix socketpair per child):
 *   1. parent clears the cache and stores the workload's data, then forks;
 *   2. each child builds its key/sequence arrays, writes "R\n" and blocks
 *      reading its socket (start barrier);
 *   3. once every child is ready the parent writes "G <deadline_ns>\n" to each;
 *      the deadline is an absolute hrtime(true) value shared by all children
 *      (CLOCK_MONOTONIC is system-wide);
 *   4. children run the workload in blocks of BLOCK ops, checking hrtime after
 *      each block, then verify the final state where that applies, and write
 *      one JSON line {ops, errors, elapsed_ns, ...} before exiting;
 *   5. the parent sums the results and prints ONE JSON line on stdout.
 *
 * Children never outlive a bounded time: if the parent dies before the start
 * signal the children read EOF and exit at once; after the start they notice
 * a dead parent within 64 blocks (parent_alive()) and stop at the deadline
 * anyway; every child arms pcntl_alarm() (default SIGALRM action: terminate)
 * as a backstop against a hung cache call; SIGINT/SIGTERM/SIGHUP to the
 * parent kill the children.
 *
 * Exit status: 0 = ok, 1 = errors seen (value mismatches or failed children),
 * 2 = usage / environment problem.
 */

declare(strict_types=1);

const BLOCK = 1024;            // ops between two clock checks
const SEQ_MASK = 65535;        // size-1 of precomputed random sequences
const HOT_KEYS = 16;
const STR_KEYS = 4;
const STR_LEN = 1024;
const ARR_KEYS = 4;
const OWN_KEYS = 1024;         // keys per process in store_int_own
const MIXED_KEYS = 10000;
const MIXED_MASK = 16383;      // low bits of a mixed_90_10 value = key index
const ALARM_SLACK = 60;        // seconds on top of --seconds before SIGALRM

const WORKLOADS = [
    'baseline_local_array',
    'fetch_int_hot16',
    'fetch_str_1k',
    'fetch_arr_100',
    'store_int_own',
    'mixed_90_10',
];

// store_int_own's final-state check relies on one block covering every key once
if (BLOCK !== OWN_KEYS) {
    throw new LogicException('BLOCK must equal OWN_KEYS');
}

function usage(string $msg = ''): never
{
    if ($msg !== '') {
        fwrite(STDERR, "bench.php: $msg\n");
    }
    fwrite(STDERR, "usage: php [-n -d extension=...] bench.php --workload=W --procs=N --seconds=S\n"
        . "workloads: " . implode(', ', WORKLOADS) . "\n");
    exit(2);
}

function fail_env(string $msg): never
{
    fwrite(STDERR, "bench.php: $msg\n");
    exit(2);
}

/* ------------------------------------------------------------------ */
/* data shared by parent (preload) and children (expected values)      */

function hot_keys(): array
{
    $k = [];
    for ($i = 0; $i < HOT_KEYS; $i++) {
        $k[] = "bench_hot_$i";
    }
    return $k;
}

function hot_vals(): array
{
    $v = [];
    for ($i = 0; $i < HOT_KEYS; $i++) {
        $v[] = 1000003 * ($i + 1);
    }
    return $v;
}

function str_keys(): array
{
    $k = [];
    for ($i = 0; $i < STR_KEYS; $i++) {
        $k[] = "bench_str_$i";
    }
    return $k;
}

function str_vals(): array
{
    $v = [];
    for ($i = 0; $i < STR_KEYS; $i++) {
        // distinct, deterministic 1 KiB strings; the last byte differs per key
        $s = '';
        $seed = "s$i:";
        while (strlen($s) < STR_LEN) {
            $seed = md5($seed);
            $s .= $seed;
        }
        $v[] = substr($s, 0, STR_LEN - 1) . chr(ord('A') + $i);
    }
    return $v;
}

function arr_keys(): array
{
    $k = [];
    for ($i = 0; $i < ARR_KEYS; $i++) {
        $k[] = "bench_arr_$i";
    }
    return $k;
}

function arr_vals(): array
{
    $v = [];
    for ($i = 0; $i < ARR_KEYS; $i++) {
        // 100 elements: 80 ints, 20 short strings, packed keys 0..99
        $a = range($i * 100, $i * 100 + 79);
        for ($j = 0; $j < 20; $j++) {
            $a[] = "v{$i}_{$j}";
        }
        $v[] = $a;
    }
    return $v;
}

function mixed_keys(): array
{
    $k = [];
    for ($i = 0; $i < MIXED_KEYS; $i++) {
        $k[] = "bench_mix_$i";
    }
    return $k;
}

function preload(string $workload): void
{
    switch ($workload) {
        case 'fetch_int_hot16':
            $k = hot_keys();
            $v = hot_vals();
            break;
        case 'fetch_str_1k':
            $k = str_keys();
            $v = str_vals();
            break;
        case 'fetch_arr_100':
            $k = arr_keys();
            $v = arr_vals();
            break;
        case 'mixed_90_10':
            $k = mixed_keys();
            $v = range(0, MIXED_KEYS - 1);   // value & MIXED_MASK == index
            break;
        default:
            return;
    }
    foreach ($k as $i => $key) {
        if (!apcu_store($key, $v[$i])) {
            fail_env("preload: apcu_store($key) failed");
        }
        if (apcu_fetch($key) !== $v[$i]) {
            fail_env("preload: apcu_fetch($key) does not return the stored value");
        }
    }
}

/* ------------------------------------------------------------------ */
/* child's end of its socket to the parent, for parent_alive()          */
$parentSock = null;

/**
 * Called by the run loops every 64 blocks (a few ms): the parent writes
 * nothing after the start signal, so a readable socket means EOF, i.e. the
 * parent is gone; then the child stops early instead of running until the
 * deadline.
 */
function parent_alive(): bool
{
    global $parentSock;
    $r = [$parentSock];
    $w = $e = null;
    return @stream_select($r, $w, $e, 0) === 0;
}

/* ------------------------------------------------------------------ */
/* workloads: generators that set up, yield, receive the deadline via */
/* send(), run, and return [ops, errors, elapsed_ns]                   */
/* The hot loops are written out per workload (no closures, no helper  */
/* calls) so that the only function call per op is the cache call.     */

function run_baseline_local_array(): Generator
{
    // Same loop shape as fetch_int_hot16, reading a local array instead of
    // the cache: shows the interpreter's loop + check overhead.
    $keys = hot_keys();
    $vals = hot_vals();
    $local = array_combine($keys, $vals);
    $deadline = yield;             // setup done; wait for the start
    $chk = 0;
    $ops = 0;
    $err = 0;
    $t0 = hrtime(true);
    do {
        for ($i = 0; $i < BLOCK; $i++) {
            $k = $i & 15;
            if ($local[$keys[$k]] !== $vals[$k]) {
                $err++;
            }
        }
        $ops += BLOCK;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    return [$ops, $err, $now - $t0];
}

function run_fetch_int_hot16(): Generator
{
    $keys = hot_keys();
    $vals = hot_vals();
    $deadline = yield;             // setup done; wait for the start
    $chk = 0;
    $ops = 0;
    $err = 0;
    $t0 = hrtime(true);
    do {
        for ($i = 0; $i < BLOCK; $i++) {
            $k = $i & 15;
            if (apcu_fetch($keys[$k]) !== $vals[$k]) {
                $err++;
            }
        }
        $ops += BLOCK;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    return [$ops, $err, $now - $t0];
}

function run_fetch_str_1k(): Generator
{
    // Per op: a spot check of the last byte (distinct per key; a missing key
    // or a short string fails it). Per block: one more fetch, of a key
    // rotating over the 4, gets a full 1 KiB comparison. After the deadline
    // (untimed): every key is fully compared. A full compare on every op
    // would cost ~40% of the op and hide differences between the caches.
    $keys = str_keys();
    $vals = str_vals();
    $tail = [];
    foreach ($vals as $v) {
        $tail[] = $v[STR_LEN - 1];
    }
    $deadline = yield;             // setup done; wait for the start
    $chk = 0;
    $ops = 0;
    $err = 0;
    $blk = 0;
    $t0 = hrtime(true);
    do {
        for ($i = 0; $i < BLOCK; $i++) {
            $k = $i & 3;
            $v = apcu_fetch($keys[$k]);
            if (($v[1023] ?? null) !== $tail[$k]) {
                $err++;
            }
        }
        // one extra, fully compared fetch per block, rotating over the keys
        $k = $blk++ & 3;
        if (apcu_fetch($keys[$k]) !== $vals[$k]) {
            $err++;
        }
        $ops += BLOCK + 1;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    $elapsed = $now - $t0;
    foreach ($keys as $k => $key) {
        if (apcu_fetch($key) !== $vals[$k]) {
            $err++;
        }
    }
    return [$ops, $err, $elapsed];
}

function run_fetch_arr_100(): Generator
{
    // Same checking scheme as fetch_str_1k: spot check of the last element
    // per op, one extra fully compared fetch per block (rotating key), and a
    // full comparison of every key after the deadline.
    $keys = arr_keys();
    $vals = arr_vals();
    $tail = [];
    foreach ($vals as $v) {
        $tail[] = $v[99];
    }
    $deadline = yield;             // setup done; wait for the start
    $chk = 0;
    $ops = 0;
    $err = 0;
    $blk = 0;
    $t0 = hrtime(true);
    do {
        for ($i = 0; $i < BLOCK; $i++) {
            $k = $i & 3;
            $v = apcu_fetch($keys[$k]);
            if (($v[99] ?? null) !== $tail[$k]) {
                $err++;
            }
        }
        // one extra, fully compared fetch per block, rotating over the keys
        $k = $blk++ & 3;
        if (apcu_fetch($keys[$k]) !== $vals[$k]) {
            $err++;
        }
        $ops += BLOCK + 1;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    $elapsed = $now - $t0;
    foreach ($keys as $k => $key) {
        if (apcu_fetch($key) !== $vals[$k]) {
            $err++;
        }
    }
    return [$ops, $err, $elapsed];
}

function run_store_int_own(): Generator
{
    $pid = getmypid();
    $keys = [];
    for ($i = 0; $i < OWN_KEYS; $i++) {
        $keys[] = "p{$pid}_$i";
    }
    $deadline = yield;             // setup done; wait for the start
    $chk = 0;
    $ops = 0;
    $err = 0;
    $t0 = hrtime(true);
    do {
        // value = running op number, so the final state is checkable
        for ($i = 0; $i < BLOCK; $i++) {
            if (!apcu_store($keys[$i & 1023], $ops + $i)) {
                $err++;
            }
        }
        $ops += BLOCK;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    $elapsed = $now - $t0;

    // Untimed: every key must now hold the value of its last store.
    // BLOCK == OWN_KEYS, so key j was last written in the last block with
    // value ($ops - BLOCK + j).
    for ($j = 0; $j < OWN_KEYS; $j++) {
        if (apcu_fetch($keys[$j]) !== $ops - BLOCK + $j) {
            $err++;
        }
    }
    return [$ops, $err, $elapsed];
}

function run_mixed_90_10(): Generator
{
    $keys = mixed_keys();
    // Precomputed per-process random op sequence: r >= 0 is a fetch of key r,
    // r < 0 is a store to key ~r. mt_rand is seeded per process.
    mt_srand(getmypid() * 7919 + 17);
    $seq = [];
    for ($j = 0; $j <= SEQ_MASK; $j++) {
        $idx = mt_rand(0, MIXED_KEYS - 1);
        $seq[] = mt_rand(0, 9) === 0 ? ~$idx : $idx;
    }
    $p = 0;
    $deadline = yield;             // setup done; wait for the start
    $chk = 0;
    $ops = 0;
    $err = 0;
    $t0 = hrtime(true);
    do {
        for ($i = 0; $i < BLOCK; $i++) {
            $r = $seq[$p++ & SEQ_MASK];
            if ($r >= 0) {
                // any process may have overwritten it, but the low bits
                // of every value ever stored under key r are r
                $v = apcu_fetch($keys[$r]);
                if (!is_int($v) || ($v & MIXED_MASK) !== $r) {
                    $err++;
                }
            } else {
                $r = ~$r;
                if (!apcu_store($keys[$r], ($p << 14) | $r)) {
                    $err++;
                }
            }
        }
        $ops += BLOCK;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    return [$ops, $err, $now - $t0];
}

/* ------------------------------------------------------------------ */
/* child side                                                          */

function child_main($sock, string $workload, int $seconds): never
{
    global $parentSock;
    $parentSock = $sock;
    pcntl_alarm($seconds + ALARM_SLACK);   // backstop: SIGALRM terminates

    // Warm up per-process state (e.g. the cache's per-process attach) before
    // reporting ready; untimed.
    if ($workload !== 'baseline_local_array') {
        apcu_fetch('bench_warmup_nonexistent');
    }
    // The run_* generators do their setup (key arrays, random sequences) up
    // to their first `yield`, before the barrier; send() starts the timed part.
    $fn = 'run_' . $workload;
    $run = $fn();
    $run->current();

    if (@fwrite($sock, "R\n") !== 2) {   // parent already gone
        exit(3);
    }
    wait_readable($sock);                  // start barrier (or EOF)
    $line = fgets($sock);
    if ($line === false || !preg_match('/^G (\d+)$/', rtrim($line), $m)) {
        exit(0);                           // parent gone / aborted: do nothing
    }
    $deadline = (int)$m[1];

    $run->send($deadline);                 // runs to the end of the generator
    [$ops, $err, $elapsed] = $run->getReturn();

    @fwrite($sock, json_encode([     // fails (EPIPE) only if the parent died
        'pid' => getmypid(),
        'ops' => $ops,
        'errors' => $err,
        'elapsed_ns' => $elapsed,
    ]) . "\n");
    fclose($sock);
    exit(0);
}

/* ------------------------------------------------------------------ */
/* parent side                                                         */

function kill_children(array $pids): void
{
    foreach ($pids as $pid) {
        if (function_exists('posix_kill')) {
            posix_kill($pid, SIGKILL);
        } else {
            @exec('kill -9 ' . (int)$pid . ' 2>/dev/null');
        }
    }
}

/**
 * Block until $s is readable (data or EOF), in 200 ms slices. A blocking
 * fgets() would not do: PHP restarts the poll on EINTR, so the SIGINT/SIGTERM
 * handler would not run until a child writes, and the socket timeout
 * (default_socket_timeout) would cut long runs short. Children cannot keep
 * us here forever: they stop at the deadline or die of SIGALRM.
 */
function wait_readable($s): void
{
    do {
        $r = [$s];
        $w = $e = null;
        $n = @stream_select($r, $w, $e, 0, 200000);
    } while ($n !== 1);
}

function main(array $argv): int
{
    $opt = getopt('', ['workload:', 'procs:', 'seconds:', 'help']);
    if (isset($opt['help'])) {
        usage();
    }
    $workload = $opt['workload'] ?? usage('--workload is required');
    if (!is_string($workload) || !in_array($workload, WORKLOADS, true)) {
        usage('unknown workload');
    }
    $procs = filter_var($opt['procs'] ?? '1', FILTER_VALIDATE_INT, ['options' => ['min_range' => 1, 'max_range' => 256]]);
    $seconds = filter_var($opt['seconds'] ?? '2', FILTER_VALIDATE_INT, ['options' => ['min_range' => 1, 'max_range' => 600]]);
    if ($procs === false || $seconds === false) {
        usage('--procs must be 1..256 and --seconds 1..600 (integers)');
    }

    if (!function_exists('pcntl_fork')) {
        fail_env('pcntl is required');
    }
    // Which cache answers apcu_*: APCu if loaded (shardcache then does not
    // register the apcu_* names), else shardcache.
    if (extension_loaded('apcu')) {
        $cache = 'apcu';
    } elseif (extension_loaded('shardcache')) {
        $cache = 'shardcache';
    } else {
        $cache = 'none';
    }
    if (extension_loaded('apcu') && extension_loaded('shardcache')) {
        fwrite(STDERR, "bench.php: warning: both apcu and shardcache loaded; apcu_* is APCu's\n");
    }
    if ($workload !== 'baseline_local_array') {
        if (!function_exists('apcu_fetch')) {
            fail_env('no apcu_* functions: load apcu.so or shardcache.so (php -n -d extension=...)');
        }
        if (!apcu_enabled()) {
            fail_env('cache not enabled: pass -d apc.enable_cli=1');
        }
        apcu_clear_cache();
        preload($workload);
    }

    $children = [];   // pid => socket (parent end)
    for ($n = 0; $n < $procs; $n++) {
        $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        if ($pair === false) {
            kill_children(array_keys($children));
            fail_env('stream_socket_pair failed');
        }
        $pid = pcntl_fork();
        if ($pid < 0) {
            kill_children(array_keys($children));
            fail_env('fork failed');
        }
        if ($pid === 0) {
            fclose($pair[0]);
            foreach ($children as $s) {     // earlier children's parent ends
                fclose($s);
            }
            child_main($pair[1], $workload, $seconds);
        }
        fclose($pair[1]);
        $children[$pid] = $pair[0];
    }

    // If the parent is told to stop, take the children down with it.
    pcntl_async_signals(true);
    $onSignal = function (int $sig) use (&$children): void {
        kill_children(array_keys($children));
        fwrite(STDERR, "bench.php: interrupted (signal $sig), children killed\n");
        exit(128 + $sig);
    };
    pcntl_signal(SIGINT, $onSignal);
    pcntl_signal(SIGTERM, $onSignal);
    pcntl_signal(SIGHUP, $onSignal);

    // Wait until every child is ready.
    foreach ($children as $pid => $s) {
        wait_readable($s);
        $line = fgets($s);
        if ($line !== "R\n") {
            kill_children(array_keys($children));
            fail_env("child $pid failed before start");
        }
    }

    // Release all children with one shared absolute deadline.
    $start = hrtime(true);
    $deadline = $start + $seconds * 1000000000;
    foreach ($children as $s) {
        @fwrite($s, "G $deadline\n");   // a dead child shows up below
    }

    // Collect results.
    $ops = 0;
    $errors = 0;
    $rate = 0.0;
    $elapsedSum = 0;
    $perProc = [];
    $bad = [];        // pid => true for children without a valid result
    foreach ($children as $pid => $s) {
        wait_readable($s);
        $line = fgets($s);              // one line, or false on EOF
        fclose($s);
        $r = is_string($line) ? json_decode(trim($line), true) : null;
        if (!is_array($r) || !isset($r['ops'], $r['errors'], $r['elapsed_ns']) || $r['elapsed_ns'] <= 0) {
            $bad[$pid] = true;
            continue;
        }
        $ops += $r['ops'];
        $errors += $r['errors'];
        $elapsedSum += $r['elapsed_ns'];
        $rate += $r['ops'] / ($r['elapsed_ns'] / 1e9);
        $perProc[] = $r['ops'];
    }
    foreach (array_keys($children) as $pid) {
        pcntl_waitpid($pid, $status);
        if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0) {
            $bad[$pid] = true;
            fwrite(STDERR, "bench.php: child $pid " . (pcntl_wifsignaled($status)
                ? 'killed by signal ' . pcntl_wtermsig($status)
                : 'exited with status ' . pcntl_wexitstatus($status)) . "\n");
        }
    }
    $children = [];
    $failed = count($bad);

    $ok = count($perProc);
    echo json_encode([
        'cache' => $cache,
        'cache_version' => $cache === 'none' ? null : phpversion($cache),
        'workload' => $workload,
        'procs' => $procs,
        'seconds' => $seconds,
        'elapsed' => $ok ? round($elapsedSum / $ok / 1e9, 4) : 0,
        'ops' => $ops,
        // sum of per-process rates (ops / own measured run time)
        'ops_per_sec' => (int)round($rate),
        'errors' => $errors,
        'failed_children' => $failed,
        'per_proc_ops' => $perProc,
    ]) . "\n";

    return ($errors > 0 || $failed > 0) ? 1 : 0;
}

exit(main($argv));
