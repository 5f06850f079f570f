<?php
/*
 * benchmarks/harness.php - the 27 CLI cases of the user_cache benchmark
 * (colopl/php-user_cache_benchmark_harness, which judged php-src's
 * user_cache proposal), rebuilt in our own words, for one backend per run.
 *
 * Whichever cache is loaded answers: APCu, or shardcache (which provides
 * apcu_* when APCu is not loaded); load only one (`php -n`).
 *
 *   php -n -d extension=modules/shardcache.so -d apc.enable_cli=1 \
 *       benchmarks/harness.php [options]
 *
 * Per case (benchmarks/harness-cases.inc):
 *   read   the payload is stored once; a sample is R fetches of it, each
 *          followed by the case's probe (a few reads of the fetched value,
 *          inside the timed loop); ns per read = the sample's time / R;
 *   store  a sample empties the cache (untimed), then times W stores of
 *          the payload over K keys (the first K insert, the rest replace);
 *   both report the median of the measured samples (after the warm-up
 *   samples). The cycle collector is off during the read loop of the
 *   cyclic cases, and collects their garbage after each sample, untimed.
 *   check  every fetched value read back outside the timed loops, after
 *          the first store and after the last sample (and every stored key
 *          after the store samples), must serialize() to the same bytes as
 *          the payload; the run dies at once if not. (serialize(), not ==:
 *          == recurses forever into a cycle, and a __wakeup() that sets a
 *          property left out by __sleep() makes == differ by design.) The
 *          printed checksum is the crc32 of those bytes.
 *   path   for shardcache, which way the value went, from
 *          shardcache_info()['objects']: read "native" (built from the
 *          native object form), "text" (native form, but fetched through
 *          unserialize() of its text: a class changed or missing),
 *          "unserialize" (stored through serialize() or igbinary, fetched
 *          through their unserialize) or "plain" (no object: arrays,
 *          strings); store "native", "serialize" or "plain".
 *
 * Options:
 *   --cases=a,b      only these cases (--list names them)
 *   --reads=N        fetches per read sample (default 1000)
 *   --writes=N       stores per store sample (default 1000)
 *   --keys=N         keys the stores go round (default 32)
 *   --samples=N      measured samples per case and operation (default 30)
 *   --warmup=N       untimed samples first (default 5)
 *   --seconds=S      instead of --samples: sample each case's reads, then
 *                    its stores, until S seconds are spent (at least 3)
 *   --no-store, --no-read   skip one operation
 *   --json           print one JSON object instead of the table
 *   --report F...    (no cache needed) read JSON files written by --json
 *                    runs, paired as harness.sh writes them, and print the
 *                    Markdown table of median ratios; see harness.sh
 */

declare(strict_types=1);

require __DIR__ . '/harness-cases.inc';

function hx_usage(int $rc): never
{
    $lines = file(__FILE__);
    $out = [];
    foreach (array_slice($lines, 1, 50) as $l) {
        if (str_starts_with($l, ' */')) {
            break;
        }
        $out[] = preg_replace('/^ \* ?/', '', $l);
    }
    fwrite($rc ? STDERR : STDOUT, implode('', $out));
    exit($rc);
}

function hx_options(array $argv): array
{
    $o = ['cases' => null, 'reads' => 1000, 'writes' => 1000, 'keys' => 32, 'samples' => 30,
          'warmup' => 5, 'seconds' => null, 'read' => true, 'store' => true, 'json' => false,
          'list' => false, 'report' => null];
    for ($i = 1; $i < count($argv); $i++) {
        $a = $argv[$i];
        if ($a === '--report') {
            $o['report'] = array_slice($argv, $i + 1);
            break;
        }
        if (!preg_match('/^--([a-z-]+)(?:=(.*))?$/', $a, $m)) {
            hx_usage(2);
        }
        $v = $m[2] ?? null;
        switch ($m[1]) {
            case 'cases': $o['cases'] = array_filter(explode(',', (string) $v), 'strlen'); break;
            case 'reads': case 'writes': case 'keys': case 'samples': case 'warmup':
                if (!preg_match('/^[0-9]+$/', (string) $v) || ($v === '0' && $m[1] !== 'warmup')) {
                    fwrite(STDERR, "harness: --{$m[1]} wants a positive integer\n");
                    exit(2);
                }
                $o[$m[1]] = (int) $v;
                break;
            case 'seconds':
                if (!is_numeric($v) || (float) $v <= 0) {
                    fwrite(STDERR, "harness: --seconds wants a positive number\n");
                    exit(2);
                }
                $o['seconds'] = (float) $v;
                break;
            case 'no-read': $o['read'] = false; break;
            case 'no-store': $o['store'] = false; break;
            case 'json': $o['json'] = true; break;
            case 'list': $o['list'] = true; break;
            case 'help': hx_usage(0);
            default: hx_usage(2);
        }
    }
    return $o;
}

