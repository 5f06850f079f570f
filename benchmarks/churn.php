<?php
/*
 * Memory churn benchmark: shardcache vs APCu under a segment kept close to
 * full, plus shared-memory bytes per small entry.
 *
 * Driver (no cache needed in the PHP that runs it; runs every cell in fresh
 * `php -n -d extension=...` processes, alternating which cache goes first):
 *
 *   php -n benchmarks/churn.php [--targets=0.5,0.7,0.8,0.85,0.9] [--procs=1,4]
 *       [--ops=1000000] [--shm-size=64M] [--entries=100000] [--seed=1]
 *       [--shardcache=PATH.so] [--apcu=apcu.so] [--php=BINARY] [--ini=k=v,k=v]
 *       [--out=file.md] [--raw=file.jsonl] [--timeout=600] [--quick] [--max-size=1M]
 *
 * Worker (the cache to measure is loaded; prints ONE JSON line):
 *
 *   php -n -d extension=... -d apc.enable_cli=1 -d apc.shm_size=64M \
 *       benchmarks/churn.php --worker --target=0.85 --procs=4 --ops=1000000
 *   php -n -d extension=... ... benchmarks/churn.php --worker --mode=entries --entries=100000
 *
 * Churn (--mode=churn, the default): N forked processes share --ops cache
 * operations (stores and deletes; verification reads are not counted).
 * Process i owns the keys "c{i}_{n}" and tracks its own live set (key ->
 * size, version) and live bytes, holding them at or below target/N of
 * apc.shm_size: before a store of s bytes it deletes random live keys of its
 * own until live + s fits. Each step is, by mt_rand (seeded per process, the
 * same sequence for both caches): 50% a store of a new key, 30% an overwrite
 * of a random live key, 20% a delete of a random live key. Value sizes are
 * log-uniform from 16 B to 1 MiB (--max-size lowers the top; half the values are under 4 KiB, but most
 * bytes are in values over 64 KiB). A value starts with a 12-byte header
 * (key id, version, size) followed by bytes of a random blob at an offset
 * that depends on the id and version.
 *
 * What is counted (per process, summed):
 *   - failed stores: apcu_store() returned false. Fill levels are live bytes
 *     of a process / (apc.shm_size / procs), i.e. the fraction of the
 *     segment holding live data if every process is at the same level; the
 *     level before the first failed store is reported (lowest over procs).
 *     After a failed overwrite the key is fetched: it must hold the old
 *     version (kept) or be gone (dropped from the live set, counted lost).
 *   - lost: keys of the live set found gone although this process never
 *     deleted them (evicted or wiped): a delete that returns false, a
 *     sampled fetch that misses, or an audit. Every 50 ops 4 random live
 *     keys are fetched and checked (length and header; every 16th in full);
 *     every 1000 ops, and at once after any sign of loss, an audit calls
 *     apcu_exists() on the whole live set and drops what is gone.
 *   - wipes: the cache's own expunge counter (APCu: apcu_cache_info(true)
 *     ['expunges']; shardcache: shardcache_info()['expunges']) read by the
 *     parent before and after; and, independently, "audit wipes": audits
 *     in which >= 90% of >= 10 live keys were gone at once (max over procs).
 *   - pool-lock acquisitions per 1000 ops (shardcache_info()
 *     ['pool_lock_acquisitions'] delta; n/a when the cache does not report it).
 *   - errors: a fetched value with the wrong length/header/bytes, or a
 *     failed overwrite that left neither the old value nor nothing.
 *
 * Entries (--mode=entries): stores --entries keys "k%06d" with 8-byte string
 * values into an empty cache and reports (used after - used before)/entries,
 * where used = segment - available memory (apcu_sma_info(true)['avail_mem'];
 * for shardcache its sma/info figures, whichever exists; see mem_source).
 *
 * Exit status: 0 = ok, 1 = errors or a failed run, 2 = usage / environment.
 */

declare(strict_types=1);

require_once __DIR__ . '/lib.inc';
require_once __DIR__ . '/driver.inc';

const MIN_SIZE = 16;
const MAX_SIZE = 1048576;

/* Largest value size of the churn (--max-size, default MAX_SIZE). */
function churn_max_size(): int
{
    return $GLOBALS['churn_max_size'] ?? MAX_SIZE;
}

