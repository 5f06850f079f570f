--TEST--
zero-copy, segment at another address: readers copy and relocate every value
--DESCRIPTION--
A writer stores arrays (packed, hash, holes, int/float/numeric keys, nested,
empty, shared key strings) and a long string with zero-copy on, on a named
segment. Readers that map the segment elsewhere (one kept off the writer's
address by a blocker, one where ASLR put it, one with zero-copy off) copy
every value (relocating its pointers) and get every element right.

An array laid out by a PHP whose arrays have another shape is a miss.
Corrupt layouts give a warning and false, never a crash.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
$seg = "$d/seg";
$inc = "$d/vals.inc";
file_put_contents($inc, <<<'PHP'
<?php
function zc_vals(): array
{
    $packed = [];
    for ($i = 0; $i < 300; $i++) {
        $packed[] = $i % 3 ? $i * 7 : ($i % 2 ? "s$i" : $i / 4);
    }
    $hash = ['alpha' => 1, 'beta' => 'two', 7 => 3.5, -9 => null, 'yes' => true, 'no' => false,
             '12x' => 'numeric-looking', 'nested' => ['x' => [1, 2, [3, 'deep']], 'y' => str_repeat('y', 100)],
             'empty' => [], 'emptyn' => [[]], PHP_INT_MAX => 'max', PHP_INT_MIN => 'min', '' => 'empty key'];
    $holes = [0, 1, 2, 3, 4, 5];
    unset($holes[1], $holes[4]);
    $tail = ['a', 'b', 'c'];
    unset($tail[2]);                      // next index 3, two elements
    $floatk = [1.0 => 'one', 2.0 => 'two', -3.0 => 'minus three', '10' => 'ten', '-5' => 'minus five', '05' => 'string key'];
    $big = [];
    for ($i = 0; $i < 2000; $i++) {
        $big["k$i"] = ['id' => $i, 'name' => "n$i", 'tags' => [$i, $i + 1], 'f' => $i + 0.5];
    }
    $rows = [];
    for ($i = 0; $i < 50; $i++) {
        $rows[] = ['id' => $i, 'label' => "L$i"];   // the same key strings row after row
    }
    return ['packed' => $packed, 'hash' => $hash, 'holes' => $holes, 'tail' => $tail, 'floatk' => $floatk,
            'big' => $big, 'rows' => $rows, 'str' => str_repeat('0123456789', 30)];
}

// Fetches every value twice, compares every element (===: keys, order,
// types, nested), appends to each fetched array (it must separate and use
// the same next index as the original). Prints the figures.
function zc_check(string $who): void
{
    $bad = 0;
    $n = 0;
    foreach (zc_vals() as $k => $want) {
        $got = apcu_fetch($k, $ok);
        $n++;
        if (!$ok || $got !== $want) {
            $bad++;
            echo "$who: $k differs\n";
            continue;
        }
        if (is_array($want)) {
            $append = function (array $a) {
                try {
                    $a[] = 'appended';
                    return $a;
                } catch (Error $e) {
                    return $e->getMessage();   // next index taken (PHP_INT_MAX is a key)
                }
            };
            if ($append($got) !== $append($want)) {
                $bad++;
                echo "$who: $k differs after an append\n";
            }
        }
        if (apcu_fetch($k) !== $want) {
            $bad++;
            echo "$who: $k differs at the second fetch\n";
        }
    }
    $zc = shardcache_info()['zero_copy'];
    echo "$who: $n values, $bad wrong, copied {$zc['copied']}, foreign {$zc['foreign']}\n";
}

// A zero-copy array of this process, so that the test can find where it
// maps the segment (the layout records the address it was built at).
function zc_probe(string $who): void
{
    apcu_store("probe-$who", ['probe' => "PROBE-$who-" . str_repeat('p', 40)]);
}
PHP);

// Where the process that stored $marker has the segment mapped: the header
// of the layout holding $marker (the nearest magic before it) records its
// own address.
function base_of(string $seg, string $marker): array
{
    $bytes = file_get_contents($seg);
    $m = strpos($bytes, $marker);
    $h = $m === false ? false : strrpos(substr($bytes, 0, $m), pack('V', 0x5a43314b));
    if ($h === false) {
        return [0, -1];
    }
    return [unpack('P', substr($bytes, $h + 8, 8))[1] - $h, $h];
}

function run(string $seg, string $inc, string $code, array $ini = [], ?string $avoid = null): void
{
    putenv($avoid === null ? 'SHARDCACHE_TEST_AVOID_ADDR' : "SHARDCACHE_TEST_AVOID_ADDR=$avoid");
    echo seg_php($seg, "require '$inc'; $code", $ini + ['apc.shm_size' => '8M']), "\n";
    putenv('SHARDCACHE_TEST_AVOID_ADDR');
}

