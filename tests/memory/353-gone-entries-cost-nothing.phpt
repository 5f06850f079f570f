--TEST--
Entries kept by lockless deletes cost no live data and no table growth
--DESCRIPTION--
Entries kept by deletes without the lock (SC_TTL_GONE) never cost live data
or table growth. A full cache of kept entries takes new keys without
evicting any (they go first, counted neither as evicted nor expired);
store/delete churn of ever new keys keeps the table at its size and the
memory bounded; and a store of another length over a kept entry frees it
(the figures say so).
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=1M
shardcache.shards=1
--FILE--
<?php
// One shard: "before anything is evicted" is a promise about the shard's
// own eviction order (a store evicts within its shard first).
function val(string $p, int $i): string { return substr(str_repeat("$p$i;", 40), 0, 100); }
function figures(): array {
    $i = shardcache_info();
    $s = $i['per_shard'][0];
    return ['entries' => $i['entries'], 'shard_entries' => $s['entries'], 'slots' => $s['slots'],
            'evicted' => $i['evicted'], 'expired' => $i['expired'], 'expunges' => $i['expunges'],
            'nomem' => $i['nomem'], 'mem_used' => $i['mem_used'], 'mem_entries' => $i['mem_entries'],
            'ld' => $i['lockless_deletes'], 'listed' => count(apcu_cache_info()['cache_list'])];
}

echo "-- (a) kept entries go before any live one\n";
// How many 100-byte values fit: store until the first eviction (looked at
// every 16 stores).
$cap = 0;
while (($cap % 16 || shardcache_info()['evicted'] === 0) && apcu_store("cap$cap", val('c', $cap))) {
    $cap++;
}
echo "capacity measured: ", var_export($cap > 1000, true), "\n";
apcu_clear_cache();
// 90% of that stored and deleted: most kept (lockless deletes).
$n = intdiv($cap * 9, 10);
$failed = 0;
for ($j = 0; $j < $n; $j++) {
    if (!apcu_store("g$j", val('g', $j)) || !apcu_delete("g$j")) {
        $failed++;
    }
}
$f = figures();
// (Deletes keep entries only while a quarter of the pages are free:
// SC_LOCKLESS_FREE_SHARE; past that they free at once.)
echo "store/delete failures: $failed, lockless deletes: ", $f['ld'] > $n / 2 ? 'most' : $f['ld'], ", entries ",
     $f['entries'], ", listed ", $f['listed'], "\n";
echo "kept entries hold their memory: ", var_export($f['mem_entries'] >= $f['ld'] * 100, true), "\n";
// As many new live keys: they fit once the kept entries are gone.
$failed = 0;
for ($j = 0; $j < $n; $j++) {
    if (!apcu_store("L$j", val('L', $j))) {
        $failed++;
    }
}
$f = figures();
echo "stores failed: $failed, evicted ", $f['evicted'], ", expired ", $f['expired'], ", expunges ",
     $f['expunges'], ", nomem ", $f['nomem'], "\n";
echo "entries = live keys: ", var_export($f['entries'] === $n && $f['shard_entries'] === $n && $f['listed'] === $n, true), "\n";
$bad = 0;
for ($j = 0; $j < $n; $j++) {
    if (apcu_fetch("L$j") !== val('L', $j)) {
        $bad++;
    }
}
echo "live keys not fetched back: $bad\n";
// Past the capacity, eviction is what the cache documents: the first key
// evicted goes only when the live data fills the cache (no memory is left
// to kept entries), and every key then holds its value or is absent.
$at = -1;
for ($j = 0; $j < $cap; $j++) {
    apcu_store("M$j", val('M', $j));
    if ($at < 0 && shardcache_info()['evicted'] > 0) {
        $at = $n + $j;
    }
}
echo "first eviction with the cache full of live data: ", var_export($at >= $cap - 16, true), " (at ",
     $at >= $cap - 16 ? 'capacity' : "$at of $cap", ")\n";
$wrong = 0;
$held = 0;
foreach (['L' => $n, 'M' => $cap] as $p => $count) {
    for ($j = 0; $j < $count; $j++) {
        $v = apcu_fetch("$p$j", $ok);
        if ($ok && $v !== val($p, $j)) {
            $wrong++;
        }
        $held += $ok ? 1 : 0;
    }
}
$f = figures();
echo "wrong values: $wrong, entries = keys held = listed: ",
     var_export($held === $f['entries'] && $f['entries'] === $f['listed'], true), "\n";