function parse_max_size(array $opt): void
{
    if (!isset($opt['max-size'])) {
        return;
    }
    $n = parse_size($opt['max-size']);
    if ($n === null || $n <= MIN_SIZE || $n > MAX_SIZE) {
        usage('--max-size must be above 16 B and at most 1M');
    }
    $GLOBALS['churn_max_size'] = $n;
}
const HDR = 12;                  // pack('NNN', id, version, size)
const BLOB_BYTES = 2097152;      // values are slices of this random blob
const SAMPLE_EVERY = 50;         // ops between two sampled fetches
const SAMPLE_KEYS = 4;
const AUDIT_EVERY = 1000;        // ops between two full audits
const WIPE_SHARE = 0.9;          // audit: this share of live keys gone = a wipe

function usage(string $msg = ''): never
{
    if ($msg !== '') {
        say("churn.php: $msg");
    }
    say("usage: php -n churn.php [--targets=0.5,0.7,0.8,0.85,0.9] [--procs=1,4] [--ops=1000000]\n"
        . "         [--shm-size=64M] [--entries=100000] [--seed=1] [--shardcache=PATH.so] [--apcu=apcu.so]\n"
        . "         [--php=BINARY] [--ini=k=v,k=v] [--out=file.md] [--raw=file.jsonl] [--timeout=600] [--quick]\n"
        . "         [--max-size=1M]\n"
        . "       php -n -d extension=... -d apc.enable_cli=1 churn.php --worker [--mode=churn|entries]\n"
        . "         [--target=0.85] [--procs=1] [--ops=1000000] [--entries=100000] [--seed=1] [--timeout=600]");
    exit(2);
}

function fail_env(string $msg): never
{
    say("churn.php: $msg");
    exit(2);
}

/** "64M" / "65536K" / "1G" / "67108864" -> bytes (as apc.shm_size reads them). */
function parse_size(string $s): int
{
    if (!preg_match('/^\s*(\d+)\s*([kKmMgG]?)\s*$/', $s, $m)) {
        return 0;
    }
    $mul = ['' => 1, 'k' => 1024, 'm' => 1048576, 'g' => 1073741824][strtolower($m[2])];
    return (int)$m[1] * $mul;
}

/* ================================================================== */
/* worker: cache statistics, read defensively                          */

/** First of $names present in $a as a number, else null. */
function pick(array $a, array $names): ?int
{
    foreach ($names as $n) {
        if (isset($a[$n]) && is_numeric($a[$n])) {
            return (int)$a[$n];
        }
    }
    return null;
}

/**
 * The cache's own figures, each null when the loaded cache does not report
 * it: entries, expunges, pool_locks, global_locks, seg (bytes), avail
 * (bytes not available to allocations' complement: seg - used), used.
 * For APCu: apcu_cache_info(true) / apcu_sma_info(true). For shardcache:
 * shardcache_info() if it exists, then apcu_cache_info / apcu_sma_info (the
 * apcu_* names are shardcache's when APCu is not loaded).
 */
function read_stats(): array
{
    $s = ['entries' => null, 'expunges' => null, 'pool_locks' => null, 'global_locks' => null,
        'seg' => null, 'avail' => null, 'used' => null, 'mem_source' => null];
    $ci = $si = $si2 = null;
    try {
        if (cache_name() === 'shardcache' && function_exists('shardcache_info')) {
            $si2 = @shardcache_info();
        }
        if (function_exists('apcu_cache_info')) {
            $ci = @apcu_cache_info(true);
        }
        if (function_exists('apcu_sma_info')) {
            $si = @apcu_sma_info(true);
        }
    } catch (Throwable $e) {
        // a half-implemented info function: report what we have
    }
    foreach ([$si2, $ci] as $a) {
        if (!is_array($a)) {
            continue;
        }
        $s['entries'] ??= pick($a, ['num_entries', 'entries']);
        $s['expunges'] ??= pick($a, ['expunges']);
        $s['pool_locks'] ??= pick($a, ['pool_lock_acquisitions']);
        $s['global_locks'] ??= pick($a, ['global_lock_acquisitions']);
    }
    if (is_array($si) && isset($si['avail_mem'], $si['seg_size'])) {
        $s['seg'] = (int)$si['seg_size'] * (int)($si['num_seg'] ?? 1);
        $s['avail'] = (int)$si['avail_mem'];
        $s['used'] = $s['seg'] - $s['avail'];
        $s['mem_source'] = 'sma avail_mem';
    } elseif (is_array($si2)) {
        $total = pick($si2, ['mem_total', 'seg_size', 'mem_size_total']);
        $free = pick($si2, ['mem_free', 'avail_mem']);
        $used = pick($si2, ['mem_used']);
        if ($total !== null && $free !== null) {
            $s['seg'] = $total;
            $s['avail'] = $free;
            $s['used'] = $total - $free;
            $s['mem_source'] = 'shardcache_info total-free';
        } elseif ($used !== null) {
            $s['used'] = $used;
            $s['mem_source'] = 'shardcache_info mem_used';
        }
    }
    return $s;
}

