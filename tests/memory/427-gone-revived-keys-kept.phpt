--TEST--
Kept entries of keys stored again survive table cleanup; the table stays bounded
--DESCRIPTION--
Entries kept by lockless deletes of keys that are stored again (store/delete
churn) survive the pass that makes table room, so that their next stores
stay lockless. Kept entries of keys never stored again still go, and the
table stays bounded.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
?>
--INI--
apc.enable_cli=1
apc.shm_size=4M
shardcache.shards=1
--FILE--
<?php
function f(): array {
    $i = shardcache_info();
    return ['ins' => $i['inserts'], 'll' => $i['lockless_inserts'], 'slots' => $i['per_shard'][0]['slots'],
            'entries' => $i['entries']];
}
$v = str_repeat('v', 100);
// Churned keys: stored, deleted (kept), stored again over the kept entry
// (lockless), deleted again.
for ($i = 0; $i < 64; $i++) { apcu_store("r$i", $v); apcu_delete("r$i"); }
for ($i = 0; $i < 64; $i++) { apcu_store("r$i", $v); apcu_delete("r$i"); }
$a = f();
echo "churned: lockless stores ", $a['ll'], ", entries ", $a['entries'], "\n";
// New live keys until the table has had to make room (it grew; looked at
// every 8 stores).
$j = 0;
while (f()['slots'] === $a['slots']) { for ($e = $j + 8; $j < $e; $j++) apcu_store("n$j", $j); }
$b = f();
echo "table grew: ", var_export($b['slots'] > $a['slots'], true), "\n";
// The churned keys again: every store goes over its kept entry, without the lock.
$ok = 0;
for ($i = 0; $i < 64; $i++) { $ok += apcu_store("r$i", $v) && apcu_fetch("r$i") === $v; }
$c = f();
echo "churned stored again: $ok ok, lockless ", $c['ll'] - $b['ll'], ", locked ", ($c['ins'] - $c['ll']) - ($b['ins'] - $b['ll']), "\n";
for ($i = 0; $i < 64; $i++) { apcu_delete("r$i"); }
// Keys stored once and deleted: their kept entries go when room is made,
// so the table does not grow for them.
for ($k = 0; $k < 20000; $k++) { apcu_store("x$k", $v); apcu_delete("x$k"); }
$d = f();
echo "after 20000 keys stored once and deleted: table at most doubled: ", var_export($d['slots'] <= 2 * $b['slots'], true),
     ", live keys all there: ", var_export($d['entries'] === $j, true), "\n";
$bad = 0;
for ($n = 0; $n < $j; $n++) { $bad += apcu_fetch("n$n") !== $n; }
echo "live keys wrong: $bad\n";
?>
--EXPECT--
churned: lockless stores 64, entries 0
table grew: true
churned stored again: 64 ok, lockless 64, locked 0
after 20000 keys stored once and deleted: table at most doubled: true, live keys all there: true
live keys wrong: 0