function hx_median(array $v): float
{
    sort($v);
    $n = count($v);
    return $n % 2 ? (float) $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
}

function hx_die(string $msg): never
{
    fwrite(STDERR, "harness: FAIL: $msg\n");
    exit(1);
}

function hx_check(string $case, string $want, mixed $got, string $where): void
{
    $s = serialize($got);
    if ($s !== $want) {
        hx_die(sprintf('%s: the value read back %s differs from the stored one '
            . '(serialize() crc32 %08x, want %08x; %d bytes, want %d)',
            $case, $where, crc32($s), crc32($want), strlen($s), strlen($want)));
    }
}

function hx_objects(): ?array
{
    return function_exists('shardcache_info') ? (shardcache_info()['objects'] ?? null) : null;
}

/* repeat $sample until enough samples (or seconds) are measured */
function hx_sample_loop(array $o, callable $sample): array
{
    for ($i = 0; $i < $o['warmup']; $i++) {
        $sample();
    }
    $out = [];
    $t0 = hrtime(true);
    while (true) {
        $out[] = $sample();
        if ($o['seconds'] === null ? count($out) >= $o['samples']
            : count($out) >= 3 && hrtime(true) - $t0 >= $o['seconds'] * 1e9) {
            return $out;
        }
    }
}

function hx_read(string $name, array $c, array $o, mixed $payload, string $want): array
{
    [, , $probe] = $c;
    $key = "hx.read.$name";
    apcu_clear_cache();
    $stored = hx_objects();
    apcu_store($key, $payload) || hx_die("$name: apcu_store() failed");
    $before = hx_objects();
    hx_check($name, $want, apcu_fetch($key), 'after the store');
    $cyclic = in_array($name, HX_CYCLIC, true);
    $reads = $o['reads'];
    $sample = static function () use ($key, $probe, $reads, $cyclic, $name): float {
        $gc = $cyclic && gc_enabled();
        if ($gc) {
            gc_disable();
        }
        $sum = 0;
        $t = hrtime(true);
        for ($i = 0; $i < $reads; $i++) {
            $v = apcu_fetch($key);
            $sum ^= $probe($v, $i);
        }
        $t = hrtime(true) - $t;
        unset($v);
        if ($gc) {
            gc_enable();
            gc_collect_cycles(); /* untimed: the sample's cycles */
        }
        if ($sum === PHP_INT_MIN) {
            hx_die("$name: impossible probe sum");
        }
        return $t / $reads;
    };
    $samples = hx_sample_loop($o, $sample);
    $after = hx_objects();
    hx_check($name, $want, apcu_fetch($key, $ok), 'after the reads');
    $ok || hx_die("$name: the key is gone after the reads");
    $path = null;
    if ($before !== null) {
        $d = static fn (string $k): int => ($after[$k] ?? 0) - ($before[$k] ?? 0);
        $path = $before['serialized'] > $stored['serialized'] ? 'unserialize'
            : ($d('unserialized') > 0 ? 'text' : ($d('native') > 0 ? 'native' : 'plain'));
    }
    return [hx_median($samples), count($samples), $path];
}

function hx_store(string $name, array $o, mixed $payload, string $want): array
{
    $writes = $o['writes'];
    $keys = $o['keys'];
    $before = hx_objects();
    $sample = static function () use ($name, $payload, $writes, $keys): float {
        apcu_clear_cache();
        $t = hrtime(true);
        for ($i = 0; $i < $writes; $i++) {
            apcu_store("hx.store.$name." . $i % $keys, $payload);
        }
        return (hrtime(true) - $t) / $writes;
    };
    $samples = hx_sample_loop($o, $sample);
    $after = hx_objects();
    for ($i = 0; $i < min($writes, $keys); $i++) {
        $v = apcu_fetch("hx.store.$name.$i", $ok);
        $ok || hx_die("$name: stored key $i is missing");
        hx_check($name, $want, $v, "from stored key $i");
    }
    $path = null;
    if ($before !== null) {
        $path = ($after['serialized'] ?? 0) > ($before['serialized'] ?? 0) ? 'serialize'
            : (($after['stored'] ?? 0) > ($before['stored'] ?? 0) ? 'native' : 'plain');
    }
    return [hx_median($samples), count($samples), $path];
}