function delta(?int $a, ?int $b): ?int
{
    return ($a === null || $b === null) ? null : $b - $a;
}

/* ================================================================== */
/* worker: churn                                                       */

$BLOB = '';

function value_for(int $id, int $ver, int $size): string
{
    global $BLOB;
    $off = ($id * 131 + $ver * 7919) & 0xFFFFF;    // < 1 MiB: off + size fits the blob
    return pack('NNN', $id, $ver, $size) . substr($BLOB, $off, $size - HDR);
}

/**
 * One churn process. Returns its counters. All state is local: the live set
 * is $live (list of ids), $pos (id => index in $live), $size, $ver.
 */
function churn_child(int $idx, int $ops, int $share, int $segShare, int $seed, $sock): array
{
    mt_srand($seed * 1000003 + $idx * 7919 + 1);
    $randMax = mt_getrandmax() + 1.0;
    $lnMin = log(MIN_SIZE);
    $lnSpan = log(churn_max_size()) - $lnMin;
    $prefix = "c{$idx}_";

    $live = [];
    $pos = [];
    $size = [];
    $ver = [];
    $liveBytes = 0;
    $nextId = 0;

    $r = [
        'ops' => 0, 'stores' => 0, 'stores_new' => 0, 'overwrites' => 0, 'deletes' => 0,
        'store_failed' => 0, 'first_fail_fill' => null, 'lost' => 0, 'lost_delete' => 0,
        'lost_sample' => 0, 'lost_audit' => 0, 'lost_failed_overwrite' => 0, 'first_loss_fill' => null,
        'audits' => 0, 'audit_wipes' => 0, 'samples' => 0, 'errors' => 0, 'error_msgs' => [],
        'steps' => 0, 'fill_sum' => 0.0, 'max_fill' => 0.0, 'stored_bytes' => 0,
    ];
    $err = function (string $m) use (&$r): void {
        $r['errors']++;
        if (count($r['error_msgs']) < 5) {
            $r['error_msgs'][] = $m;
        }
    };
    // removes $id from the live set (swap with the last element)
    $drop = function (int $id) use (&$live, &$pos, &$size, &$ver, &$liveBytes): void {
        $i = $pos[$id];
        $last = array_pop($live);
        if ($last !== $id) {
            $live[$i] = $last;
            $pos[$last] = $i;
        }
        $liveBytes -= $size[$id];
        unset($pos[$id], $size[$id], $ver[$id]);
    };
    $lost = function (string $how, int $n) use (&$r, &$liveBytes, $segShare): void {
        $r['lost'] += $n;
        $r[$how] += $n;
        $r['first_loss_fill'] ??= round($liveBytes / $segShare, 4);
    };
    $check = function (int $id, mixed $v) use (&$size, &$ver, &$r, $err, $prefix): bool {
        // true: $v is the live value of $id (spot check; every 16th: in full)
        $want = $size[$id];
        $hdr = pack('NNN', $id, $ver[$id], $want);
        if (!is_string($v) || strlen($v) !== $want || strncmp($v, $hdr, HDR) !== 0) {
            $err("$prefix$id: wrong value (" . (is_string($v) ? strlen($v) . ' bytes' : get_debug_type($v)) . ", want $want)");
            return false;
        }
        if (($r['samples'] & 15) === 0 && $v !== value_for($id, $ver[$id], $want)) {
            $err("$prefix$id: value bytes differ");
            return false;
        }
        return true;
    };
    $audit = function () use (&$live, &$r, $drop, $lost, $prefix): void {
        $r['audits']++;
        $n = count($live);
        if ($n === 0) {
            return;
        }
        $names = [];
        foreach ($live as $id) {
            $names[] = $prefix . $id;
        }
        $have = apcu_exists($names);
        if (!is_array($have)) {
            return;
        }
        $gone = [];
        foreach ($live as $id) {
            if (!isset($have[$prefix . $id])) {
                $gone[] = $id;
            }
        }
        if ($gone) {
            if ($n >= 10 && count($gone) >= WIPE_SHARE * $n) {
                $r['audit_wipes']++;
            }
            $lost('lost_audit', count($gone));
            foreach ($gone as $id) {
                $drop($id);
            }
        }
    };
    $deleteRandom = function (int $except) use (&$live, &$r, $drop, $lost, $prefix): bool {
        // one delete op of a random live key other than $except; false if none
        $n = count($live);
        if ($n === 0 || ($n === 1 && $live[0] === $except)) {
            return false;
        }
        do {
            $id = $live[mt_rand(0, $n - 1)];
        } while ($id === $except);
        $r['ops']++;
        $r['deletes']++;
        $ok = apcu_delete($prefix . $id);
        $drop($id);
        if ($ok !== true) {
            $lost('lost_delete', 1);
            return true;   // caller audits
        }
        return false;
    };

    $auditDue = false;
    $nextSample = SAMPLE_EVERY;
    $nextAudit = AUDIT_EVERY;
    while ($r['ops'] < $ops) {
        $pick = mt_rand(0, 99);
        $n = count($live);
        if ($n > 0 && $pick >= 80) {
            $auditDue = $deleteRandom(-1) || $auditDue;
        } else {
            $s = (int)round(exp($lnMin + mt_rand() / $randMax * $lnSpan));
            if ($n === 0 || $pick < 50) {
                $id = $nextId++;
                $old = 0;
            } else {
                $id = $live[mt_rand(0, $n - 1)];
                $old = $size[$id];
            }
            // make room first: live bytes never exceed the share
            while ($liveBytes - $old + $s > $share && $r['ops'] < $ops) {
                $before = count($live);
                $auditDue = $deleteRandom($id) || $auditDue;
                if (count($live) === $before) {
                    break;                  // nothing left to delete
                }
            }
            if ($liveBytes - $old + $s > $share || $r['ops'] >= $ops) {
                continue;                   // does not fit even alone / done
            }
            $v = isset($ver[$id]) ? $ver[$id] + 1 : 0;
            $r['ops']++;
            $r['stores']++;
            if (apcu_store($prefix . $id, value_for($id, $v, $s))) {
                if ($old) {
                    $r['overwrites']++;
                    $liveBytes += $s - $old;
                    $size[$id] = $s;
                    $ver[$id] = $v;
                } else {
                    $r['stores_new']++;
                    $pos[$id] = count($live);
                    $live[] = $id;
                    $size[$id] = $s;
                    $ver[$id] = $v;
                    $liveBytes += $s;
                }
                $r['stored_bytes'] += $s;
            } else {
                $r['store_failed']++;
                $r['first_fail_fill'] ??= round($liveBytes / $segShare, 4);
                if ($old) {
                    // the old value must still be there, or be gone
                    $got = apcu_fetch($prefix . $id, $found);
                    if (!$found) {
                        $drop($id);
                        $lost('lost_failed_overwrite', 1);
                        $auditDue = true;
                    } elseif (!$check($id, $got)) {
                        $drop($id);
                    }
                }
            }
        }
        $fill = $liveBytes / $segShare;
        $r['steps']++;
        $r['fill_sum'] += $fill;
        if ($fill > $r['max_fill']) {
            $r['max_fill'] = $fill;
        }
        if ($r['ops'] >= $nextSample) {
            $nextSample = $r['ops'] + SAMPLE_EVERY;
            for ($j = 0; $j < SAMPLE_KEYS && $live; $j++) {
                $id = $live[mt_rand(0, count($live) - 1)];
                $r['samples']++;
                $got = apcu_fetch($prefix . $id, $found);
                if (!$found) {
                    $drop($id);
                    $lost('lost_sample', 1);
                    $auditDue = true;
                } elseif (!$check($id, $got)) {
                    $drop($id);
                }
            }
        }
        if ($auditDue || $r['ops'] >= $nextAudit) {
            $nextAudit = $r['ops'] + AUDIT_EVERY;
            $auditDue = false;
            $audit();
            if (!parent_alive($sock)) {
                break;
            }
        }
    }
    $audit();   // final audit: the live set as the cache has it
    $r['final_live_keys'] = count($live);
    $r['final_live_bytes'] = $liveBytes;
    return $r;
}

