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

require_once __DIR__ . '/yac.inc';   // yac as a third cache (no effect unless yac is loaded)

const BLOCK = 1024;            // ops between two clock checks
const SEQ_MASK = 65535;        // size-1 of precomputed random sequences
const HOT_KEYS = 16;
const STR_KEYS = 4;
const STR_LEN = 1024;
const ARR_KEYS = 4;
const OWN_KEYS = 1024;         // keys per process in store_int_own
const MIXED_KEYS = 10000;
const MIXED_MASK = 16383;      // low bits of a mixed_90_10 value = key index
const OBJ_KEYS = 4;
const MISS_KEYS = 16;
const ZIPF_KEYS = 100000;
const ZIPF_S = 1.0;
const ZIPF_MASK = 131071;      // low bits of a mixed_zipf value = key index
const ENTRY_KEYS = 10000;
const CHURN_KEYS = 512;        // keys per process in store_delete
const CHURN_VAL_LEN = 200;     // bytes of the string store_delete stores
const INC_KEY = 'bench_inc_hot';
const ALARM_SLACK = 60;        // seconds on top of --seconds before SIGALRM

const WORKLOADS = [
    'baseline_local_array',
    'baseline_empty_call',
    'fetch_int_hot16',
    'fetch_str_1k',
    'fetch_arr_100',
    'fetch_obj_small',
    'fetch_obj_list100',
    'fetch_obj_bigarr',
    'fetch_obj_datetime',
    'fetch_miss',
    'store_int_own',
    'store_int_parent',
    'store_int_child',
    'store_arr_100',
    'store_obj_small',
    'store_obj_list100',
    'store_obj_bigarr',
    'store_obj_datetime',
    'store_delete',
    'mixed_90_10',
    'mixed_zipf',
    'inc_hot',
    'entry_10k',
];

/** The small object of fetch_obj_small: three typed properties. */
final class BenchObj
{
    public function __construct(
        public int $id,
        public string $name,
        public float $score,
    ) {
    }
}

require __DIR__ . '/objects.inc';

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

/**
 * Which cache answers the apcu_* functions: 'apcu', 'shardcache', 'none' (no
 * apcu_* functions) or 'unknown'. extension_loaded('apcu') cannot tell:
 * when the real APCu is not loaded, shardcache registers a module named
 * "apcu" itself. So when shardcache is loaded, a value stored with
 * shardcache_store() is looked up with apcu_fetch().
 */
