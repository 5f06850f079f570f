--TEST--
shardcache.shards=0 (the default): one shard per 512 KiB, 64 to 1024, no warning
--DESCRIPTION--
One shard per 512 KiB of apc.shm_size, a power of two from 64 to 1024 (fewer
only where the segment is too small for 64, as for any count), and no
warning.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache only: APCu has no shards'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--INI--
apc.enable_cli=1
shardcache.shards=0
--FILE--
<?php
require __DIR__ . '/../lib/ini-extreme.inc';
echo "this process (32M): ", shardcache_info()['shards'], "\n";
// Other segment sizes in child processes: the shard count is fixed at startup.
// The extension as this process was given it (run-tests passes it with -d).
$args = explode("\0", rtrim(file_get_contents('/proc/self/cmdline'), "\0"));
$ext = 'shardcache';
foreach ($args as $i => $a) {
    $v = $a === '-d' ? ($args[$i + 1] ?? '') : (str_starts_with($a, '-d') ? substr($a, 2) : '');
    if (str_starts_with($v, 'extension=') && str_contains($v, 'shardcache')) {
        $ext = substr($v, strlen('extension='));
    }
}
foreach (['', '0'] as $ini) {
    foreach (['1M', '32M', '33M', '64M', '128M', '256M', '512M', '2G'] as $shm) {
        $cmd = [PHP_BINARY, '-n', '-d', 'extension_dir=' . ini_get('extension_dir'), '-d', "extension=$ext",
                '-d', 'apc.enable_cli=1', '-d', "apc.shm_size=$shm"];
        if ($ini !== '') {
            array_push($cmd, '-d', "shardcache.shards=$ini");
        }
        array_push($cmd, '-r', 'echo shardcache_info()["shards"], "|", apcu_store("k", 1) ? "ok" : "fail";');
        $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $out = stream_get_contents($pipes[1]);
        $err = stream_get_contents($pipes[2]);
        proc_close($p);
        printf("%s shards=%s: %s%s\n", $shm, $ini === '' ? '(unset)' : $ini, trim($out), trim($err) === '' ? '' : " stderr: $err");
    }
}
?>
--EXPECT--
enabled: true
[true,"v",false,true,[],true,5,3,true,10,"computed e",true,true,true,false,true,false]
many: ok
this process (32M): 64
1M shards=(unset): 16|ok
32M shards=(unset): 64|ok
33M shards=(unset): 64|ok
64M shards=(unset): 128|ok
128M shards=(unset): 256|ok
256M shards=(unset): 512|ok
512M shards=(unset): 1024|ok
2G shards=(unset): 1024|ok
1M shards=0: 16|ok
32M shards=0: 64|ok
33M shards=0: 64|ok
64M shards=0: 128|ok
128M shards=0: 256|ok
256M shards=0: 512|ok
512M shards=0: 1024|ok
2G shards=0: 1024|ok
