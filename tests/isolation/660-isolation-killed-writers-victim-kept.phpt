--TEST--
Isolation: a user SIGKILLing its own writers loses no entry of another user
--DESCRIPTION--
Issue 43 item 2. User B forks writers that store and delete small values
(slab objects) and large ones (page runs, taken from and given back to the
page pool under its lock) in the same shards as user A's 5,000 entries,
and SIGKILLs each after a random delay (0 to 3 ms after it reported
that it runs), 250 times, as a tenant may kill its own FPM workers. A
writer killed inside a shard's lock used to make the next locker empty the
whole shard (every user's entries in it), one killed inside the page
pool's lock a reset of the whole cache. Now the repair keeps every entry
it can prove whole: all 5,000 of A's entries read back exactly, and no
full reset happens. The repairs figure shows that kills landed inside
writes (250 kills at random make dozens; the check asks for at least one).
Two rounds, each with a fresh victim set, as the users' processes stay
forked from one parent as FPM's pools are.
--SKIPIF--
<?php
if (!function_exists('pcntl_fork') || !function_exists('posix_setuid')) die('skip pcntl and posix needed');
if (posix_geteuid() !== 0) die('skip needs root (setuid to other users)');
// Under valgrind every forked writer (250 a round, as another user) would
// need its own vgdb files in /tmp, which fail when an old one of another
// user has its pid; tests/isolation/killed-writers.sh covers the same
// repairs without valgrind.
if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: hundreds of processes forked as another user and killed');
?>
--EXTENSIONS--
posix
pcntl
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.shards=4
--FILE--
<?php
require __DIR__ . '/../lib/isolation.inc';

const VICTIM_KEYS = 5000;
const KILLS = 250;

function victim_value(int $round, int $i): string
{
    return "victim-$round-$i-" . str_repeat(chr(97 + $i % 26), $i % 200);
}

function victim_stores(int $round): void
{
    $ok = 0;
    for ($i = 0; $i < VICTIM_KEYS; $i++) {
        $ok += apcu_store("v$round-$i", victim_value($round, $i)) ? 1 : 0;
    }
    echo "victim stored $ok/", VICTIM_KEYS, "\n";
}

function victim_checks(int $round): void
{
    $kept = $wrong = 0;
    for ($i = 0; $i < VICTIM_KEYS; $i++) {
        $v = apcu_fetch("v$round-$i", $found);
        if ($found) {
            $v === victim_value($round, $i) ? $kept++ : $wrong++;
        }
    }
    echo "victim kept $kept/", VICTIM_KEYS, ", wrong $wrong\n";
}

/* One writer of the attacker: stores and deletes small and large values
 * for ever; tells its parent it runs through the pipe. */
function writer(int $seed, $pipe): void
{
    mt_srand($seed);
    fwrite($pipe, "r");
    for ($n = 0;; $n++) {
        $k = mt_rand(0, 400);
        switch ($n % 5) {
            case 0: apcu_store("s$k", str_repeat('s', mt_rand(1, 3000))); break;
            case 1: apcu_store("L$k", str_repeat('L', mt_rand(33000, 200000))); break;
            case 2: apcu_delete("s" . mt_rand(0, 400)); break;
            case 3: apcu_delete("L" . mt_rand(0, 400)); break;
            default: apcu_store("n$k", $n); break;
        }
    }
}

function attacker(): void
{
    $landed = 0;
    for ($kill = 0; $kill < KILLS; $kill++) {
        [$r, $w] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
        $pid = pcntl_fork();
        if ($pid === 0) {
            fclose($r);
            writer($kill, $w);
            exit(0);
        }
        fclose($w);
        fread($r, 1);   // it runs: the kill lands somewhere in its loop
        usleep(mt_rand(0, 3000));
        posix_kill($pid, SIGKILL);
        pcntl_waitpid($pid, $st);
        fclose($r);
        $landed += pcntl_wifsignaled($st) ? 1 : 0;
    }
    // A store into every shard: each shard a killed writer left is
    // repaired by now.
    for ($i = 0; $i < 64; $i++) {
        apcu_store("after$i", $i);
    }
    echo "attacker killed $landed/", KILLS, " writers\n";
}

$before = shardcache_info();
foreach ([1, 2] as $round) {
    echo "=== round $round\n";
    iso_as(ISO_A, fn() => victim_stores($round));
    iso_as(ISO_B, 'attacker');
    iso_as(ISO_A, fn() => victim_checks($round));
}
$after = shardcache_info();
printf("repairs made: %s; full resets: %d\n", $after['repairs'] > $before['repairs'] ? 'yes' : 'none',
       $after['resets'] - $before['resets']);
?>
--EXPECT--
=== round 1
victim stored 5000/5000
attacker killed 250/250 writers
victim kept 5000/5000, wrong 0
=== round 2
victim stored 5000/5000
attacker killed 250/250 writers
victim kept 5000/5000, wrong 0
repairs made: yes; full resets: 0
