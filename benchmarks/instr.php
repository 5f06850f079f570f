<?php
/*
 * Instructions per op, for callgrind: the loop bodies of bench.php's
 * workloads run a fixed number of times in one process (no fork, no
 * clock), so that two runs of N and 2N ops differ by exactly N ops.
 * benchmarks/instr.sh runs it under callgrind and prints the difference
 * per op. Usage: php -n -d extension=X -d apc.enable_cli=1 instr.php WORKLOAD N
 * Exit 1 when a value read back is wrong.
 */
$W = $argv[1]; $N = (int)$argv[2];
const OBJ_KEYS = 4;
require __DIR__ . '/objects.inc';
final class BenchObj { public function __construct(public int $id, public string $name, public float $score) {} }
apcu_clear_cache();
// INSTR_FORK=1: the loop runs in a forked child, as in bench.php
// (store_int_parent: after the parent has stored the keys)
if ($W === 'store_int_parent') { for ($i = 0; $i < 1024; $i++) apcu_store("w0_$i", -1); }
if (getenv("INSTR_FORK")) { $cp = pcntl_fork(); if ($cp > 0) { pcntl_waitpid($cp, $st); exit(pcntl_wexitstatus($st)); } }
$err = 0;
switch ($W) {
case 'store_delete':
    $pid = 1234; $keys = [];
    for ($i = 0; $i < 512; $i++) $keys[] = "d{$pid}_$i";
    $val = substr(str_repeat("churn $pid ", 40), 0, 200);
    for ($j = 0; $j < $N; $j += 2) { $key = $keys[($j & 1023) >> 1];
        if (!apcu_store($key, $val)) $err++; if (!apcu_delete($key)) $err++; }
    break;
case 'store_only_new': // stores of new keys only (half of store_delete)
    $keys = []; for ($i = 0; $i < $N; $i++) $keys[] = "n_$i";
    for ($j = 0; $j < $N; $j++) { if (!apcu_store($keys[$j], 5)) $err++; }
    break;
case 'fetch_obj_small':
    $keys = []; $vals = [];
    for ($i = 0; $i < 4; $i++) { $keys[] = "bench_obj_$i"; $vals[] = new BenchObj(7000 + $i, "object number $i", $i + 0.25); apcu_store($keys[$i], $vals[$i]); }
    for ($j = 0; $j < $N; $j++) { $k = $j & 3; $v = apcu_fetch($keys[$k]); if (($v->id ?? null) !== 7000 + $k) $err++; }
    break;
case 'fetch_obj_list100':
case 'fetch_obj_bigarr':
case 'fetch_obj_datetime':
    $kind = substr($W, 10); $keys = objw_keys($kind); $probes = [];
    foreach ($keys as $i => $key) { $v = objw_value($kind, $i); $probes[] = objw_probe($kind, $v); apcu_store($key, $v); }
    for ($j = 0; $j < $N; $j++) { $k = $j & 3; if (objw_probe($kind, apcu_fetch($keys[$k])) !== $probes[$k]) $err++; }
    break;
case 'store_obj_small':
case 'store_obj_list100':
case 'store_obj_bigarr':
case 'store_obj_datetime':
    $kind = substr($W, 10); $keys = []; $vals = [];
    for ($i = 0; $i < 64; $i++) $keys[] = "ow_$i";
    for ($i = 0; $i < 4; $i++) $vals[] = objw_value($kind, $i);
    for ($j = 0; $j < $N; $j++) { if (!apcu_store($keys[$j & 63], $vals[$j & 3])) $err++; }
    break;
case 'fetch_str_1k':
    $keys = []; $vals = [];
    for ($i = 0; $i < 4; $i++) { $keys[] = "bench_str_$i"; $s=''; $seed="s$i:"; while (strlen($s) < 1024) { $seed = md5($seed); $s .= $seed; } $vals[] = substr($s,0,1023).chr(65+$i); apcu_store($keys[$i], $vals[$i]); }
    for ($j = 0; $j < $N; $j++) { $k = $j & 3; $v = apcu_fetch($keys[$k]); if (strlen($v) !== 1024) $err++; }
    break;
case 'fetch_arr_100':
    $keys = []; $vals = [];
    for ($i = 0; $i < 4; $i++) { $keys[] = "bench_arr_$i"; $a = range($i*100, $i*100+79); for ($q=0;$q<20;$q++) $a[] = "v{$i}_{$q}"; $vals[] = $a; apcu_store($keys[$i], $a); }
    for ($j = 0; $j < $N; $j++) { $k = $j & 3; $v = apcu_fetch($keys[$k]); if ($v[0] !== $k*100) $err++; }
    break;
case 'fetch_int_hot16':
    $keys = []; for ($i = 0; $i < 16; $i++) { $keys[] = "bench_hot_$i"; apcu_store($keys[$i], 1000003*($i+1)); }
    for ($j = 0; $j < $N; $j++) { $k = $j & 15; if (apcu_fetch($keys[$k]) !== 1000003*($k+1)) $err++; }
    break;
case 'fetch_miss':
    $keys = []; for ($i = 0; $i < 16; $i++) $keys[] = "bench_miss_$i";
    for ($j = 0; $j < $N; $j++) { if (apcu_fetch($keys[$j & 15]) !== false) $err++; }
    break;
case 'store_int_own':
    $keys = []; for ($i = 0; $i < 1024; $i++) { $keys[] = "o_$i"; apcu_store($keys[$i], 0); }
    for ($j = 0; $j < $N; $j++) { if (!apcu_store($keys[$j & 1023], $j)) $err++; }
    break;
case 'store_int_parent': // keys stored before the fork (with INSTR_FORK=1, by the parent)
case 'store_int_child':  // keys the loop's own process stores first
    $keys = []; for ($i = 0; $i < 1024; $i++) $keys[] = "w0_$i";
    if ($W === 'store_int_child') { foreach ($keys as $k) apcu_store($k, -1); }
    for ($j = 0; $j < $N; $j++) { if (!apcu_store($keys[$j & 1023], $j)) $err++; }
    break;
case 'store_arr_100':
    $keys = []; for ($i = 0; $i < 1024; $i++) { $keys[] = "a_$i"; }
    $tpl = range(0, 79); for ($q=0;$q<20;$q++) $tpl[] = "v0_{$q}";
    for ($i = 0; $i < 1024; $i++) apcu_store($keys[$i], $tpl);
    for ($j = 0; $j < $N; $j++) { $tpl[0] = $j; if (!apcu_store($keys[$j & 1023], $tpl)) $err++; }
    break;
case 'mixed_90_10':
    $keys = []; for ($i = 0; $i < 10000; $i++) { $keys[] = "bench_mix_$i"; apcu_store($keys[$i], $i); }
    mt_srand(77); $seq = []; for ($i = 0; $i < 65536; $i++) { $r = mt_rand(0, 9999); $seq[] = mt_rand(0,9) === 0 ? ~$r : $r; }
    for ($j = 0; $j < $N; $j++) { $r = $seq[$j & 65535]; if ($r >= 0) { $v = apcu_fetch($keys[$r]); if (($v & 16383) !== $r) $err++; } else { $r = ~$r; if (!apcu_store($keys[$r], ($j << 17) | $r)) $err++; } }
    break;
case 'mixed_zipf': // as bench.php: 100,000 keys, ranks drawn Zipf (s = 1.0)
    $keys = []; for ($i = 0; $i < 100000; $i++) { $keys[] = "bench_zipf_$i"; apcu_store($keys[$i], $i); }
    mt_srand(77); $cdf = []; $sum = 0.0; for ($r = 0; $r < 100000; $r++) { $sum += 1.0 / ($r + 1); $cdf[] = $sum; }
    $max = mt_getrandmax() + 1.0; $seq = [];
    for ($i = 0; $i < 65536; $i++) { $u = (mt_rand() + mt_rand() / $max) / $max * $sum; $lo = 0; $hi = 99999;
        while ($lo < $hi) { $mid = ($lo + $hi) >> 1; if ($cdf[$mid] > $u) $hi = $mid; else $lo = $mid + 1; }
        $seq[] = mt_rand(0, 9) === 0 ? ~$lo : $lo; }
    unset($cdf);
    for ($j = 0; $j < $N; $j++) { $r = $seq[$j & 65535]; if ($r >= 0) { $v = apcu_fetch($keys[$r]); if (!is_int($v) || ($v & 131071) !== $r) $err++; } else { $r = ~$r; if (!apcu_store($keys[$r], ($j << 17) | $r)) $err++; } }
    break;
case 'inc_hot':
    apcu_store('bench_inc_hot', 0);
    for ($j = 0; $j < $N; $j++) { apcu_inc('bench_inc_hot'); }
    break;
case 'entry_10k':
    $keys = []; for ($i = 0; $i < 10000; $i++) $keys[] = "bench_ent_$i";
    $cb = static function (string $key): int { return (int)substr($key, 10); };
    foreach ($keys as $i => $key) apcu_entry($key, $cb);
    mt_srand(41); $seq = []; for ($i = 0; $i < 65536; $i++) $seq[] = mt_rand(0, 9999);
    for ($j = 0; $j < $N; $j++) { $r = $seq[$j & 65535]; if (apcu_entry($keys[$r], $cb) !== $r) $err++; }
    break;
// instr.php only: fetches of 1024 keys of one tenant, with (flood) or
// without (quiet) another tenant's 16384 keys that share one PHP hash
// (DJBX33A: "Ez" and "FY" add the same); with INSTR_INI=shardcache.shards=1
// every key shares the one shard.
case 'fetch_victim_quiet':
case 'fetch_victim_flood':
    if ($W === 'fetch_victim_flood') {
        for ($n = 0; $n < 16384; $n++) { $k = 'atk'; for ($b = 0; $b < 14; $b++) $k .= ($n >> $b) & 1 ? 'FY' : 'Ez'; if (!apcu_store($k, $n)) $err++; }
    }
    $keys = []; for ($i = 0; $i < 1024; $i++) { $keys[] = "victim_$i"; apcu_store($keys[$i], $i); }
    for ($j = 0; $j < $N; $j++) { $r = $j & 1023; if (apcu_fetch($keys[$r]) !== $r) $err++; }
    break;
case 'empty':
    for ($j = 0; $j < $N; $j++) { $k = $j & 3; $v = strlen('x'); }
    break;
default: fwrite(STDERR, "?\n"); exit(2);
}
if ($err) { fwrite(STDERR, "errors: $err\n"); exit(1); }