function worker_churn(float $target, int $procs, int $ops, int $seed, int $timeout): int
{
    global $BLOB;
    $shm = parse_size((string)ini_get('apc.shm_size'));
    if ($shm <= 0) {
        fail_env('cannot read apc.shm_size');
    }
    $BLOB = random_bytes(BLOB_BYTES);      // inherited by the children
    apcu_clear_cache();
    $s0 = read_stats();
    $share = (int)floor($target * $shm / $procs);
    $per = intdiv($ops, $procs);
    [$res, $failed, $elapsed] = fork_run($procs, $timeout,
        fn(int $i, $sock) => churn_child($i, $per + ($i < $ops % $procs ? 1 : 0), $share,
            intdiv($shm, $procs), $seed, $sock));
    $s1 = read_stats();

    $sum = fn(string $k) => array_sum(array_column($res, $k));
    $minOf = function (string $k) use ($res): ?float {
        $xs = array_filter(array_column($res, $k), fn($x) => $x !== null);
        return $xs ? min($xs) : null;
    };
    $totalOps = $sum('ops');
    $poolLocks = delta($s0['pool_locks'], $s1['pool_locks']);
    $globalLocks = delta($s0['global_locks'], $s1['global_locks']);
    $msgs = [];
    foreach ($res as $x) {
        $msgs = array_merge($msgs, $x['error_msgs']);
    }
    $out = [
        'mode' => 'churn',
        'cache' => cache_name(),
        'cache_version' => in_array(cache_name(), ['apcu', 'shardcache'], true) ? phpversion(cache_name()) : null,
        'shm_size' => $shm,
        'target' => $target,
        'procs' => $procs,
        'ops' => $totalOps,
        'elapsed' => round($elapsed, 3),
        'ops_per_sec' => $elapsed > 0 ? (int)round($totalOps / $elapsed) : 0,
        'stores' => $sum('stores'),
        'stores_new' => $sum('stores_new'),
        'overwrites' => $sum('overwrites'),
        'deletes' => $sum('deletes'),
        'stored_bytes' => $sum('stored_bytes'),
        'store_failed' => $sum('store_failed'),
        'first_fail_fill' => $minOf('first_fail_fill'),
        'lost' => $sum('lost'),
        'lost_delete' => $sum('lost_delete'),
        'lost_sample' => $sum('lost_sample'),
        'lost_audit' => $sum('lost_audit'),
        'lost_failed_overwrite' => $sum('lost_failed_overwrite'),
        'first_loss_fill' => $minOf('first_loss_fill'),
        'samples' => $sum('samples'),
        'audits' => $sum('audits'),
        'audit_wipes' => $res ? max(array_column($res, 'audit_wipes')) : 0,
        'expunges' => delta($s0['expunges'], $s1['expunges']),
        'avg_fill' => $sum('steps') ? round($sum('fill_sum') / $sum('steps'), 4) : 0,
        'max_fill' => $res ? round(max(array_column($res, 'max_fill')), 4) : 0,
        'pool_locks' => $poolLocks,
        'pool_locks_per_1k' => $poolLocks === null || !$totalOps ? null : round($poolLocks / $totalOps * 1000, 2),
        'global_locks_per_1k' => $globalLocks === null || !$totalOps ? null : round($globalLocks / $totalOps * 1000, 2),
        'entries_end' => $s1['entries'],
        'final_live_keys' => $sum('final_live_keys'),
        'final_live_bytes' => $sum('final_live_bytes'),
        'errors' => $sum('errors'),
        'error_msgs' => array_slice($msgs, 0, 5),
        'failed_children' => $failed,
    ];
    echo json_encode($out) . "\n";
    return ($out['errors'] > 0 || $failed > 0) ? 1 : 0;
}

