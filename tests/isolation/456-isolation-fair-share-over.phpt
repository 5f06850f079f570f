--TEST--
shardcache.isolation=user: a user over its fair share loses entries to others
--DESCRIPTION--
A user holding more than its fair share loses entries to another user's
stores, down to about its share and no further. With three users, two quiet
ones keep everything. A user's own clear deletes its entries and their
bytes: it is no longer counted above its share.
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
apc.shm_size=8M
--FILE--
<?php
require __DIR__ . '/../lib/isolation.inc';
const ISO_C = 65532;

function value(string $p, int $i): string
{
    return str_pad("$p-$i-", 1000, chr(97 + $i % 26));
}

function fill(string $p, int $n): void
{
    $ok = 0;
    for ($i = 0; $i < $n; $i++) {
        $ok += apcu_store("$p$i", value($p, $i)) ? 1 : 0;
    }
    echo "$p stored $ok/$n\n";
}

/* Of keys $p0.., how many are kept (and any wrong value). */
function kept(string $p, int $n): int
{
    $kept = 0;
    for ($i = 0; $i < $n; $i++) {
        $v = apcu_fetch("$p$i", $found);
        if ($found && $v !== value($p, $i)) {
            echo "$p$i: wrong value\n";
        }
        $kept += $found ? 1 : 0;
    }
    return $kept;
}

function share(int $uid): float
{
    $users = shardcache_info()['users'];
    return $users[$uid]['mem_size'] / array_sum(array_column($users, 'mem_size'));
}

echo "=== a user above its share\n";
// Big fills about 70% of the segment, then hog stores 4 times the segment.
iso_as(ISO_A, function () { fill('big', 5500); });
iso_as(ISO_B, function () { fill('hog', 30000); });
iso_as(ISO_A, function () {
    $k = kept('big', 5500);
    echo 'big kept some, not all: ', json_encode($k > 0 && $k < 5500), "\n";
});
$s = share(ISO_A);
echo 'big holds about half the bytes: ', json_encode($s > 0.35 && $s < 0.65), "\n";
var_dump(apcu_clear_cache());

echo "=== two quiet users, one hog\n";
iso_as(ISO_A, function () { fill('qa', 750); });
iso_as(ISO_C, function () { fill('qc', 750); });
iso_as(ISO_B, function () { fill('hog', 30000); });
iso_as(ISO_A, function () { echo 'qa kept ', kept('qa', 750), "\n"; });
iso_as(ISO_C, function () { echo 'qc kept ', kept('qc', 750), "\n"; });
var_dump(apcu_clear_cache());

echo "=== a hog clears its own entries, then stores a few\n";
// Its own clear takes its bytes off its count (each delete does): the
// next hog's stores leave its few new entries alone.
iso_as(ISO_A, function () {
    fill('hog', 30000);
    var_dump(apcu_clear_cache());
    fill('qa', 300);
});
iso_as(ISO_B, function () { fill('hogb', 30000); });
iso_as(ISO_A, function () { echo 'qa kept ', kept('qa', 300), "\n"; });
var_dump(apcu_clear_cache());
?>
--EXPECT--
=== a user above its share
big stored 5500/5500
hog stored 30000/30000
big kept some, not all: true
big holds about half the bytes: true
bool(true)
=== two quiet users, one hog
qa stored 750/750
qc stored 750/750
hog stored 30000/30000
qa kept 750
qc kept 750
bool(true)
=== a hog clears its own entries, then stores a few
hog stored 30000/30000
bool(true)
qa stored 300/300
hogb stored 30000/30000
qa kept 300
bool(true)
