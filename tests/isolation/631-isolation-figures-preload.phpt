--TEST--
shardcache.isolation=user: reads of a preloaded key move no user's figures
--DESCRIPTION--
Issue 43, figures. Preloaded entries are read by every user, and a read
records its sampled hit and access time in the entry. A tenant therefore
reads 0 hits and the store time as access time for them (apcu_key_info,
apcu_cache_info's list and num_hits, APCUIterator's rows and total hits,
shardcache_info's hits): user A reading 'str' 64 times (two sampled hits)
moves nothing user B reads. Root reads the entry's real hits. (The
startup warning is the preload directory's out-of-range number, as in 451.)
--SKIPIF--
<?php
if (!function_exists('pcntl_fork') || !function_exists('posix_setuid')) die('skip pcntl and posix needed');
if (posix_geteuid() !== 0) die('skip needs root (setuid to other users)');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--EXTENSIONS--
posix
--INI--
apc.enable_cli=1
apc.preload_path={PWD}/../preload/plain
--FILE--
<?php
require __DIR__ . '/../lib/isolation.inc';

/* What B reads of the preloaded 'str', and its totals. */
function b_view(): void
{
    $row = array_values(array_filter(apcu_cache_info()['cache_list'], fn($r) => $r['info'] === 'str'))[0];
    $it = new APCUIterator('/^str$/');
    $it_row = $it->current();
    echo json_encode([apcu_key_info('str')['hits'], apcu_key_info('str')['access_time'] === apcu_key_info('str')['mtime'],
                      $row['num_hits'], $row['access_time'] === $row['mtime'], $it_row['num_hits'], $it->getTotalHits(),
                      (new APCUIterator())->getTotalHits(), apcu_cache_info(true)['num_hits'], shardcache_info()['hits']]), "\n";
}

echo 'root: hits of str ', apcu_key_info('str')['hits'], "\n";
iso_as(ISO_B, 'b_view');
iso_as(ISO_A, function () {
    $same = 0;
    for ($i = 0; $i < 64; $i++) {
        $same += apcu_fetch('str') !== false ? 1 : 0;
    }
    echo "A read str $same times\n";
});
iso_as(ISO_B, 'b_view');
echo 'root: hits of str ', apcu_key_info('str')['hits'], "\n";
?>
--EXPECTF--
%r(Deprecated: PHP Startup: Unserializing the 'S' format is deprecated in Unknown on line 0\n\n)?%rWarning: PHP Startup: Numerical result out of range in Unknown on line 0
root: hits of str 0
[0,true,0,true,0,0,0,0,0]
A read str 64 times
[0,true,0,true,0,0,0,0,0]
root: hits of str 64
