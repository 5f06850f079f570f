--TEST--
Fetch memo: a process sees every change others make to keys it has fetched
--DESCRIPTION--
A process that has fetched keys (and so remembers where their entries are)
sees every change other processes make to them: overwrites of the same type
and length, of another type or length, deletes, clears, apcu_inc, stores
with a ttl, stores already expired. Two keys with the same hash and length
that share a memo slot never answer for each other.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
apc.shm_size=32M
shardcache.zero_copy=1
shardcache.shards=2
--FILE--
<?php
/* Runs $change in a child process and waits for it. */
function in_child(callable $change): void
{
    $pid = pcntl_fork();
    if ($pid === 0) {
        $change();
        exit(0);
    }
    pcntl_waitpid($pid, $st);
    if (!pcntl_wifexited($st) || pcntl_wexitstatus($st) !== 0) {
        echo "child failed\n";
    }
}

$long = fn(string $c, int $n = 1024) => str_repeat($c, $n);
// "Ez" and "FY" have the same PHP hash: these two keys have the same hash
// and length, so the same memo slot, shard and home slot.
$keys = ['str' => 'memo_str', 'int' => 'memo_int', 'dbl' => 'memo_dbl', 'ez' => 'memo_Ez_k', 'fy' => 'memo_FY_k'];

function reset_all(array $keys, callable $long): void
{
    apcu_clear_cache();
    apcu_store($keys['str'], $long('A'));
    apcu_store($keys['int'], 1);
    apcu_store($keys['dbl'], 1.5);
    apcu_store($keys['ez'], $long('E'));
    apcu_store($keys['fy'], $long('F'));
}

/* Fetches every key a few times (the memo now holds them) and returns
 * what it got. */
function fetch_all(array $keys): array
{
    $got = [];
    foreach ($keys as $name => $k) {
        apcu_fetch($k);
        apcu_fetch($k);
        $got[$name] = apcu_fetch($k);
    }
    return $got;
}

function show($v): string
{
    if (is_string($v) && strlen($v) > 8) {
        return sprintf('"%s" x%d', $v[0], strlen($v));
    }
    return var_export($v, true);
}

$cases = [
    'same type and length (str)' => fn() => apcu_store($keys['str'], $long('B')),
    'same type and length (int)' => fn() => apcu_store($keys['int'], 2),
    'same type and length (dbl)' => fn() => apcu_store($keys['dbl'], 2.5),
    'another length' => fn() => apcu_store($keys['str'], $long('C', 2000)),
    'another type' => fn() => apcu_store($keys['str'], 7) && apcu_store($keys['int'], $long('I')),
    'short string' => fn() => apcu_store($keys['str'], 'short'),
    'delete' => fn() => apcu_delete($keys['str']) && apcu_delete($keys['int']),
    'clear' => fn() => apcu_clear_cache(),
    'inc' => fn() => apcu_inc($keys['int'], 5) === 6,
    'ttl' => fn() => apcu_store($keys['str'], $long('T'), 1000) && apcu_store($keys['int'], 3, 1000),
    'stored expired' => fn() => apcu_store($keys['str'], $long('X'), -5) && apcu_store($keys['int'], 4, -5),
    'collision: one deleted' => fn() => apcu_delete($keys['ez']),
    'collision: other rewritten' => fn() => apcu_store($keys['fy'], $long('G')),
];

$bad = 0;
foreach ($cases as $name => $change) {
    reset_all($keys, $long);
    $before = fetch_all($keys);
    in_child(function () use ($change) {
        if (!$change()) {
            exit(1);
        }
    });
    $after = fetch_all($keys);
    $line = [];
    foreach ($after as $k => $v) {
        if ($v !== $before[$k]) {
            $line[] = "$k " . show($v);
        }
    }
    echo str_pad($name, 27), ": ", $line ? implode(', ', $line) : 'no change', "\n";
}

// The two colliding keys fetched alternately: each finds its own value.
reset_all($keys, $long);
for ($i = 0; $i < 1000; $i++) {
    if (apcu_fetch($keys['ez']) !== $long('E') || apcu_fetch($keys['fy']) !== $long('F')) {
        $bad++;
    }
}
echo "alternating colliding keys, wrong: $bad\n";
?>
--EXPECT--
same type and length (str) : str "B" x1024
same type and length (int) : int 2
same type and length (dbl) : dbl 2.5
another length             : str "C" x2000
another type               : str 7, int "I" x1024
short string               : str 'short'
delete                     : str false, int false
clear                      : str false, int false, dbl false, ez false, fy false
inc                        : int 6
ttl                        : str "T" x1024, int 3
stored expired             : str false, int false
collision: one deleted     : ez false
collision: other rewritten : fy "G" x1024
alternating colliding keys, wrong: 0
