--TEST--
shardcache.isolation=user: a user storing into one shard takes nothing of others
--DESCRIPTION--
A user that knows which of its keys fall into one shard (a tenant cannot
learn it through the functions: key hashes are keyed with the segment's
secret and per-shard figures are root's; the test models one that learned it
anyway, e.g. through FFI, by reading per_shard as root, which the child's
real uid allows), storing large values under 200 keys of that one shard,
fills the segment several times over while another user holds
20,000 entries within its fair share: the quiet user keeps every entry, in
three rounds with the users swapped. Each user's bytes are counted exactly per
shard (sc_fair.h); an estimate sampling some shards missed the crafted shard
and took the quiet user's entries instead.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork') || !function_exists('posix_setuid')) die('skip pcntl and posix needed');
if (posix_geteuid() !== 0) die('skip needs root (setuid to other users)');
if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: 60,000 stores and 3 floods of the segment take minutes under memcheck; 651 runs the same counting and eviction paths there');
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

const CRAFTED = 200;    // keys of one shard
const BIG = 150000;     // bytes of each of their values: 30M in all
const FLOOD = 800;      // stores: about 3.7 times the segment

/* The caller's keys that fall into one shard, found on an empty cache: a
 * probe key's shard is the one whose entries figure it changes. */
/* Each shard's entries, read as root (the child's real uid is root's;
 * its effective uid is taken back afterwards). */
function shard_entries(): array
{
    $uid = posix_geteuid();
    posix_seteuid(0);
    $e = array_column(shardcache_info()['per_shard'], 'entries');
    posix_seteuid($uid);
    return $e;
}

function crafted_keys(string $file): void
{
    $keys = [];
    $want = -1;
    for ($i = 0; count($keys) < CRAFTED; $i++) {
        $before = shard_entries();
        apcu_store("c$i", 1);
        $after = shard_entries();
        apcu_delete("c$i");
        foreach ($after as $s => $n) {
            if ($n !== $before[$s]) {
                $want = $want < 0 ? $s : $want;
                if ($s === $want) {
                    $keys[] = "c$i";
                }
            }
        }
    }
    file_put_contents($file, implode("\n", $keys));
}

function flood(string $file): void
{
    $keys = explode("\n", file_get_contents($file));
    $ok = 0;
    $before = shard_entries();
    for ($j = 0; $j < FLOOD; $j++) {
        $ok += apcu_store($keys[$j % CRAFTED], str_repeat(chr(65 + $j % 26), BIG)) ? 1 : 0;
    }
    // the shards whose entries the flood changed (root's count over all users)
    $shards = count(array_diff_assoc(shard_entries(), $before));
    echo "hog stored ", $ok > CRAFTED ? 'more than its keys' : "only $ok", ", its entries in $shards shard(s)\n";
}

$files = [];
foreach ([ISO_A, ISO_B] as $uid) {
    $files[$uid] = tempnam(sys_get_temp_dir(), 'scfair');
    chmod($files[$uid], 0666);
    iso_as($uid, fn() => crafted_keys($files[$uid]));
}
foreach ([[ISO_A, ISO_B], [ISO_B, ISO_A], [ISO_A, ISO_B]] as [$quiet, $hog]) {
    echo "=== quiet $quiet, hog $hog\n";
    iso_as($quiet, 'fair_quiet_stores');
    iso_as($hog, fn() => flood($files[$hog]));
    iso_as($quiet, 'fair_quiet_checks');
    var_dump(apcu_clear_cache());
}
foreach ($files as $f) {
    unlink($f);
}
?>
--EXPECT--
=== quiet 65534, hog 65533
quiet stored 20000/20000
hog stored more than its keys, its entries in 1 shard(s)
quiet kept 20000/20000, wrong 0
bool(true)
=== quiet 65533, hog 65534
quiet stored 20000/20000
hog stored more than its keys, its entries in 1 shard(s)
quiet kept 20000/20000, wrong 0
bool(true)
=== quiet 65534, hog 65533
quiet stored 20000/20000
hog stored more than its keys, its entries in 1 shard(s)
quiet kept 20000/20000, wrong 0
bool(true)