function hx_backend(): array
{
    /* shardcache also answers extension_loaded('apcu') (when APCu itself
     * is not loaded, it registers that name too): it wins the test */
    if (extension_loaded('shardcache')) {
        $b = ['backend' => 'shardcache', 'version' => phpversion('shardcache'),
              'zero_copy' => (string) ini_get('shardcache.zero_copy')];
    } elseif (extension_loaded('apcu')) {
        $b = ['backend' => 'apcu', 'version' => phpversion('apcu'), 'zero_copy' => null];
    } else {
        hx_die('neither shardcache nor APCu is loaded');
    }
    if (!apcu_enabled()) {
        hx_die('the cache is off: run with -d apc.enable_cli=1');
    }
    $b['serializer'] = (string) ini_get('apc.serializer');
    $b['php'] = PHP_VERSION;
    return $b;
}

function hx_run(array $o): void
{
    $all = hx_cases();
    if ($o['list']) {
        foreach ($all as $n => $c) {
            echo "$n {$c[0]}\n";
        }
        return;
    }
    $names = $o['cases'] ?? array_keys($all);
    foreach ($names as $n) {
        isset($all[$n]) || hx_die("unknown case $n (--list names them)");
    }
    $res = hx_backend();
    $res['options'] = array_intersect_key($o, array_flip(['reads', 'writes', 'keys', 'samples', 'warmup', 'seconds']));
    $res['cases'] = [];
    if (!$o['json']) {
        printf("# %s %s, serializer=%s%s, PHP %s\n", $res['backend'], $res['version'], $res['serializer'],
            $res['zero_copy'] === null ? '' : ', zero_copy=' . $res['zero_copy'], $res['php']);
        printf("%-32s %-6s %12s %12s %-9s %-11s %-9s\n", 'case', 'group', 'ns/read', 'ns/store', 'checksum', 'read path', 'store');
    }
    foreach ($names as $n) {
        $c = $all[$n];
        $payload = $c[1]();
        $want = serialize($payload);
        $r = ['group' => $c[0], 'checksum' => sprintf('%08x', crc32($want)), 'bytes' => strlen($want)];
        if ($o['read']) {
            [$r['read_ns'], $r['read_samples'], $r['read_path']] = hx_read($n, $c, $o, $payload, $want);
        }
        if ($o['store']) {
            [$r['store_ns'], $r['store_samples'], $r['store_path']] = hx_store($n, $o, $payload, $want);
        }
        apcu_clear_cache();
        $res['cases'][$n] = $r;
        if (!$o['json']) {
            printf("%-32s %-6s %12.1f %12.1f %-9s %-11s %-9s\n", $n, $r['group'], $r['read_ns'] ?? NAN,
                $r['store_ns'] ?? NAN, $r['checksum'], $r['read_path'] ?? '-', $r['store_path'] ?? '-');
        }
    }
    if ($o['json']) {
        echo json_encode($res, JSON_PRESERVE_ZERO_FRACTION), "\n";
    }
}

/* ---- --report: median ratios over pairs --------------------------------
 * Arguments: files named SER.PAIR.LABEL.json or SER.PAIR.LABEL.CASE.OP.json
 * (harness.sh: one per case and operation), LABEL "apcu" or a shardcache
 * mode ("copy", "zc"); the files of one SER.PAIR.LABEL make one run. For every SER and mode, per case and
 * operation: the ratio shardcache / APCu of each pair (the APCu run of the
 * same pair), and its median over the pairs. Geomeans of those medians:
 * read over the 'array' cases, read over the 'object' cases, store over
 * all. */

function hx_geomean(array $v): float
{
    if ($v === []) {
        return NAN;
    }
    return exp(array_sum(array_map('log', $v)) / count($v));
}

