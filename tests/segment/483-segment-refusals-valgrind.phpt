--TEST--
shardcache.segment refusals under valgrind: no error, nothing lost
--DESCRIPTION--
Refusals covered: a second hard link (looked at again, then refused), and a
FIFO at the lock file while replacing. Each child PHP runs under memcheck
with no error and nothing definitely lost, and its private segment works.
Test 288 covers making and mapping a segment under valgrind.
--SKIPIF--
<?php
if (getenv('SHARDCACHE_VALGRIND')) die('skip already under valgrind: the children below run under valgrind themselves');
if (getenv('ASAN_OPTIONS') !== false) die('skip under AddressSanitizer: the children below run under valgrind, which cannot run an ASan build');
if (!extension_loaded('shardcache')) die('skip shardcache only');
if (!function_exists('proc_open') || !function_exists('exec') || !function_exists('link')) die('skip needs proc_open, exec and link');
exec('command -v valgrind 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip valgrind not installed');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
function vg(string $label, array $ini, string $code): void
{
    global $d;
    $log = "$d/vg.log";
    $cmd = array_merge(['valgrind', '--leak-check=full', '--errors-for-leak-kinds=definite', '--show-leak-kinds=definite',
                        '--error-exitcode=99', "--log-file=$log"],
                       seg_cmd($ini + ['apc.shm_size' => '4M', 'pcre.jit' => '0', 'display_errors' => 'stderr'], $code));
    $env = ['ZEND_DONT_UNLOAD_MODULES' => '1', 'USE_ZEND_ALLOC' => '0', 'PATH' => getenv('PATH')];
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes, null, $env);
    $out = stream_get_contents($pipes[1]);
    $rc = proc_close($p);
    $vg = (string) file_get_contents($log);
    unlink($log);
    $out = trim(str_replace($d, 'D', $out));
    $errors = preg_match('/ERROR SUMMARY: (\d+) errors/', $vg, $m) ? (int) $m[1] : -1;
    $lost = preg_match('/definitely lost: ([\d,]+) bytes/', $vg, $m) ? (int) str_replace(',', '', $m[1]) : 0;
    printf("%s: exit %d, %d errors, %d bytes definitely lost\n%s\n", $label, $rc, $errors, $lost, $out);
    if ($rc !== 0 || $errors !== 0 || $lost !== 0) {
        echo "---- valgrind\n$vg\n";
    }
}
$use = 'var_dump(apcu_store("k", "v"), apcu_fetch("k")); echo "refused: ", shardcache_info()["segment_refused"], "\n";';
echo seg_php("$d/seg", 'var_dump(apcu_store("k", "v"));'), "\n";
link("$d/seg", "$d/second-name");
vg('second link', ['shardcache.segment' => "$d/seg"], $use);
unlink("$d/second-name");
$f = fopen("$d/seg", 'r+');
ftruncate($f, 100);
fclose($f);
exec('mkfifo -m 0666 ' . escapeshellarg("$d/.seg.lock"));
vg('lock FIFO', ['shardcache.segment' => "$d/seg"], $use);
?>
--EXPECT--
bool(true)
second link: exit 0, 0 errors, 0 bytes definitely lost
Warning: PHP Startup: shardcache: D/seg has 2 hard links (a segment has one); this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
string(1) "v"
refused: D/seg has 2 hard links (a segment has one)
lock FIFO: exit 0, 0 errors, 0 bytes definitely lost
Warning: PHP Startup: shardcache: D/.seg.lock is not a regular file; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
string(1) "v"
refused: D/.seg.lock is not a regular file
