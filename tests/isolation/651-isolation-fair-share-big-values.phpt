--TEST--
shardcache.isolation=user: a user rewriting 8 values of 5 MB evicts only its own
--DESCRIPTION--
No crafted key: a user stores 8 values of 5 MB under 8 ordinary keys and
rewrites them, more than the segment holds, while another user holds 20,000
entries within its fair share. The quiet user keeps every entry, in four
rounds with the users swapped. Eight entries lie in at most eight shards: an
estimate sampling some shards missed them in about half the rounds and took
the quiet user's entries instead; each user's bytes are now counted exactly
(sc_fair.h).
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
apc.shm_size=32M
--FILE--
<?php
require __DIR__ . '/../lib/isolation.inc';
require __DIR__ . '/../lib/fair.inc';

function rewrites(): void
{
    $ok = 0;
    for ($r = 0; $r < 6; $r++) {
        for ($k = 0; $k < 8; $k++) {
            $ok += apcu_store("big$k", str_repeat(chr(65 + ($r + $k) % 26), 5 << 20)) ? 1 : 0;
        }
    }
    echo "hog stored ", $ok >= 8 ? 'at least 8' : "only $ok", " of 48\n";
}

foreach ([[ISO_A, ISO_B], [ISO_B, ISO_A], [ISO_A, ISO_B], [ISO_B, ISO_A]] as [$quiet, $hog]) {
    echo "=== quiet $quiet, hog $hog\n";
    iso_as($quiet, 'fair_quiet_stores');
    iso_as($hog, 'rewrites');
    iso_as($quiet, 'fair_quiet_checks');
    var_dump(apcu_clear_cache());
}
?>
--EXPECT--
=== quiet 65534, hog 65533
quiet stored 20000/20000
hog stored at least 8 of 48
quiet kept 20000/20000, wrong 0
bool(true)
=== quiet 65533, hog 65534
quiet stored 20000/20000
hog stored at least 8 of 48
quiet kept 20000/20000, wrong 0
bool(true)
=== quiet 65534, hog 65533
quiet stored 20000/20000
hog stored at least 8 of 48
quiet kept 20000/20000, wrong 0
bool(true)
=== quiet 65533, hog 65534
quiet stored 20000/20000
hog stored at least 8 of 48
quiet kept 20000/20000, wrong 0
bool(true)