/* ================================================================== */
/* worker: bytes per small entry                                       */

function worker_entries(int $count): int
{
    apcu_clear_cache();
    $s0 = read_stats();
    $failed = 0;
    for ($i = 0; $i < $count; $i++) {
        if (!apcu_store(sprintf('k%06d', $i), sprintf('v%07d', $i))) {   // 8-byte values
            $failed++;
        }
    }
    $s1 = read_stats();
    $errors = 0;
    for ($i = 0; $i < $count; $i += 97) {
        if (apcu_fetch(sprintf('k%06d', $i)) !== sprintf('v%07d', $i)) {
            $errors++;
        }
    }
    $used = delta($s0['used'], $s1['used']);
    $out = [
        'mode' => 'entries',
        'cache' => cache_name(),
        'cache_version' => in_array(cache_name(), ['apcu', 'shardcache'], true) ? phpversion(cache_name()) : null,
        'shm_size' => parse_size((string)ini_get('apc.shm_size')),
        'entries_stored' => $count,
        'store_failed' => $failed,
        'entries_reported' => $s1['entries'],
        'used_before' => $s0['used'],
        'used_after' => $s1['used'],
        'bytes_per_entry' => $used === null || $count === $failed ? null : round($used / ($count - $failed), 1),
        'mem_source' => $s1['mem_source'],
        'errors' => $errors + $failed,
    ];
    echo json_encode($out) . "\n";
    return $out['errors'] > 0 ? 1 : 0;
}

