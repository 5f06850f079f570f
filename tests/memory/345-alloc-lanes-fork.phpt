--TEST--
Allocation lanes: processes storing into one shard fill slabs of their own
--DESCRIPTION--
Processes storing into the same shard at the same time fill slabs of their
own (no cache line holds entries of two processes). A forked child does not
keep its parent's lane. A process whose lane has no free object takes
another lane's before the pool's reserve or anything stored.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache_info not available');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.shards=1
--FILE--
<?php
/* Every key here is 3 bytes with an int value: one 64-byte entry header
 * plus the key, so every entry is one object of the 80-byte class, and a
 * one-page slab of that class holds 51 of them. */
const N = 20;

function class80(): array {
    foreach (shardcache_info()['classes'] as $c) {
        if ($c['size'] === 80) return ['slabs' => $c['slabs'], 'objects_used' => $c['objects_used']];
    }
    return [];
}
function show(string $label): void {
    $i = shardcache_info();
    $c = class80();
    // How many slabs a new process takes from other lanes depends on the
    // lane it gets (maybe the lane of one that has ended, with its slab):
    // 0, or some (1 to 3 below).
    printf("%s: class 80: %d slabs, %d objects; spare_runs %d, evicted %d, nomem %d, lane_steals %s\n", $label,
           $c['slabs'], $c['objects_used'], $i['spare_runs'], $i['evicted'], $i['nomem'],
           $i['lane_steals'] === 0 ? '0' : ($i['lane_steals'] <= 3 ? 'some' : $i['lane_steals']));
}

/* A child that stores key "<p>NN" => NN each time it reads a line from
 * its socket, and answers "ok" or "fail", until it reads "quit" (a child
 * forked later holds a copy of the parent's end, so no end-of-file). */
// Every value here is stored with a TTL that never runs out during the
// test: a delete of a small value without one keeps its entry for the
// key's next store (sc_lockless.c), and this test needs deletes that give
// the memory back at once.
const TTL = 100000;
function child(string $p) {
    [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        while (($line = fgets($theirs)) !== false && $line !== "quit\n") {
            $n = (int)$line;
            fwrite($theirs, apcu_store(sprintf('%s%02d', $p, $n), $n, TTL) ? "ok\n" : "fail\n");
        }
        exit(0);
    }
    fclose($theirs);
    return [$pid, $mine];
}
function ask($sock, int $n): string {
    fwrite($sock, "$n\n");
    return trim((string)fgets($sock));
}
function finish(array $kids): void {
    foreach ($kids as [$pid, $sock]) {
        fwrite($sock, "quit\n");
        fclose($sock);
        pcntl_waitpid($pid, $st);
        if (!pcntl_wifexited($st) || pcntl_wexitstatus($st) !== 0) echo "child failed\n";
    }
}
function check(string $p, int $n): int {
    $bad = 0;
    for ($i = 0; $i < $n; $i++) {
        if (apcu_fetch(sprintf('%s%02d', $p, $i)) !== $i) $bad++;
    }
    return $bad;
}

apcu_store('big', 1, TTL);  // the shard's table, and a liveness slot and lane for this process
apcu_delete('big');
show('start');

// The parent (p) and two children (a, b), one store each in turn: without
// lanes the three would share one slab, entries of two processes side by
// side on every other line.
$a = child('a');
$b = child('b');
$fail = 0;
for ($n = 0; $n < N; $n++) {
    $fail += !apcu_store(sprintf('p%02d', $n), $n, TTL);
    $fail += ask($a[1], $n) !== 'ok';
    $fail += ask($b[1], $n) !== 'ok';
}
finish([$a, $b]);
echo "failed stores: $fail; wrong values: ", check('p', N) + check('a', N) + check('b', N), "\n";
show('interleaved');

// One slab held a's entries and nothing else: deleting them empties it
// (a spare now), the other two keep theirs.
for ($n = 0; $n < N; $n++) apcu_delete(sprintf('a%02d', $n));
show('a deleted');
echo "wrong values: ", check('p', N) + check('b', N), "\n";

// The pool nearly empty (below its reserve: an eighth of the pages free),
// a new process stores 91 entries of the class: its lane has no free
// object (or, if it got the lane of a or b, that one's slab) and the pool
// none to spare, so it takes the free objects of the other lanes' slabs
// (a's emptied one: 51, p's and b's: 31 each) instead of failing or
// evicting anything; no new slab is cut.
$i = shardcache_info();
var_dump(apcu_store('big', str_repeat('x', $i['mem_free'] + $i['mem_spare'] - 3 * 4096)));
$c = child('c');
$fail = 0;
for ($n = 0; $n < 91; $n++) $fail += ask($c[1], $n) !== 'ok';
finish([$c]);
echo "failed stores: $fail; wrong values: ", check('p', N) + check('b', N) + check('c', 91), "\n";
show('c stored');
var_dump(strlen(apcu_fetch('big')));
?>
--EXPECTF--
start: class 80: 0 slabs, 0 objects; spare_runs 1, evicted 0, nomem 0, lane_steals 0
failed stores: 0; wrong values: 0
interleaved: class 80: 3 slabs, 60 objects; spare_runs 0, evicted 0, nomem 0, lane_steals 0
a deleted: class 80: 2 slabs, 40 objects; spare_runs 1, evicted 0, nomem 0, lane_steals 0
wrong values: 0
bool(true)
failed stores: 0; wrong values: 0
c stored: class 80: 3 slabs, 131 objects; spare_runs 0, evicted 0, nomem 0, lane_steals some
int(%d)