echo "-- (b) churn of new keys: the table keeps its size, memory stays bounded\n";
apcu_clear_cache();
apcu_store('first', 1);   // the table's first size (a clear leaves none)
apcu_delete('first');
$slots = figures()['slots'];
echo "table: ", $slots, " slots\n";
foreach (['int' => fn($j) => $j, 'string' => fn($j) => val('s', $j)] as $label => $make) {
    $grew = 0;
    $failed = 0;
    $peak = [0, 0];
    $rounds = 24000;
    for ($j = 0; $j < $rounds; $j++) {
        if (!apcu_store("$label$j", $make($j)) || !apcu_delete("$label$j")) {
            $failed++;
        }
        if ($j % 500 === 499) {
            $f = figures();
            $grew += $f['slots'] !== $slots ? 1 : 0;
            $half = $j < $rounds / 2 ? 0 : 1;
            $peak[$half] = max($peak[$half], $f['mem_used']);
        }
    }
    $f = figures();
    echo "$label: failures $failed, table grew at $grew checks, entries ", $f['entries'], ", listed ", $f['listed'],
         ", evicted ", $f['evicted'], ", expunges ", $f['expunges'], ", nomem ", $f['nomem'], "\n";
    if ($label === 'int') {
        // Small entries: the table fills (75%) before the memory does, and
        // its kept entries go then: memory goes up and down, never further.
        echo "$label: peak memory of the second half within the first's: ",
             var_export($peak[1] <= $peak[0] + 16384, true), " (", $peak[1] <= $peak[0] + 16384 ? 'bounded' : "$peak[0] -> $peak[1]", ")\n";
    }
}
echo "slots unchanged: ", var_export(figures()['slots'] === $slots, true), "\n";

echo "-- (c) another store over a kept entry frees it\n";
apcu_clear_cache();
apcu_store('keep', 1);
apcu_store('big', str_repeat('b', 3000));
$a = figures();
var_dump(apcu_delete('big'));
$b = figures();
echo "lockless: ", $b['ld'] - $a['ld'], ", entries ", $b['entries'], ", listed ", $b['listed'],
     ", memory kept: ", var_export($b['mem_entries'] === $a['mem_entries'], true), "\n";
var_dump(apcu_store('big', 'small'), apcu_fetch('big'));
$c = figures();
echo "entries ", $c['entries'], ", shard entries ", $c['shard_entries'], ", listed ", $c['listed'],
     ", freed: ", var_export($a['mem_entries'] - $c['mem_entries'] >= 3000 - 16, true), "\n";
var_dump(apcu_delete('big'));
var_dump(apcu_store('big', str_repeat('c', 3000), 100), strlen(apcu_fetch('big')));
$d = figures();
echo "entries ", $d['entries'], ", listed ", $d['listed'], ", memory as before the first delete: ",
     var_export($d['mem_entries'] === $a['mem_entries'], true), "\n";
// Many kept entries, each replaced by a store of another type.
for ($j = 0; $j < 50; $j++) {
    apcu_store("r$j", "value $j");
    apcu_delete("r$j");
}
$e = figures();
for ($j = 0; $j < 50; $j++) {
    apcu_store("r$j", [$j]);
}
$g = figures();
echo "kept 50: entries ", $e['entries'], ", listed ", $e['listed'], "; replaced: entries ", $g['entries'],
     ", listed ", $g['listed'], ", shard entries ", $g['shard_entries'], "\n";
?>
--EXPECT--
-- (a) kept entries go before any live one
capacity measured: true
store/delete failures: 0, lockless deletes: most, entries 0, listed 0
kept entries hold their memory: true
stores failed: 0, evicted 0, expired 0, expunges 0, nomem 0
entries = live keys: true
live keys not fetched back: 0
first eviction with the cache full of live data: true (at capacity)
wrong values: 0, entries = keys held = listed: true
-- (b) churn of new keys: the table keeps its size, memory stays bounded
table: 8192 slots
int: failures 0, table grew at 0 checks, entries 0, listed 0, evicted 0, expunges 0, nomem 0
int: peak memory of the second half within the first's: true (bounded)
string: failures 0, table grew at 0 checks, entries 0, listed 0, evicted 0, expunges 0, nomem 0
slots unchanged: true
-- (c) another store over a kept entry frees it
bool(true)
lockless: 1, entries 1, listed 1, memory kept: true
bool(true)
string(5) "small"
entries 2, shard entries 2, listed 2, freed: true
bool(true)
bool(true)
int(3000)
entries 2, listed 2, memory as before the first delete: true
kept 50: entries 2, listed 2; replaced: entries 52, listed 52, shard entries 52