/* ================================================================== */
/* driver                                                              */

$current = null;   // the worker process running now, for the signal handler

/** Runs one worker; returns its JSON result (with 'exit') or a failure record. */
function run_worker(array $cache, string $php, string $shm, array $ini, array $args, int $timeout, $rawFh): array
{
    $argv = array_merge(base_args($php, $cache['run'], $shm, $ini), [__FILE__, '--worker'], $args,
        ["--timeout=$timeout"]);
    [$rc, $o, $e] = run_cmd($argv, $timeout + 60);
    $j = null;
    foreach (array_reverse(explode("\n", trim($o))) as $line) {
        $j = json_decode($line, true);
        if (is_array($j)) {
            break;
        }
    }
    if (!is_array($j) || ($rc !== 0 && $rc !== 1)) {
        say("    FAILED (exit $rc): " . substr(trim($e . ' ' . $o), 0, 600));
        return ['failed' => true, 'exit' => $rc];
    }
    $j['exit'] = $rc;
    $j['failed'] = false;
    if (trim($e) !== '') {
        say('    stderr: ' . substr(str_replace("\n", "\n    ", trim($e)), 0, 600));
    }
    if ($rawFh) {
        fwrite($rawFh, json_encode(['args' => $args] + $j) . "\n");
    }
    return $j;
}

function pct(?float $x, int $dec = 1): string
{
    return $x === null ? '–' : sprintf("%.{$dec}f%%", 100 * $x);
}

function num(?float $x, string $fmt = '%d'): string
{
    return $x === null ? 'n/a' : sprintf($fmt, $x);
}