$on = ['shardcache.zero_copy' => '1'];
run($seg, $inc, 'foreach (zc_vals() as $k => $v) { if (!apcu_store($k, $v)) echo "store $k failed\n"; }
    foreach (["v1" => "ABI", "v2" => "ROOT", "v3" => "COUNT", "v4" => "STRLEN"] as $k => $m) {
        apcu_store($k, ["marker" => "VICTIM-$m-" . str_repeat("v", 40), "n" => [1, 2, 3]]);
    }
    zc_probe("writer"); zc_check("writer"); echo "zero-copy bytes: ", shardcache_info()["zero_copy"]["bytes"] > 0 ? "yes" : "no", "\n";', $on);
[$wbase] = base_of($seg, 'PROBE-writer-');
printf("writer base found: %s\n", $wbase > 0 && $wbase % 4096 === 0 ? 'yes' : 'no');

// 1. Kept off the writer's address by a blocker (test-only knob).
run($seg, $inc, 'zc_probe("blocked"); zc_check("blocked");', $on, dechex($wbase));
[$b1] = base_of($seg, 'PROBE-blocked-');
printf("blocked reader at another address: %s\n", $b1 > 0 && $b1 !== $wbase ? 'yes' : 'no');

// 2. Where the kernel put it: with ASLR another address (under valgrind,
// which traces the children without ASLR, the same one): copied there,
// borrowed here. The reader is the segment's first user since the last
// detach: it locks every shard first (shardcache_info), so no probe is
// read through the first lock's check of a pending shard, which copies.
putenv('SHARDCACHE_TEST_AVOID_ADDR');
$out = seg_php($seg, "require '$inc'; shardcache_info(); zc_probe('aslr'); zc_check('aslr');", $on + ['apc.shm_size' => '8M']);
[$b2] = base_of($seg, 'PROBE-aslr-');
$copied = preg_match('/^aslr: 8 values, 0 wrong, copied (\d+), foreign 0$/', $out, $m) ? (int)$m[1] : -1;
printf("aslr reader: all right, and copied exactly when at another address: %s\n",
       $b2 > 0 && ($b2 !== $wbase ? $copied === 16 : $copied === 0) ? 'yes' : "no: $out");

// 3. Zero-copy off in the reader.
run($seg, $inc, 'zc_check("off");', ['shardcache.zero_copy' => '0']);

// 4. Hostile bytes, written into the segment file (the mapping is shared)
// while a process maps it: a live segment (bytes changed in a file nobody
// maps would make its next user start it afresh, and bytes of a shard that
// no process has locked since the restart empty the shard at its check:
// the holder locks every shard first, with shardcache_info()).
$holder = proc_open(seg_cmd(['shardcache.segment' => $seg] + $on + ['apc.shm_size' => '8M'], 'shardcache_info(); echo "ready\n"; fgets(STDIN);'),
                    [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $hp);
while (($l = fgets($hp[1])) !== false && trim($l) !== 'ready');
$bytes = file_get_contents($seg);
$f = fopen($seg, 'r+');
foreach (['ABI', 'ROOT', 'COUNT', 'STRLEN'] as $m) {
    $at = strpos($bytes, "VICTIM-$m-");
    $h = strrpos(substr($bytes, 0, $at), pack('V', 0x5a43314b));
    $self = unpack('P', substr($bytes, $h + 8, 8))[1];
    $root = unpack('P', substr($bytes, $h + 16, 8))[1] - $self + $h;
    if ($m === 'ABI') {
        fseek($f, $h + 4);                 // php_sc_zc_hdr.abi
        fwrite($f, pack('V', 12345));
        fseek($f, $h + 36);                // php_sc_zc_hdr.shape: arrays of another shape
        fwrite($f, pack('V', 12345));
    } elseif ($m === 'ROOT') {
        fseek($f, $h + 16);                // php_sc_zc_hdr.root: far outside the value
        fwrite($f, pack('P', $self + (1 << 40)));
    } elseif ($m === 'COUNT') {
        fseek($f, $root + 24);             // zend_array.nNumUsed (after gc, flags, nTableMask, arData)
        fwrite($f, pack('V', 0x7ffffff0));
    } else {
        fseek($f, $at - 24 + 16);          // the marker string's zend_string.len
        fwrite($f, pack('P', 1 << 40));
    }
}
fclose($f);
run($seg, $inc, 'set_error_handler(function ($no, $msg) { echo "warning: $msg\n"; return true; });
    foreach (["v1", "v2", "v3", "v4"] as $k) { $v = apcu_fetch($k, $ok); echo "$k: ", var_export($v, true), ", success ", var_export($ok, true), "\n"; }
    zc_check("after corruption");', $on, dechex($wbase));
fclose($hp[0]); fclose($hp[1]); proc_close($holder);
?>
--EXPECT--
writer: 8 values, 0 wrong, copied 0, foreign 0
zero-copy bytes: yes
writer base found: yes
blocked: 8 values, 0 wrong, copied 16, foreign 0
blocked reader at another address: yes
aslr reader: all right, and copied exactly when at another address: yes
off: 8 values, 0 wrong, copied 16, foreign 0
v1: false, success false
warning: apcu_fetch(): shardcache: a zero-copy value in the cache is corrupt
v2: false, success true
warning: apcu_fetch(): shardcache: a zero-copy value in the cache is corrupt
v3: false, success true
warning: apcu_fetch(): shardcache: a zero-copy value in the cache is corrupt
v4: false, success true
after corruption: 8 values, 0 wrong, copied 16, foreign 1