function hx_report(array $files): void
{
    $runs = [];
    foreach ($files as $f) {
        if (!preg_match('/(?:^|\/)([a-z]+)\.(\d+)\.([a-z]+)(?:\.[a-z_]+\.(?:read|store))?\.json$/', $f, $m)) {
            hx_die("--report: $f is not named SER.PAIR.LABEL[.CASE.OP].json");
        }
        $j = json_decode((string) file_get_contents($f), true, 512, JSON_THROW_ON_ERROR);
        $run = &$runs[$m[1]][(int) $m[2]][$m[3]];
        $run ??= ['cases' => []];
        foreach ($j['cases'] as $case => $r) {
            $run['cases'][$case] = array_merge($run['cases'][$case] ?? [], $r);
        }
        unset($run);
    }
    $cols = [];
    $ratios = [];
    $groups = [];
    $paths = [];
    foreach ($runs as $ser => $pairs) {
        foreach ($pairs as $pair) {
            $apcu = $pair['apcu'] ?? hx_die("--report: a $ser pair has no apcu run");
            foreach ($pair as $label => $run) {
                if ($label === 'apcu') {
                    continue;
                }
                $col = "$ser $label";
                $cols[$col] = true;
                foreach ($run['cases'] as $case => $r) {
                    $a = $apcu['cases'][$case] ?? hx_die("--report: APCu has no $case");
                    $a['checksum'] === $r['checksum'] || hx_die("--report: $case checksums differ between APCu and $col");
                    $groups[$case] = $r['group'];
                    $paths[$col][$case] = ($r['read_path'] ?? '-') . '/' . ($r['store_path'] ?? '-');
                    foreach (['read', 'store'] as $op) {
                        if (isset($r["{$op}_ns"], $a["{$op}_ns"])) {
                            $ratios[$col][$case][$op][] = $r["{$op}_ns"] / $a["{$op}_ns"];
                            $ratios[$col][$case]["{$op}_apcu"][] = $a["{$op}_ns"];
                            $ratios[$col][$case]["{$op}_sc"][] = $r["{$op}_ns"];
                        }
                    }
                }
            }
        }
    }
    $cols = array_keys($cols);
    /* the cases in harness-cases.inc's order */
    $groups = array_intersect_key(array_replace(array_fill_keys(array_keys(hx_cases()), null), $groups), $groups);
    /* php before igbinary, copy before zc */
    $rank = static fn (string $c): string => (str_starts_with($c, 'php ') ? '0' : '1') . $c;
    usort($cols, static fn (string $a, string $b): int => strcmp($rank($a), $rank($b)));
    $med = [];
    foreach ($ratios as $col => $cases) {
        foreach ($cases as $case => $ops) {
            foreach ($ops as $op => $v) {
                $med[$col][$case][$op] = hx_median($v);
            }
        }
    }
    $npairs = max(array_map('count', $runs ?: [[]]));
    echo "Median over $npairs pair(s) of shardcache time / APCu time (< 1: shardcache faster); "
        . "each cell read / store.\n\n";
    echo '| case | group | ' . implode(' | ', $cols) . " |\n";
    echo '|---|---|' . str_repeat('---|', count($cols)) . "\n";
    $above = [];
    foreach ($groups as $case => $g) {
        $cells = [];
        foreach ($cols as $col) {
            $r = $med[$col][$case]['read'] ?? NAN;
            $s = $med[$col][$case]['store'] ?? NAN;
            $cells[] = sprintf('%s / %s', hx_fmt($r), hx_fmt($s));
            if ($r > 1.0) {
                $above[$case][] = sprintf('read %s %.3f', $col, $r);
            }
            if ($s > 1.0) {
                $above[$case][] = sprintf('store %s %.3f', $col, $s);
            }
        }
        echo "| $case | $g | " . implode(' | ', $cells) . " |\n";
    }
    $geo = ['read: arrays/strings' => ['read', 'array'], 'read: objects' => ['read', 'object'], 'store: all' => ['store', null]];
    foreach ($geo as $label => [$op, $grp]) {
        $cells = [];
        foreach ($cols as $col) {
            $v = [];
            foreach ($groups as $case => $g) {
                if (($grp === null || $g === $grp) && isset($med[$col][$case][$op])) {
                    $v[] = $med[$col][$case][$op];
                }
            }
            $gm = hx_geomean($v);
            $cells[] = is_nan($gm) ? '-' : sprintf('**%.3f**', $gm);
        }
        echo "| geomean $label | | " . implode(' | ', $cells) . " |\n";
    }
    echo "\nAbsolute medians, ns per op (APCu read / shardcache read; APCu store / shardcache store) "
        . "and shardcache's path (read/store):\n\n";
    echo '| case | ' . implode(' | ', $cols) . " |\n";
    echo '|---|' . str_repeat('---|', count($cols)) . "\n";
    foreach ($groups as $case => $g) {
        $cells = [];
        foreach ($cols as $col) {
            $m = $med[$col][$case];
            $cells[] = sprintf('%.0f / %.0f; %.0f / %.0f; %s', $m['read_apcu'] ?? NAN, $m['read_sc'] ?? NAN,
                $m['store_apcu'] ?? NAN, $m['store_sc'] ?? NAN, $paths[$col][$case]);
        }
        echo "| $case | " . implode(' | ', $cells) . " |\n";
    }
    echo "\nAbove 1.0 (slower than APCu):" . ($above === [] ? " none\n" : "\n\n");
    foreach ($above as $case => $list) {
        echo "- $case: " . implode(', ', $list) . "\n";
    }
}

function hx_fmt(float $v): string
{
    return is_nan($v) ? '-' : ($v > 1.0 ? sprintf('**%.3f**', $v) : sprintf('%.3f', $v));
}

$o = hx_options($argv);
if ($o['report'] !== null) {
    hx_report($o['report']);
} else {
    hx_run($o);
}