function apcu_owner(): string
{
    if (yac_mode()) {
        return 'yac';
    }
    if (!function_exists('apcu_fetch')) {
        return 'none';
    }
    if (!extension_loaded('shardcache') || !function_exists('shardcache_store')) {
        return 'apcu';
    }
    $k = '__apcu_owner_probe_' . getmypid() . '_' . hrtime(true);
    $stored = @shardcache_store($k, 1);
    $seen = @apcu_fetch($k) === 1;
    @shardcache_delete($k);
    if (!$stored) {
        return 'unknown';            // shardcache is off: nothing to compare with
    }
    return $seen ? 'shardcache' : 'apcu';
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

function obj_keys(): array
{
    $k = [];
    for ($i = 0; $i < OBJ_KEYS; $i++) {
        $k[] = "bench_obj_$i";
    }
    return $k;
}

function obj_vals(): array
{
    $v = [];
    for ($i = 0; $i < OBJ_KEYS; $i++) {
        $v[] = new BenchObj(7000 + $i, "object number $i", $i + 0.25);
    }
    return $v;
}

function miss_keys(): array
{
    $k = [];
    for ($i = 0; $i < MISS_KEYS; $i++) {
        $k[] = "bench_miss_$i";   // never stored
    }
    return $k;
}

function zipf_keys(): array
{
    $k = [];
    for ($i = 0; $i < ZIPF_KEYS; $i++) {
        $k[] = "bench_zipf_$i";
    }
    return $k;
}

/**
 * $n draws of key ranks 0..ZIPF_KEYS-1 with P(rank r) proportional to
 * 1/(r+1)^ZIPF_S (rank 0 is the hottest key), by binary search over the
 * cumulative distribution. Uses mt_rand (seed it first).
 */
function zipf_draws(int $n): array
{
    $cdf = [];
    $sum = 0.0;
    for ($r = 0; $r < ZIPF_KEYS; $r++) {
        $sum += 1.0 / (($r + 1) ** ZIPF_S);
        $cdf[] = $sum;
    }
    $out = [];
    $max = mt_getrandmax() + 1.0;
    for ($j = 0; $j < $n; $j++) {
        $u = (mt_rand() + mt_rand() / $max) / $max * $sum;   // uniform in [0, sum)
        $lo = 0;
        $hi = ZIPF_KEYS - 1;
        while ($lo < $hi) {               // first r with cdf[r] > u
            $mid = ($lo + $hi) >> 1;
            if ($cdf[$mid] > $u) {
                $hi = $mid;
            } else {
                $lo = $mid + 1;
            }
        }
        $out[] = $lo;
    }
    return $out;
}

function entry_keys(): array
{
    $k = [];
    for ($i = 0; $i < ENTRY_KEYS; $i++) {
        $k[] = "bench_ent_$i";    // the callback parses $i back out of the key
    }
    return $k;
}

/** apcu_entry's callback: the value of key "bench_ent_$i" is $i. */
function entry_callback(): Closure
{
    return static function (string $key): int {
        return (int)substr($key, 10);
    };
}

function preload(string $workload, int $procs): void
{
    if ($workload === 'store_int_parent') {
        // child by child, as an application's first process would write them
        for ($n = 0; $n < $procs; $n++) {
            foreach (parent_own_keys($n) as $key) {
                if (!apcu_store($key, -1)) {
                    fail_env("preload: apcu_store($key) failed");
                }
            }
        }
        return;
    }
    if ($workload === 'entry_10k') {
        // warm-up through apcu_entry itself: every key is computed and
        // stored once, so the timed run is (almost) all hits
        $cb = entry_callback();
        foreach (entry_keys() as $i => $key) {
            if (apcu_entry($key, $cb) !== $i || apcu_fetch($key) !== $i) {
                fail_env("preload: apcu_entry($key) does not store/return $i");
            }
        }
        return;
    }
    if ($workload === 'fetch_miss') {
        foreach (miss_keys() as $key) {
            if (apcu_fetch($key) !== false) {
                fail_env("preload: $key exists after apcu_clear_cache()");
            }
        }
        return;
    }
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
        case 'fetch_obj_small':
            $k = obj_keys();
            $v = obj_vals();
            break;
        case 'fetch_obj_list100':
        case 'fetch_obj_bigarr':
        case 'fetch_obj_datetime':
            $kind = substr($workload, 10);
            $k = objw_keys($kind);
            $v = [];
            foreach ($k as $i => $_) {
                $v[] = objw_value($kind, $i);
            }
            foreach ($k as $i => $key) {
                if (!apcu_store($key, $v[$i]) || apcu_fetch($key) != $v[$i]) {
                    fail_env("preload: apcu_fetch($key) does not return the stored value");
                }
            }
            return;
        case 'mixed_90_10':
            $k = mixed_keys();
            $v = range(0, MIXED_KEYS - 1);   // value & MIXED_MASK == index
            break;
        case 'mixed_zipf':
            $k = zipf_keys();
            $v = range(0, ZIPF_KEYS - 1);    // value & ZIPF_MASK == index
            break;
        case 'inc_hot':
            $k = [INC_KEY];
            $v = [0];
            break;
        default:
            return;
    }
    foreach ($k as $i => $key) {
        if (!apcu_store($key, $v[$i])) {
            fail_env("preload: apcu_store($key) failed");
        }
        $got = apcu_fetch($key);
        if (is_object($v[$i]) ? $got != $v[$i] || !($got instanceof BenchObj) : $got !== $v[$i]) {
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

/**
 * The timed loop of the store_int_* workloads: stores ints over this
 * process's OWN_KEYS keys round robin, then checks that every key holds
 * the value of its last store. In yac mode the same loop, rewritten for
 * yac's methods (yac_loop).
 */
function store_int_loop(array $keys): Generator
{
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

/** store_int_loop, or its yac form. */
function store_int_run(array $keys): Generator
{
    $loop = yac_mode() ? yac_loop('store_int_loop') : 'store_int_loop';
    return yield from $loop($keys);
}

/** Child $idx's keys of store_int_parent (stored by the parent). */
function parent_own_keys(int $idx): array
{
    $keys = [];
    for ($i = 0; $i < OWN_KEYS; $i++) {
        $keys[] = "w{$idx}_$i";
    }
    return $keys;
}

/* Fresh keys: each process's keys are new when the timed loop starts; its
 * first block inserts them, the rest overwrite them. */
function run_store_int_own(): Generator
{
    $pid = getmypid();
    $keys = [];
    for ($i = 0; $i < OWN_KEYS; $i++) {
        $keys[] = "p{$pid}_$i";
    }
    return yield from store_int_run($keys);
}

/* Keys stored by the parent before the fork (one process writes a key
 * first, others update it later): child n overwrites child n's keys. */
function run_store_int_parent(): Generator
{
    return yield from store_int_run(parent_own_keys($GLOBALS['bench_child']));
}

/* Keys each child stores itself before the start (untimed). */
function run_store_int_child(): Generator
{
    $pid = getmypid();
    $keys = [];
    for ($i = 0; $i < OWN_KEYS; $i++) {
        $keys[] = "c{$pid}_$i";
        if (!apcu_store($keys[$i], -1)) {
            fail_env("setup: apcu_store({$keys[$i]}) failed");
        }
    }
    return yield from store_int_run($keys);
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

function run_baseline_empty_call(): Generator
{
    // Same loop shape as fetch_int_hot16 with a cache-free internal function
    // call in place of apcu_fetch: abs() of an int returns it unchanged.
    // (is_int(), strlen() and friends would not do: the compiler turns them
    // into opcodes, so no function call would be measured.)
    $vals = hot_vals();
    $deadline = yield;             // setup done; wait for the start
    $chk = 0;
    $ops = 0;
    $err = 0;
    $t0 = hrtime(true);
    do {
        for ($i = 0; $i < BLOCK; $i++) {
            $k = $i & 15;
            if (abs($vals[$k]) !== $vals[$k]) {
                $err++;
            }
        }
        $ops += BLOCK;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    return [$ops, $err, $now - $t0];
}

function run_fetch_obj_small(): Generator
{
    // Per op: the object's $id (distinct per key; false or a wrong key fails
    // it). Per block: one extra fetch with every property compared. After
    // the deadline (untimed): every key in full.
    $keys = obj_keys();
    $vals = obj_vals();
    $ids = [];
    foreach ($vals as $v) {
        $ids[] = $v->id;
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
            if (($v->id ?? null) !== $ids[$k]) {
                $err++;
            }
        }
        $k = $blk++ & 3;
        $v = apcu_fetch($keys[$k]);
        if (!($v instanceof BenchObj) || $v->id !== $vals[$k]->id || $v->name !== $vals[$k]->name
            || $v->score !== $vals[$k]->score) {
            $err++;
        }
        $ops += BLOCK + 1;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    $elapsed = $now - $t0;
    foreach ($keys as $k => $key) {
        $v = apcu_fetch($key);
        if (!($v instanceof BenchObj) || $v != $vals[$k]) {
            $err++;
        }
    }
    return [$ops, $err, $elapsed];
}

/**
 * fetch_obj_list100, fetch_obj_bigarr, fetch_obj_datetime: apcu_fetch of
 * one of 4 keys holding objw_value(). Per op: objw_probe() (distinct per
 * key). Per block: one extra fetch compared in full (==). After the
 * deadline (untimed): every key in full.
 */
function run_fetch_objw(string $kind): Generator
{
    $keys = objw_keys($kind);
    $vals = [];
    $probes = [];
    foreach ($keys as $i => $_) {
        $vals[] = objw_value($kind, $i);
        $probes[] = objw_probe($kind, $vals[$i]);
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
            if (objw_probe($kind, apcu_fetch($keys[$k])) !== $probes[$k]) {
                $err++;
            }
        }
        $k = $blk++ & 3;
        if (apcu_fetch($keys[$k]) != $vals[$k]) {
            $err++;
        }
        $ops += BLOCK + 1;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    $elapsed = $now - $t0;
    foreach ($keys as $k => $key) {
        if (apcu_fetch($key) != $vals[$k]) {
            $err++;
        }
    }
    return [$ops, $err, $elapsed];
}

function run_fetch_obj_list100(): Generator
{
    return yield from run_fetch_objw('list100');
}

function run_fetch_obj_bigarr(): Generator
{
    return yield from run_fetch_objw('bigarr');
}

function run_fetch_obj_datetime(): Generator
{
    return yield from run_fetch_objw('datetime');
}

/**
 * store_obj_small, store_obj_list100, store_obj_bigarr,
 * store_obj_datetime: apcu_store of objw_value() under the process's own
 * 64 keys in turn (the same 4 values). Every store must return true;
 * after the deadline (untimed) every key holds its value (==).
 */
function run_store_objw(string $kind): Generator
{
    $pid = getmypid();
    $keys = [];
    for ($i = 0; $i < 64; $i++) {
        $keys[] = "ow{$pid}_$i";
    }
    $vals = [];
    for ($i = 0; $i < 4; $i++) {
        $vals[] = objw_value($kind, $i);
    }
    $deadline = yield;             // setup done; wait for the start
    $chk = 0;
    $ops = 0;
    $err = 0;
    $t0 = hrtime(true);
    do {
        for ($i = 0; $i < BLOCK; $i++) {
            if (!apcu_store($keys[$i & 63], $vals[$i & 3])) {
                $err++;
            }
        }
        $ops += BLOCK;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    $elapsed = $now - $t0;
    foreach ($keys as $j => $key) {
        if (apcu_fetch($key) != $vals[$j & 3]) {
            $err++;
        }
    }
    return [$ops, $err, $elapsed];
}

function run_store_obj_small(): Generator
{
    return yield from run_store_objw('small');
}

function run_store_obj_list100(): Generator
{
    return yield from run_store_objw('list100');
}

function run_store_obj_bigarr(): Generator
{
    return yield from run_store_objw('bigarr');
}

function run_store_obj_datetime(): Generator
{
    return yield from run_store_objw('datetime');
}

function run_fetch_miss(): Generator
{
    // 16 keys that are never stored; every fetch must return false.
    $keys = miss_keys();
    $deadline = yield;             // setup done; wait for the start
    $chk = 0;
    $ops = 0;
    $err = 0;
    $t0 = hrtime(true);
    do {
        for ($i = 0; $i < BLOCK; $i++) {
            if (apcu_fetch($keys[$i & 15]) !== false) {
                $err++;
            }
        }
        $ops += BLOCK;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    return [$ops, $err, $now - $t0];
}

function run_store_arr_100(): Generator
{
    // Like store_int_own, with a 100-element array (80 ints, 20 short
    // strings) whose element 0 is the running op number. The template is
    // changed in place (refcount 1, no copy) before each store.
    $pid = getmypid();
    $keys = [];
    for ($i = 0; $i < OWN_KEYS; $i++) {
        $keys[] = "a{$pid}_$i";
    }
    $tpl = arr_vals()[0];
    $deadline = yield;             // setup done; wait for the start
    $chk = 0;
    $ops = 0;
    $err = 0;
    $t0 = hrtime(true);
    do {
        for ($i = 0; $i < BLOCK; $i++) {
            $tpl[0] = $ops + $i;
            if (!apcu_store($keys[$i], $tpl)) {
                $err++;
            }
        }
        $ops += BLOCK;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    $elapsed = $now - $t0;

    // Untimed: key j holds the template with element 0 = its last op number.
    for ($j = 0; $j < OWN_KEYS; $j++) {
        $tpl[0] = $ops - BLOCK + $j;
        if (apcu_fetch($keys[$j]) !== $tpl) {
            $err++;
        }
    }
    return [$ops, $err, $elapsed];
}

function run_store_delete(): Generator
{
    // Allocation churn: each block stores a 200-byte string under each of
    // the process's own 512 keys and deletes it right after (one op per
    // call). Every store and every delete must return true (no other process
    // touches these keys); afterwards none of the keys may exist.
    $pid = getmypid();
    $keys = [];
    for ($i = 0; $i < CHURN_KEYS; $i++) {
        $keys[] = "d{$pid}_$i";
    }
    $val = str_repeat("churn $pid ", 40);
    $val = substr($val, 0, CHURN_VAL_LEN);
    $deadline = yield;             // setup done; wait for the start
    $chk = 0;
    $ops = 0;
    $err = 0;
    $t0 = hrtime(true);
    do {
        for ($i = 0; $i < BLOCK; $i += 2) {
            $key = $keys[$i >> 1];
            if (!apcu_store($key, $val)) {
                $err++;
            }
            if (!apcu_delete($key)) {
                $err++;
            }
        }
        $ops += BLOCK;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    $elapsed = $now - $t0;
    $left = apcu_exists($keys);
    if (!is_array($left)) {
        $err++;
    } else {
        $err += count($left);
    }
    return [$ops, $err, $elapsed];
}

function run_mixed_zipf(): Generator
{
    // As mixed_90_10 over 100,000 preloaded keys, with key ranks drawn from
    // a Zipf distribution (s = ZIPF_S): a few keys get most of the traffic,
    // so fetches and stores meet on the same hot keys and shards.
    $keys = zipf_keys();
    mt_srand(getmypid() * 7919 + 29);
    $draws = zipf_draws(SEQ_MASK + 1);
    $seq = [];
    foreach ($draws as $idx) {
        $seq[] = mt_rand(0, 9) === 0 ? ~$idx : $idx;
    }
    unset($draws);
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
                $v = apcu_fetch($keys[$r]);
                if (!is_int($v) || ($v & ZIPF_MASK) !== $r) {
                    $err++;
                }
            } else {
                $r = ~$r;
                if (!apcu_store($keys[$r], ($p << 17) | $r)) {
                    $err++;
                }
            }
        }
        $ops += BLOCK;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    return [$ops, $err, $now - $t0];
}

function run_inc_hot(): Generator
{
    // Every process increments the same key by 1. Each result must be an
    // int greater than the previous result this process saw (the others
    // only add to it); the parent checks afterwards that the key holds
    // exactly the total number of increments of all processes.
    $deadline = yield;             // setup done; wait for the start
    $chk = 0;
    $ops = 0;
    $err = 0;
    $last = -1;
    $t0 = hrtime(true);
    do {
        for ($i = 0; $i < BLOCK; $i++) {
            $v = apcu_inc(INC_KEY);
            if (!is_int($v) || $v <= $last) {
                $err++;
            } else {
                $last = $v;
            }
        }
        $ops += BLOCK;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    return [$ops, $err, $now - $t0];
}

function run_entry_10k(): Generator
{
    // apcu_entry over 10,000 keys, uniformly drawn, after the parent's
    // warm-up stored them all: (almost) every call is a hit. The callback
    // derives the value from the key, so a miss still returns the right
    // value; every result must be the key's index.
    $keys = entry_keys();
    $cb = entry_callback();
    mt_srand(getmypid() * 7919 + 41);
    $seq = [];
    for ($j = 0; $j <= SEQ_MASK; $j++) {
        $seq[] = mt_rand(0, ENTRY_KEYS - 1);
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
            if (apcu_entry($keys[$r], $cb) !== $r) {
                $err++;
            }
        }
        $ops += BLOCK;
    } while (($now = hrtime(true)) < $deadline && (++$chk & 63 || parent_alive()));
    return [$ops, $err, $now - $t0];
}

/**
 * Parent, after every child finished: checks of the final shared state that
 * need the total over all processes. Returns the number of errors.
 */
function final_check(string $workload, int $totalOps): int
{
    if ($workload === 'inc_hot') {
        // preloaded with 0, then every op added exactly 1
        return apcu_fetch(INC_KEY) === $totalOps ? 0 : 1;
    }
    return 0;
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
    if (!str_starts_with($workload, 'baseline_')) {
        apcu_fetch('bench_warmup_nonexistent');
    }
    // The run_* generators do their setup (key arrays, random sequences) up
    // to their first `yield`, before the barrier; send() starts the timed part.
    $fn = 'run_' . $workload;
    if (yac_mode()) {
        $fn = yac_loop($fn);             // same loop, yac's methods (yac.inc)
    }
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
    // register the apcu_* names), else shardcache (see apcu_owner()).
    $cache = apcu_owner();
    if ($cache === 'yac' && !in_array($workload, YAC_WORKLOADS, true)) {
        fail_env("yac has no API for $workload (no inc/entry/cas)");
    }
    if ($cache === 'apcu' && extension_loaded('shardcache')) {
        fwrite(STDERR, "bench.php: warning: both apcu and shardcache loaded; apcu_* is APCu's\n");
    }
    if (!str_starts_with($workload, 'baseline_')) {
        if (!function_exists('apcu_fetch')) {
            fail_env('no apcu_* functions: load apcu.so or shardcache.so (php -n -d extension=...)');
        }
        if (!apcu_enabled()) {
            fail_env('cache not enabled: pass -d apc.enable_cli=1');
        }
        apcu_clear_cache();
        preload($workload, $procs);
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
            $GLOBALS['bench_child'] = $n;     // this child's index, 0..procs-1
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
    if ($failed === 0 && !str_starts_with($workload, 'baseline_')) {
        $errors += final_check($workload, $ops);
    }

    $ok = count($perProc);
    echo json_encode([
        'cache' => $cache,
        'cache_version' => in_array($cache, ['apcu', 'shardcache', 'yac'], true) ? phpversion($cache) : null,
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