function driver(array $opt): int
{
    $quick = isset($opt['quick']);
    $targets = [];
    foreach (csv_list($opt['targets'] ?? ($quick ? '0.7,0.85,0.9' : '0.5,0.7,0.8,0.85,0.9')) as $t) {
        $f = filter_var($t, FILTER_VALIDATE_FLOAT);
        if ($f === false || $f <= 0 || $f > 1) {
            usage("bad target '$t' (a fraction in (0,1])");
        }
        $targets[] = (float)$f;
    }
    $procsList = [];
    foreach (csv_list($opt['procs'] ?? '1,4') as $p) {
        $n = filter_var($p, FILTER_VALIDATE_INT, ['options' => ['min_range' => 1, 'max_range' => 64]]);
        if ($n === false) {
            usage("bad --procs value '$p'");
        }
        $procsList[] = $n;
    }
    $ops = filter_var($opt['ops'] ?? ($quick ? '200000' : '1000000'), FILTER_VALIDATE_INT, ['options' => ['min_range' => 1000]]);
    $entries = filter_var($opt['entries'] ?? '100000', FILTER_VALIDATE_INT, ['options' => ['min_range' => 0]]);
    $seed = filter_var($opt['seed'] ?? '1', FILTER_VALIDATE_INT);
    $timeout = filter_var($opt['timeout'] ?? '600', FILTER_VALIDATE_INT, ['options' => ['min_range' => 10]]);
    if ($ops === false || $entries === false || $seed === false || $timeout === false || !$targets || !$procsList) {
        usage('bad --ops / --entries / --seed / --timeout / --targets / --procs');
    }
    $shm = $opt['shm-size'] ?? '64M';
    if (parse_size($shm) < 4 * MAX_SIZE) {
        usage('--shm-size must be at least 4M (values go up to 1 MiB)');
    }
    $ini = ini_list($opt['ini'] ?? '');
    $php = $opt['php'] ?? PHP_BINARY;
    stop_on_signals();
    $caches = find_caches($php, $opt, $shm, $ini);
    $rawFh = null;
    if (isset($opt['raw']) && ($rawFh = fopen($opt['raw'], 'w')) === false) {
        usage("cannot write {$opt['raw']}");
    }

    $anyBad = false;
    $churn = [];
    $cell = 0;
    $cells = count($targets) * count($procsList);
    foreach ($procsList as $p) {
        foreach ($targets as $t) {
            $order = array_keys($caches);
            if ($cell++ % 2 === 1) {
                $order = array_reverse($order);   // alternate who goes first
            }
            foreach ($order as $c) {
                say(sprintf('[%d/%d] churn procs=%d target=%.0f%% %s (%d ops, shm %s)', $cell, $cells, $p,
                    $t * 100, $caches[$c]['label'], $ops, $shm));
                $j = run_worker($caches[$c], $php, $shm, $ini,
                    ["--mode=churn", "--target=$t", "--procs=$p", "--ops=$ops", "--seed=$seed",
                     '--max-size=' . churn_max_size()], $timeout, $rawFh);
                if ($j['failed'] || $j['errors'] > 0 || $j['failed_children'] > 0) {
                    $anyBad = true;
                }
                if (!$j['failed']) {
                    say(sprintf('    %.1f s, failed stores %d, lost %d, wipes %s (audit %d), avg fill %.1f%%, errors %d%s',
                        $j['elapsed'], $j['store_failed'], $j['lost'], num($j['expunges']), $j['audit_wipes'],
                        100 * $j['avg_fill'], $j['errors'], $j['errors'] ? ' ' . implode('; ', $j['error_msgs']) : ''));
                }
                $churn["$p|$t|$c"] = $j;
            }
        }
    }
    $ent = [];
    if ($entries > 0) {
        foreach (array_keys($caches) as $c) {
            say(sprintf('entries: %s, %d keys "k%%06d" with 8-byte values', $caches[$c]['label'], $entries));
            $j = run_worker($caches[$c], $php, $shm, $ini, ['--mode=entries', "--entries=$entries"], $timeout, $rawFh);
            if ($j['failed'] || $j['errors'] > 0) {
                $anyBad = true;
            }
            $ent[$c] = $j;
        }
    }
    if ($rawFh) {
        fclose($rawFh);
    }

    /* ---- report ---- */
    $cpu = 'unknown CPU';
    if (is_readable('/proc/cpuinfo') && preg_match('/^model name\s*:\s*(.+)$/m', (string)file_get_contents('/proc/cpuinfo'), $m)) {
        $cpu = trim($m[1]);
    }
    $md = [];
    $md[] = '## Memory churn: shardcache vs APCu';
    $md[] = '';
    $md[] = sprintf('- date: %s; PHP %s; %s, %d CPUs', date('Y-m-d H:i T'), PHP_VERSION, $cpu,
        (int)preg_match_all('/^processor\s*:/m', (string)@file_get_contents('/proc/cpuinfo')));
    foreach ($caches as $c) {
        $md[] = sprintf('- %s %s: `%s` (md5 %s)', $c['label'], $c['version'], $c['path'],
            is_file($c['run']) ? substr((string)md5_file($c['run']), 0, 12) : '?');
    }
    $md[] = sprintf('- apc.shm_size=%s%s; %d ops per run (stores + deletes, shared by the processes), seed %d;'
        . ' value sizes log-uniform 16 B..' . (churn_max_size() === MAX_SIZE ? '1 MiB' : churn_max_size() . ' B') . '; 50%% new keys / 30%% overwrites / 20%% deletes, plus deletes'
        . ' that hold each process at target/procs of the segment',
        $shm, $ini ? ', ' . implode(', ', array_map(fn($x) => "`$x`", $ini)) : '', $ops, $seed);
    $md[] = '- failed stores: apcu_store() returned false; 1st fail at: live data / segment just before the first one;'
        . ' expunges: the cache\'s own counter (APCu: whole-cache wipes; shardcache: cross-shard eviction passes under'
        . ' its global lock); wipes seen: audits that found >= 90% of a process\'s live keys gone at once;'
        . ' lost: live keys evicted or wiped, and their share of the acknowledged stores; 1st loss at: live data /'
        . ' segment when the first loss was noticed; avg fill: live data / segment, averaged over the run;'
        . ' global locks: acquisitions of the whole-cache lock per 1000 ops (shardcache_info(); APCu does not'
        . ' report it, and takes its one cache lock for every store and delete); pool locks: page-pool lock'
        . ' acquisitions per 1000 ops (shardcache_info())';
    $md[] = '';
    $md[] = '| procs | target | cache | ops/s | failed stores | 1st fail at | expunges | wipes seen | lost (% of stores) | 1st loss at | avg fill | global locks /1k ops | pool locks /1k ops | errors |';
    $md[] = '|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|';
    foreach ($procsList as $p) {
        foreach ($targets as $t) {
            foreach (array_keys($caches) as $c) {
                $j = $churn["$p|$t|$c"];
                $label = $caches[$c]['label'];
                if ($j['failed']) {
                    $md[] = sprintf('| %d | %.0f%% | %s | **FAILED (exit %d)** | | | | | | | | | | |', $p, 100 * $t, $label, $j['exit']);
                    continue;
                }
                $md[] = sprintf('| %d | %.0f%% | %s | %s | %d | %s | %s | %d | %d (%s) | %s | %s | %s | %s | %s |',
                    $p, 100 * $t, $label, num($j['ops_per_sec']), $j['store_failed'], pct($j['first_fail_fill']),
                    num($j['expunges']), $j['audit_wipes'], $j['lost'],
                    $j['stores'] ? sprintf('%.2f%%', 100 * $j['lost'] / max(1, $j['stores'] - $j['store_failed'])) : '–',
                    pct($j['first_loss_fill']), pct($j['avg_fill']),
                    $j['global_locks_per_1k'] === null ? 'n/a' : sprintf('%.2f', $j['global_locks_per_1k']),
                    $j['pool_locks_per_1k'] === null ? 'n/a' : sprintf('%.2f', $j['pool_locks_per_1k']),
                    ($j['errors'] || $j['failed_children'])
                        ? sprintf('**%d errors, %d failed children**', $j['errors'], $j['failed_children']) : '0');
            }
        }
    }
    if ($ent) {
        $md[] = '';
        $md[] = sprintf('### Shared memory per small entry (%d keys "k%%06d", 8-byte string values, empty cache, apc.shm_size=%s)',
            $entries, $shm);
        $md[] = '';
        $md[] = '| cache | bytes per entry | entries reported | failed stores | measured from | errors |';
        $md[] = '|---|--:|--:|--:|---|---|';
        foreach ($ent as $c => $j) {
            if ($j['failed']) {
                $md[] = sprintf('| %s | **FAILED (exit %d)** | | | | |', $caches[$c]['label'], $j['exit']);
                continue;
            }
            $md[] = sprintf('| %s | %s | %s | %d | %s | %s |', $caches[$c]['label'], num($j['bytes_per_entry'], '%.1f'),
                num($j['entries_reported']), $j['store_failed'], $j['mem_source'] ?? 'not reported by the cache',
                $j['errors'] ? "**{$j['errors']}**" : '0');
        }
    }
    $md[] = '';
    $text = implode("\n", $md);
    echo $text;
    if (isset($opt['out'])) {
        if (file_put_contents($opt['out'], $text) === false) {
            say("churn.php: cannot write {$opt['out']}");
            return 1;
        }
        say("churn.php: table written to {$opt['out']}");
    }
    return $anyBad ? 1 : 0;
}

