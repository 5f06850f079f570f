--TEST--
The identity is APCu 5.1.28's, checked against APCu 5.1.22 and later changes
--DESCRIPTION--
Checked against the real APCu 5.1.22 and what changed up to 5.1.28:
apcu_cache_info() keys (cleanups, and defragmentations before expunges, now
an int), the apc.* settings in order with their defaults (apc.shm_segments
gone, apc.mmap_hugepage_size after apc.mmap_file_mask, apc.entries_hint 0)
plus apc.expunge_threshold, and the Version line of php --ri apcu.
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache only');
if (!file_exists(ini_get('extension_dir') . '/apcu.so')) die('skip apcu.so not installed');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
// getINIEntries() first: ini_get_all() sorts PHP's table of settings.
$code = '$order = array_keys((new ReflectionExtension("apcu"))->getINIEntries());
    echo json_encode(["version" => phpversion("apcu"), "info" => array_map("gettype", apcu_cache_info(true)),
                      "ini" => ini_get_all("apcu", false), "order" => $order]);';
$run = function (string $ext) use ($code) {
    [$out, $status] = sc_run_php(["extension=$ext", 'apc.enable_cli=1'], $code);
    $j = json_decode($out, true);
    if ($status !== 0 || !is_array($j)) {
        echo "$ext failed: $out\n";
        exit(1);
    }
    return $j;
};
$apcu = $run('apcu.so');
$sc = $run(sc_extension_path());
// Debian ships 5.1.22 (bookworm, PHP 8.2) and 5.1.24 (trixie, PHP 8.4):
// neither changed the keys or settings checked below.
echo "real APCu: ", in_array($apcu['version'], ['5.1.22', '5.1.24'], true) ? '5.1.22 or 5.1.24' : $apcu['version'], "\n";

// apcu_cache_info: 5.1.25 added cleanups and defragmentations before
// expunges, and made expunges an int.
$want = [];
foreach ($apcu['info'] as $k => $t) {
    if ($k === 'expunges') {
        $want['cleanups'] = 'integer';
        $want['defragmentations'] = 'integer';
        $t = 'integer';
    }
    $want[$k] = $t;
}
var_dump($sc['info'] === $want);

// apc.* settings: 5.1.25 removed apc.shm_segments, 5.1.26 added
// apc.mmap_hugepage_size and the computed apc.entries_hint (0); shardcache
// adds APCu master's apc.expunge_threshold last.
$order = [];
foreach ($apcu['order'] as $name) {
    if ($name === 'apc.shm_segments') continue;
    $order[] = $name;
    if ($name === 'apc.mmap_file_mask') $order[] = 'apc.mmap_hugepage_size';
}
$order[] = 'apc.expunge_threshold';
var_dump($sc['order'] === $order);
$ini = $apcu['ini'];
unset($ini['apc.shm_segments']);
$ini['apc.entries_hint'] = '0';
$ini['apc.mmap_hugepage_size'] = '0';
$ini['apc.expunge_threshold'] = '0.5';
ksort($ini);
ksort($sc['ini']);
var_dump($sc['ini'] === $ini);
echo "shardcache's identity: ", $sc['version'], "\n";

ob_start();
(new ReflectionExtension('apcu'))->info();
var_dump(preg_match('/^Version => 5\.1\.28$/m', ob_get_clean()));
?>
--EXPECT--
real APCu: 5.1.22 or 5.1.24
bool(true)
bool(true)
bool(true)
shardcache's identity: 5.1.28
int(1)
