--TEST--
tools/metrics.php: shardcache_prometheus() is valid Prometheus text
--DESCRIPTION--
The output is valid Prometheus text format and reports shardcache_info().
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache_info() needs the shardcache extension');
if (!is_file(__DIR__ . '/../../tools/metrics.php')) die('skip tools/metrics.php not shipped here');
?>
--INI--
apc.enable_cli=1
shardcache.shards=4
--FILE--
<?php
require __DIR__ . '/../../tools/metrics.php';

for ($i = 0; $i < 100; $i++) {
    shardcache_store("key$i", str_repeat('v', 10 * $i));
}
shardcache_store('big', str_repeat('b', 100000));
for ($r = 0; $r < 5; $r++) {
    for ($i = 0; $i < 100; $i++) {
        shardcache_fetch("key$i");
    }
}
for ($i = 0; $i < 40; $i++) {
    shardcache_fetch("missing$i");
}
shardcache_delete('key0');
shardcache_store('key1', 'replaced');

$info = shardcache_info();
$text = shardcache_prometheus();

/* ---- 1. every line is valid text exposition format (version 0.0.4) ---- */
$errors = [];
$name_re = '[a-zA-Z_:][a-zA-Z0-9_:]*';
$value_re = '(?:[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?Inf|NaN)';
$label_re = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\n]|\\\\[\\\\"n])*"';
if ($text === '' || substr($text, -1) !== "\n") {
    $errors[] = 'output does not end with a newline';
}
$help = $type = $samples = [];
$series = [];
$current = null;          // family whose samples are being read
$closed = [];             // families whose samples ended
foreach (explode("\n", rtrim($text, "\n")) as $n => $line) {
    $at = 'line ' . ($n + 1) . ': ' . $line;
    if (preg_match("/^# HELP ($name_re) ((?:[^\\\\\n]|\\\\[\\\\n])*)$/", $line, $m)) {
        if (isset($help[$m[1]])) $errors[] = "second HELP: $at";
        if (isset($samples[$m[1]])) $errors[] = "HELP after samples: $at";
        $help[$m[1]] = $m[2];
    } elseif (preg_match("/^# TYPE ($name_re) (counter|gauge|untyped|summary|histogram)$/", $line, $m)) {
        if (isset($type[$m[1]])) $errors[] = "second TYPE: $at";
        if (isset($samples[$m[1]])) $errors[] = "TYPE after samples: $at";
        $type[$m[1]] = $m[2];
    } elseif (preg_match("/^($name_re)(\\{(?:$label_re(?:,$label_re)*,?)?\\})? ($value_re)$/", $line, $m)) {
        $name = $m[1];
        if ($current !== $name) {
            if (isset($closed[$name])) $errors[] = "samples of $name not together: $at";
            if ($current !== null) $closed[$current] = true;
            $current = $name;
        }
        if (!isset($type[$name]) || !isset($help[$name])) $errors[] = "sample before its HELP and TYPE: $at";
        if (($type[$name] ?? '') === 'counter' && substr($name, -6) !== '_total') $errors[] = "counter not named *_total: $at";
        if (($type[$name] ?? '') !== 'counter' && substr($name, -6) === '_total') $errors[] = "*_total that is not a counter: $at";
        $labels = [];
        if (($m[2] ?? '') !== '') {
            preg_match_all('/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\n]|\\\\[\\\\"n])*)"/', $m[2], $lm, PREG_SET_ORDER);
            foreach ($lm as $l) {
                if (isset($labels[$l[1]])) $errors[] = "repeated label $l[1]: $at";
                if (str_starts_with($l[1], '__')) $errors[] = "reserved label name: $at";
                $labels[$l[1]] = stripcslashes($l[2]);
            }
        }
        ksort($labels);
        $id = $name . json_encode($labels);
        if (isset($series[$id])) $errors[] = "duplicate series: $at";
        $series[$id] = $m[3];
        if (($type[$name] ?? '') === 'counter' && (float)$m[3] < 0) $errors[] = "negative counter: $at";
        $samples[$name] = true;
    } else {
        $errors[] = "not exposition format: $at";
    }
}
foreach ($type as $name => $t) {
    if (!isset($samples[$name])) $errors[] = "TYPE without samples: $name";
}
echo "format: ", $errors ? "ERRORS\n  " . implode("\n  ", $errors) : 'ok', "\n";

/* ---- 2. the values are shardcache_info()'s ----
 * Every number shardcache_info() reports (top level, local, large, per_shard,
 * classes) must be exported under its name. shardcache_info() takes the pool
 * lock and so moves pool_lock_acquisitions: each value must lie between a
 * call made before the metrics and one made after. */
$info2 = shardcache_info();
function sample(array $series, string $name, array $labels = []): ?string {
    ksort($labels);
    return $series[$name . json_encode($labels)] ?? null;
}
$names = [
    '' => [
        'enabled' => 'shardcache_enabled', 'shards' => 'shardcache_shards', 'slots' => 'shardcache_slots',
        'entries' => 'shardcache_entries',
        'mem_total' => 'shardcache_memory_total_bytes', 'mem_used' => 'shardcache_memory_used_bytes',
        'mem_entries' => 'shardcache_memory_entries_bytes', 'mem_wasted' => 'shardcache_memory_wasted_bytes',
        'mem_free' => 'shardcache_memory_free_bytes', 'largest_free_run' => 'shardcache_memory_largest_free_run_bytes',
        'free_runs' => 'shardcache_memory_free_runs',
        'mem_spare' => 'shardcache_memory_spare_bytes', 'spare_runs' => 'shardcache_memory_spare_runs',
        'spare_reuses' => 'shardcache_spare_reuses_total',
        'pool_lock_acquisitions' => 'shardcache_pool_lock_acquisitions_total',
        'global_lock_acquisitions' => 'shardcache_global_lock_acquisitions_total',
        'slab_refills' => 'shardcache_slab_refills_total', 'slab_returns' => 'shardcache_slab_returns_total',
        'expunges' => 'shardcache_expunges_total', 'evicted' => 'shardcache_evictions_total',
        'expired' => 'shardcache_expired_total', 'nomem' => 'shardcache_nomem_total',
        'inserts' => 'shardcache_inserts_total', 'updates' => 'shardcache_updates_total',
        'deletes' => 'shardcache_deletes_total', 'hits' => 'shardcache_hits_total',
        'misses' => 'shardcache_misses_total', 'repairs' => 'shardcache_repairs_total',
        'resets' => 'shardcache_resets_total', 'clears' => 'shardcache_clears_total',
        'lock_waits' => 'shardcache_lock_waits_total', 'optimistic_retries' => 'shardcache_optimistic_retries_total',
        'hit_sample' => 'shardcache_hit_sample_rate', 'start_time' => 'shardcache_start_time_seconds',
    ],
    'local' => [
        'hits' => 'shardcache_process_hits', 'misses' => 'shardcache_process_misses',
        'optimistic_retries' => 'shardcache_process_optimistic_retries',
        'locked_reads' => 'shardcache_process_locked_reads',
    ],
    'large' => ['runs' => 'shardcache_large_runs', 'pages' => 'shardcache_large_pages'],
    'per_shard' => [
        'entries' => 'shardcache_shard_entries', 'slots' => 'shardcache_shard_slots',
        'tombstones' => 'shardcache_shard_tombstones',
        'hits' => 'shardcache_shard_hits_total', 'misses' => 'shardcache_shard_misses_total',
        'inserts' => 'shardcache_shard_inserts_total', 'updates' => 'shardcache_shard_updates_total',
        'deletes' => 'shardcache_shard_deletes_total', 'expired' => 'shardcache_shard_expired_total',
        'evicted' => 'shardcache_shard_evictions_total', 'nomem' => 'shardcache_shard_nomem_total',
        'repairs' => 'shardcache_shard_repairs_total',
        'pages' => 'shardcache_shard_pages', 'mem_used' => 'shardcache_shard_memory_used_bytes', 'mem_wasted' => 'shardcache_shard_memory_wasted_bytes',
        'lock_waits' => 'shardcache_shard_lock_waits_total',
        'optimistic_retries' => 'shardcache_shard_optimistic_retries_total',
    ],
    'classes' => [
        'slabs' => 'shardcache_class_slabs', 'slab_pages' => 'shardcache_class_slab_pages',
        'objects_total' => 'shardcache_class_objects', 'objects_used' => 'shardcache_class_objects_used',
        'bytes_used' => 'shardcache_class_bytes_used',
    ],
];
$prefix = ['' => 'shardcache_', 'local' => 'shardcache_process_', 'large' => 'shardcache_large_',
           'per_shard' => 'shardcache_shard_', 'classes' => 'shardcache_class_'];
// The figures the dashboard and the README rely on must be there.
$required = [
    '' => ['shards', 'entries', 'mem_total', 'mem_used', 'mem_free', 'largest_free_run', 'pool_lock_acquisitions',
           'slab_refills', 'slab_returns', 'expunges', 'evicted', 'expired', 'nomem', 'inserts', 'updates',
           'deletes', 'hits', 'misses', 'repairs', 'resets'],
    'local' => ['hits', 'misses', 'optimistic_retries', 'locked_reads'],
    'per_shard' => ['entries', 'slots', 'hits', 'misses', 'inserts', 'evicted', 'pages', 'mem_used'],
    'classes' => ['size', 'slab_pages', 'objects_used', 'bytes_used'],
];
$bad = [];
$checked = 0;
$check = function ($a, $b, ?string $got, string $what) use (&$bad, &$checked) {
    if (is_bool($a)) { $a = (int)$a; $b = (int)$b; }
    if (!is_int($a) || !is_int($b)) return;       // not a number: not exported
    $checked++;
    if ($got === null) { $bad[] = "$what: no metric (shardcache_info() $a)"; return; }
    if ((string)(int)$got !== $got || (int)$got < min($a, $b) || (int)$got > max($a, $b)) {
        $bad[] = "$what: metric $got, shardcache_info() $a before and $b after";
    }
};
$metric = fn(string $part, string $k) => $names[$part][$k] ?? $prefix[$part] . preg_replace('/[^a-zA-Z0-9_]/', '_', $k);
foreach ($required as $part => $keys) {
    $rows = $part === '' ? [$info] : ($part === 'local' ? [$info['local'] ?? []] : ($info[$part] ?? []));
    if (!$rows) $bad[] = "shardcache_info() has no $part";
    foreach ($rows as $i => $row) foreach ($keys as $k) {
        if (!is_int($row[$k] ?? null)) $bad[] = "shardcache_info()" . ($part === '' ? '' : "[$part]") . ($part === 'per_shard' || $part === 'classes' ? "[$i]" : '') . "[$k] is missing or not an int";
    }
}
foreach ($info as $k => $v) {
    if (!is_array($v)) $check($v, $info2[$k] ?? null, sample($series, $metric('', $k)), $k);
}
foreach (['local', 'large'] as $part) {
    foreach ($info[$part] ?? [] as $k => $v) {
        $check($v, $info2[$part][$k] ?? null, sample($series, $metric($part, $k)), "$part.$k");
    }
}
if (count($info['per_shard'] ?? []) !== 4) $bad[] = 'per_shard does not have 4 rows';
foreach ($info['per_shard'] ?? [] as $i => $row) {
    foreach ($row as $k => $v) {
        $check($v, $info2['per_shard'][$i][$k] ?? null, sample($series, $metric('per_shard', $k), ['shard' => (string)$i]), "per_shard[$i].$k");
    }
}
foreach ($info['classes'] ?? [] as $i => $row) {
    foreach ($row as $k => $v) {
        if ($k === 'size') continue;
        $check($v, $info2['classes'][$i][$k] ?? null, sample($series, $metric('classes', $k), ['size' => (string)($row['size'] ?? '?')]), "classes[$i].$k");
    }
}
echo "values: ", $bad ? "ERRORS\n  " . implode("\n  ", $bad) : 'ok', "\n";
echo "checked at least 100 values: ", var_export($checked >= 100, true), "\n";

/* ---- 3. the figures describe what this script did ---- */
echo "up: ", sample($series, 'shardcache_up'), "\n";
echo "entries: ", sample($series, 'shardcache_entries'), "\n";
$sum = 0;
foreach ([0, 1, 2, 3] as $i) $sum += (int)sample($series, 'shardcache_shard_entries', ['shard' => (string)$i]);
echo "per-shard entries add up: $sum\n";
echo "inserts: ", sample($series, 'shardcache_inserts_total'), "\n";
echo "process hits: ", sample($series, 'shardcache_process_hits'), "\n";
echo "process misses: ", sample($series, 'shardcache_process_misses'), "\n";
echo "version label: ", var_export(sample($series, 'shardcache_build_info', ['version' => phpversion('shardcache')]), true), "\n";
?>
--EXPECT--
format: ok
values: ok
checked at least 100 values: true
up: 1
entries: 100
per-shard entries add up: 100
inserts: 101
process hits: 500
process misses: 40
version label: '1'
