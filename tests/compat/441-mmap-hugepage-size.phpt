--TEST--
apc.mmap_hugepage_size: APCu 5.1.28's checks; a valid size asks for huge pages
--DESCRIPTION--
The setting comes from APCu 5.1.28: default 0, system-only. The values APCu
5.1.28 refuses stop startup with its errors. A power of two that divides
apc.shm_size starts and asks for transparent huge pages on the segment
(madvise: VmFlags "hg"); 0 does not.
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache only');
if (!is_readable('/proc/self/smaps')) die('skip /proc/self/smaps not readable');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
$code = '$hg = false; /* any mapping of the segment\'s size: valgrind adds its own */
    foreach (preg_split("/\n(?=[0-9a-f]+-[0-9a-f]+ )/", file_get_contents("/proc/self/smaps")) as $m) {
        if (preg_match("/^Size:\s+(\d+) kB/m", $m, $s) && (int)$s[1] === (int)(ini_get("apc.shm_size")) * 1024
            && preg_match("/^VmFlags:(.*)$/m", $m, $f)) {
            $hg = $hg || in_array("hg", preg_split("/\s+/", trim($f[1])));
        }
    }
    echo json_encode([ini_get("apc.mmap_hugepage_size"), apcu_enabled(), apcu_store("k", [1]), apcu_fetch("k"), $hg]), "\n";';
$cases = [['0', '4M'], ['2M', '4M'], ['2097152', '8M'], ['-1', '4M'], ['1000', '4M'], ['2M', '3M'], ['1', '4M']];
foreach ($cases as [$hp, $size]) {
    [$out, $status] = sc_run_php(['extension=' . sc_extension_path(), 'apc.enable_cli=1', "apc.shm_size=$size",
                                  "apc.mmap_hugepage_size=$hp", 'display_startup_errors=1', 'log_errors=0'], $code);
    echo "$hp $size: exit ", $status === 0 ? 0 : 'non-zero', "\n", sc_strip_startup_trace(trim($out), $status), "\n";
}
echo "-- here\n";
$entry = ini_get_all('apcu')['apc.mmap_hugepage_size'];
if (PHP_VERSION_ID >= 80600) {
    // PHP 8.6 also lists each setting's built-in default.
    if (($entry['builtin_default_value'] ?? null) !== '0') {
        echo "builtin_default_value is not \"0\"\n";
    }
    unset($entry['builtin_default_value']);
}
var_dump(ini_get('apc.mmap_hugepage_size'), ini_set('apc.mmap_hugepage_size', '2M'), $entry);
?>
--EXPECT--
0 4M: exit 0
["0",true,true,[1],false]
2M 4M: exit 0
["2M",true,true,[1],true]
2097152 8M: exit 0
["2097152",true,true,[1],true]
-1 4M: exit non-zero
Fatal error: PHP Startup: apc.mmap_hugepage_size must be a positive integer in Unknown on line 0
1000 4M: exit non-zero
Fatal error: PHP Startup: apc.mmap_hugepage_size must be a power of 2 in Unknown on line 0
2M 3M: exit non-zero
Fatal error: apc.shm_size must be a multiple of apc.mmap_hugepage_size in Unknown on line 0
1 4M: exit non-zero
Fatal error: Invalid hugepage size: 1 in Unknown on line 0
-- here
string(1) "0"
bool(false)
array(3) {
  ["global_value"]=>
  string(1) "0"
  ["local_value"]=>
  string(1) "0"
  ["access"]=>
  int(4)
}
