--TEST--
A scalar stored over a scalar in place looks exactly like a fresh store
--DESCRIPTION--
The new scalar is written into the existing entry. Value and type, ttl,
hits, store order, add, inc, figures and memory are all those of a fresh
store.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=32M
--FILE--
<?php
function order(): string
{
    $keys = [];
    foreach (new APCUIterator('/^io_[xyz]$/', APC_ITER_KEY) as $k => $_) {
        $keys[] = substr($k, 3);
    }
    return implode(',', $keys);
}
function figures(): array
{
    $i = apcu_cache_info(true);
    $s = apcu_sma_info(true);
    return [$i['num_entries'], $s['avail_mem']];
}

// Every scalar type over every other, and back: always the last value.
$chain = [1, 2.5, true, false, null, -7, PHP_INT_MAX, 0.0, PHP_INT_MIN, true, 42];
$bad = 0;
foreach ($chain as $v) {
    apcu_store('io_a', $v);
    if (apcu_fetch('io_a', $ok) !== $v || !$ok) {
        $bad++;
        echo "wrong value after storing ", var_export($v, true), "\n";
    }
}
echo "chain: $bad wrong\n";

// ttl follows the last store.
apcu_store('io_t', 1, 1000);
apcu_store('io_t', 2);
var_dump(apcu_key_info('io_t')['ttl']);
apcu_store('io_t', 3, 77);
var_dump(apcu_key_info('io_t')['ttl']);

// Hit figures start over, as for a new entry (hits are recorded one in 32).
apcu_store('io_h', 5);
for ($i = 0; $i < 64; $i++) {
    apcu_fetch('io_h');
}
var_dump(apcu_key_info('io_h')['hits'] > 0);
apcu_store('io_h', 6);
var_dump(apcu_key_info('io_h')['hits']);

// A replaced entry counts as stored again: it moves to the end of the walk.
apcu_store('io_x', 1);
apcu_store('io_y', 2);
apcu_store('io_z', 3);
echo order(), "\n";
apcu_store('io_x', 4.5);
echo order(), "\n";
apcu_store('io_y', false);
echo order(), "\n";

// add: refused over a live scalar (the value stays), accepted over an
// entry stored already expired.
var_dump(apcu_add('io_z', 9), apcu_fetch('io_z'));
apcu_store('io_e', 1, -5);
var_dump(apcu_fetch('io_e'), apcu_add('io_e', 2), apcu_fetch('io_e'), apcu_key_info('io_e')['ttl']);

// inc follows the type of the last store.
apcu_store('io_i', 10);
var_dump(apcu_inc('io_i', 5));
apcu_store('io_i', 1.5);
var_dump(apcu_inc('io_i'), apcu_fetch('io_i'));
apcu_store('io_i', 100);
var_dump(apcu_inc('io_i'), apcu_fetch('io_i'));

// Scalars and strings or arrays replace each other both ways.
apcu_store('io_s', 1);
apcu_store('io_s', 'now a string');
var_dump(apcu_fetch('io_s'));
apcu_store('io_s', 2);
var_dump(apcu_fetch('io_s'));
apcu_store('io_s', [1, 2]);
apcu_store('io_s', 3.25);
var_dump(apcu_fetch('io_s'));

// Figures: an overwrite counts as an insert in apcu_cache_info (as in
// APCu), keeps the entry count and takes no memory.
apcu_store('io_m', 1);
[$n0, $free0] = figures();
$ins0 = apcu_cache_info(true)['num_inserts'];
for ($i = 0; $i < 1000; $i++) {
    apcu_store('io_m', $i % 2 ? $i : $i + 0.5);
}
[$n1, $free1] = figures();
var_dump($n1 === $n0, $free1 === $free0, (int)(apcu_cache_info(true)['num_inserts'] - $ins0));
var_dump(apcu_fetch('io_m'));
?>
--EXPECT--
chain: 0 wrong
int(0)
int(77)
bool(true)
int(0)
x,y,z
y,z,x
z,x,y
bool(false)
int(3)
bool(false)
bool(true)
int(2)
int(0)
int(15)
bool(false)
float(1.5)
int(101)
int(101)
string(12) "now a string"
int(2)
float(3.25)
bool(true)
bool(true)
int(1000)
int(999)
