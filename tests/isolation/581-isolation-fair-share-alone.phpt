--TEST--
shardcache.isolation=user: a user alone evicts its own entries in their shards
--DESCRIPTION--
A user that fills the segment three times over, alone, evicts its own
entries in the shard of each store (no other owner holds bytes, so its own
may go: sc_fair.h), with no expunge across the cache, and every store is
read back right after it.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork') || !function_exists('posix_setuid')) die('skip pcntl and posix needed');
if (posix_geteuid() !== 0) die('skip needs root (setuid to other users)');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--EXTENSIONS--
posix
--INI--
apc.enable_cli=1
apc.shm_size=8M
--FILE--
<?php
require __DIR__ . '/../lib/isolation.inc';

function value(int $i): string
{
    return str_pad("v-$i-", 1000, chr(97 + $i % 26));
}
function expunges(): int
{
    return apcu_cache_info(true)['expunges'];
}

iso_as(ISO_B, function () {
    $ok = 0;
    for ($i = 0; $i < 27000; $i++) {
        $ok += apcu_store("k$i", value($i)) && apcu_fetch("k$i") === value($i) ? 1 : 0;
    }
    printf("stores read back: %d/27000, expunges: %d\n", $ok, expunges());
});
?>
--EXPECT--
stores read back: 27000/27000, expunges: 0