/* ================================================================== */

$opt = getopt('', ['worker', 'mode:', 'target:', 'targets:', 'procs:', 'ops:', 'entries:', 'seed:', 'timeout:',
    'shm-size:', 'shardcache:', 'apcu:', 'php:', 'ini:', 'out:', 'raw:', 'quick', 'help', 'max-size:']);
if (isset($opt['help'])) {
    usage();
}
foreach ($opt as $k => $v) {
    if (is_array($v)) {
        usage("--$k given more than once");
    }
}
parse_max_size($opt);
if (!isset($opt['worker'])) {
    exit(driver($opt));
}

// ---- worker ----
if (!function_exists('pcntl_fork')) {
    fail_env('pcntl is required');
}
if (!function_exists('apcu_store')) {
    fail_env('no apcu_* functions: load apcu.so or shardcache.so (php -n -d extension=...)');
}
if (!apcu_enabled()) {
    fail_env('cache not enabled: pass -d apc.enable_cli=1');
}
$timeout = (int)filter_var($opt['timeout'] ?? '600', FILTER_VALIDATE_INT, ['options' => ['min_range' => 10, 'default' => 600]]);
$mode = $opt['mode'] ?? 'churn';
if ($mode === 'entries') {
    $n = filter_var($opt['entries'] ?? '100000', FILTER_VALIDATE_INT, ['options' => ['min_range' => 1]]);
    if ($n === false) {
        usage('bad --entries');
    }
    exit(worker_entries($n));
}
if ($mode !== 'churn') {
    usage("unknown --mode '$mode'");
}
$target = filter_var($opt['target'] ?? '0.85', FILTER_VALIDATE_FLOAT);
$procs = filter_var($opt['procs'] ?? '1', FILTER_VALIDATE_INT, ['options' => ['min_range' => 1, 'max_range' => 64]]);
$ops = filter_var($opt['ops'] ?? '1000000', FILTER_VALIDATE_INT, ['options' => ['min_range' => 1]]);
$seed = filter_var($opt['seed'] ?? '1', FILTER_VALIDATE_INT);
if ($target === false || $target <= 0 || $target > 1 || $procs === false || $ops === false || $seed === false) {
    usage('bad --target / --procs / --ops / --seed');
}
exit(worker_churn((float)$target, $procs, $ops, $seed, $timeout));
