--TEST--
Stores over another process's entry: the key moves once, then no lock is taken
--DESCRIPTION--
The first store of a process moves the key into its own slabs under the
shard lock; every later one is written in place without it, by that process
and by every other, so a key moves at most once. Values stay right
throughout.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.shards=4
--FILE--
<?php
$rows = fn($i) => array_sum(array_column($i['per_shard'], 'updates'));
/* What the stores in $fn did: [locked updates, lockless updates]. */
function counted(callable $fn): string
{
    global $rows;
    $b = shardcache_info();
    $fn();
    $a = shardcache_info();
    return sprintf("locked %d, lockless %d", $rows($a) - $rows($b), $a['lockless_updates'] - $b['lockless_updates']);
}
function check(string $who, array $want): void
{
    foreach ($want as $k => $v) {
        if (apcu_fetch($k) !== $v) {
            echo "$who: $k is ", var_export(apcu_fetch($k), true), ", not ", var_export($v, true), "\n";
        }
    }
}
$keys = [];
for ($i = 0; $i < 10; $i++) {
    $keys["k$i"] = $i;
}
$keys['s'] = 'abcdef';
foreach ($keys as $k => $v) {
    apcu_store($k, $v);
}
echo "parent, over its own: ", counted(function () use ($keys) {
    foreach ($keys as $k => $v) {
        apcu_store($k, $v);
    }
}), "\n";

$pid = pcntl_fork();
if ($pid === 0) {
    $r = 0;
    foreach ([1, 2, 3] as $round) {
        $want = [];
        foreach ($keys as $k => $v) {
            $want[$k] = is_int($v) ? $v + 100 * $round : "round$round";
        }
        echo "child, round $round: ", counted(function () use ($want) {
            foreach ($want as $k => $v) {
                apcu_store($k, $v);
            }
        }), "\n";
        check("child round $round", $want);
    }
    // a key of its own, for the parent to store over
    apcu_store('mine', 1);
    exit(0);
}
pcntl_waitpid($pid, $status);
echo "child exited ", pcntl_wexitstatus($status), "\n";
check('parent', ['k0' => 300, 'k9' => 309, 's' => 'round3', 'mine' => 1]);

// The moved keys are homed: the parent (another lane) writes them in place.
echo "parent, over the moved keys: ", counted(function () use ($keys) {
    foreach ($keys as $k => $v) {
        apcu_store($k, is_int($v) ? -$v : 'parent');
    }
}), "\n";
check('parent', ['k0' => 0, 'k9' => -9, 's' => 'parent']);
echo "parent, over the child's key: ", counted(fn() => apcu_store('mine', 2)), "\n";
echo "parent, again: ", counted(fn() => apcu_store('mine', 3)), "\n";
var_dump(apcu_fetch('mine'));
$i = apcu_cache_info(true);
echo "entries: ", $i['num_entries'], "\n";
?>
--EXPECT--
parent, over its own: locked 0, lockless 11
child, round 1: locked 11, lockless 0
child, round 2: locked 0, lockless 11
child, round 3: locked 0, lockless 11
child exited 0
parent, over the moved keys: locked 0, lockless 11
parent, over the child's key: locked 1, lockless 0
parent, again: locked 0, lockless 1
int(3)
entries: 12
