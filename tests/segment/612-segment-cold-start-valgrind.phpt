--TEST--
shardcache.segment, cold start under valgrind: close, checks, repair are clean
--DESCRIPTION--
The code a named segment runs when its last user closes it (each shard's
checksum, the chains of runs, the metadata checksum) and when the next
first user maps it (the metadata checked, each shard checked at its first
lock, a damaged shard emptied) runs in child PHP processes under valgrind
memcheck: no error in any of them, and every value read back exact or, in
the damaged shard only, false.
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache only');
if (!function_exists('proc_open')) die('skip needs proc_open');
if (getenv('SHARDCACHE_VALGRIND')) die('skip already under valgrind: the children below run under valgrind themselves');
if (getenv('ASAN_OPTIONS') !== false) die('skip under AddressSanitizer: the children below run under valgrind');
exec('command -v valgrind 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip valgrind not installed');
?>
--INI--
apc.enable_cli=1
--CONFLICTS--
valgrind
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
$seg = "$d/seg";
$ini = ['shardcache.segment' => $seg, 'apc.shm_size' => '4M', 'shardcache.shards' => '4', 'pcre.jit' => '0'];
$val = 'function val($i) { return $i % 3 ? "value-$i-" . str_repeat(chr(97 + $i % 26), 40 + 30 * $i) : [$i, "v$i"]; } ';
$make = $val . 'for ($i = 0; $i < 120; $i++) apcu_store("k$i", val($i)); apcu_inc("n", 3); echo "stored\n";';
$check = $val . '$wrong = $missing = 0; for ($i = 0; $i < 120; $i++) { $v = apcu_fetch("k$i");'
       . ' if ($v === false) $missing++; elseif ($v !== val($i)) $wrong++; }'
       . ' echo "wrong $wrong, missing ", $missing ? "some" : "none", ", repairs ", shardcache_info()["repairs"], "\n";';
// Runs $code in a child PHP under memcheck; its output and whether
// valgrind found errors.
function vg(array $ini, string $code): string {
    $log = tempnam(sys_get_temp_dir(), 'sc612');
    $cmd = array_merge(['valgrind', '--error-exitcode=99', "--log-file=$log"], seg_cmd($ini, $code));
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, null,
                   ['USE_ZEND_ALLOC' => '0', 'ZEND_DONT_UNLOAD_MODULES' => '1', 'PATH' => getenv('PATH')]);
    $out = trim(stream_get_contents($pipes[1]));
    fclose($pipes[1]);
    $rc = proc_close($p);
    $vg = file_get_contents($log);
    unlink($log);
    return $out . ($rc === 0 ? ' [clean]' : " [exit $rc]\n$vg");
}
echo "maker: ", vg($ini, $make), "\n";
echo "cold: ", vg($ini, $check), "\n";
$at = strpos(file_get_contents($seg), 'value-77-');
$h = fopen($seg, 'r+'); fseek($h, $at + 12); fwrite($h, 'Z'); fclose($h);
echo "damaged: ", vg($ini, $check), "\n";
?>
--EXPECT--
maker: stored [clean]
cold: wrong 0, missing none, repairs 0 [clean]
damaged: wrong 0, missing some, repairs 1 [clean]
