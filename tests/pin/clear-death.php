<?php
// Driven by tests/pin/run.sh (mode clear-killed), with shardcache.shards=4096
// and a segment big enough to keep them all. This process fills every
// shard, then forks a child that calls apcu_clear_cache() in a loop; gdb
// stops the child where a clear holds the most locks at once (inside the
// page pool's reset: the global lock, the pool lock, and every shard
// owned by the clear) and kills it there.
// On thread death the kernel recovers at most 2048 robust mutexes of the
// thread's list (newest first): a lock beyond that stays held by the dead
// thread with no "owner died" mark and every later locker sleeps for
// ever. So afterwards this process must be able to store into and fetch
// from every shard, clear the cache and store again, all within the
// alarm (SIGALRM, no handler, ends a hung process and fails the test).
// Commands come one per line on stdin ("killed").
$keys = 40000;  // every one of 4096 shards gets some (expected empty: < 1)
$shards = shardcache_info()['shards'];
$fill = function (string $prefix) use ($keys): int {
    $ok = 0;
    for ($i = 0; $i < $keys; $i++) {
        $ok += apcu_store("$prefix$i", [$prefix, $i]) ? 1 : 0;
    }
    return $ok;
};
$check = function (string $prefix) use ($keys): int {
    $ok = 0;
    for ($i = 0; $i < $keys; $i++) {
        $ok += apcu_fetch("$prefix$i") === [$prefix, $i] ? 1 : 0;
    }
    return $ok;
};
$stored = $fill('a');
$pid = pcntl_fork();
if ($pid === 0) {
    for (;;) {
        apcu_clear_cache();
    }
}
echo "child $pid\n";
$line = trim((string)fgets(STDIN));
if ($line !== 'killed') {
    echo "script said: " . var_export($line, true) . "\n";
    posix_kill($pid, SIGKILL);
    pcntl_waitpid($pid, $status);
    exit(1);
}
pcntl_waitpid($pid, $status);
echo "shards: $shards, stored before: ", $stored === $keys ? 'all' : $stored, "\n";
echo "reaped, killed by signal ", pcntl_wtermsig($status), "\n";
pcntl_alarm(30);   // no handler: a locker stuck on a lost lock dies of SIGALRM
echo "stores after the death: ", $fill('b') === $keys ? 'all' : 'some failed', "\n";
echo "fetches after the death: ", $check('b') === $keys ? 'all right' : 'some wrong', "\n";
echo "old keys left: ", $check('a') === 0 ? 'none' : 'some', "\n";
var_dump(apcu_clear_cache());
echo "entries after the second clear: ", apcu_cache_info(true)['num_entries'], "\n";
echo "fetches after the second clear: ", $check('b') === 0 ? 'all misses' : 'some hits', "\n";
echo "stores after the second clear: ", $fill('c') === $keys ? 'all' : 'some failed', "\n";
echo "fetches after the second clear: ", $check('c') === $keys ? 'all right' : 'some wrong', "\n";
pcntl_alarm(0);
echo "ok\n";
