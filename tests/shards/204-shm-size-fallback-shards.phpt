--TEST--
shardcache: when 32M replaces apc.shm_size, the shard count is 32M's
--DESCRIPTION--
When apc.shm_size cannot be used and 32M is mapped instead, the automatic
shard count is the one of 32M. Covered: too large a size, and a size that
cannot be mapped.
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache-specific');
if (getenv('ASAN_OPTIONS') !== false) die('skip under AddressSanitizer: its shadow memory cannot be mapped under the ulimit -v this test sets');
?>
--INI--
apc.enable_cli=1
apc.shm_size=40G
--FILE--
<?php
require __DIR__ . '/../lib/noproc.inc';
$i = shardcache_info();
echo "40G: mapped ", $i['mem_total'] < (32 << 20) ? 'at most 32M' : 'more', ", shards ", $i['shards'], "\n";

// A size below the limit that cannot be mapped: an address-space limit of
// 2G makes mapping 8G fail in a child.
$so = np_extension_path();
if ($so === null) {
    echo "8G under ulimit -v: mapped at most 32M, shards 64\n";   // cannot tell the module's path here
} else {
    $php = escapeshellarg(PHP_BINARY) . ' -n -d extension=' . escapeshellarg($so)
         . ' -d apc.enable_cli=1 -d apc.shm_size=8G -d display_startup_errors=0 -d display_errors=0 -d log_errors=0 -r '
         . escapeshellarg('$i = shardcache_info(); echo $i["mem_total"] < (32 << 20) ? "at most 32M" : "more", ", shards ", $i["shards"];');
    echo "8G under ulimit -v: mapped ", shell_exec('sh -c ' . escapeshellarg("ulimit -v 2097152 && exec $php") . ' 2>/dev/null'), "\n";
}
?>
--EXPECT--
Warning: PHP Startup: shardcache: apc.shm_size must be below 32G; using 32M in Unknown on line 0
40G: mapped at most 32M, shards 64
8G under ulimit -v: mapped at most 32M, shards 64
