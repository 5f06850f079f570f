--TEST--
Per-entry TTL: 0 never expires, positive expires, negative already expired
--DESCRIPTION--
Large TTL values are covered too.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
echo "-- negative ttl: stored, but already expired\n";
var_dump(apcu_store('neg', 'n', -1));
var_dump(apcu_fetch('neg', $ok), $ok, apcu_exists('neg'), apcu_fetch(['neg']), apcu_exists(['neg']));
var_dump(apcu_add('neg', 'added over expired'), apcu_fetch('neg'));
var_dump(apcu_store('neg2', 'n', -3600), apcu_exists('neg2'));
var_dump(apcu_store(['negarr1' => 1, 'negarr2' => 2], null, -1), apcu_fetch(['negarr1', 'negarr2']));
var_dump(apcu_add(['negadd' => 1], null, -1), apcu_exists('negadd'));

echo "-- large ttls keep the entry\n";
foreach ([60, 86400 * 365, 2147483647, 100000000000, 4294967296] as $i => $ttl) {
    var_dump(apcu_store("big$i", $ttl, $ttl), apcu_fetch("big$i"));
}

echo "-- expiry\n";
var_dump(apcu_store('ttl0', 'forever', 0));
var_dump(apcu_store('ttl1', 'short', 1));
var_dump(apcu_store('ttl100', 'long', 100));
var_dump(apcu_store(['arr1a' => 'a', 'arr1b' => 'b'], null, 1));
var_dump(apcu_add('add1', 'short add', 1));
var_dump(apcu_store('over', 'short then forever', 1), apcu_store('over', 'forever now'));
var_dump(apcu_store('over2', 'forever then short'), apcu_store('over2', 'short now', 1));
var_dump(apcu_fetch('ttl100'), apcu_add('ttl100', 'x', 1));
// let 2 full seconds pass (measured on the monotonic clock) since the stores: then whole-second
// clocks, wall or monotonic, show at least ctime + 2, so a 1-second ttl has certainly run out
$start = hrtime(true);
while (hrtime(true) - $start < 2100000000) {
    usleep(100000);
}
var_dump(apcu_fetch('ttl0'));
var_dump(apcu_fetch('ttl1', $ok), $ok, apcu_exists('ttl1'));
var_dump(apcu_fetch(['ttl0', 'ttl1', 'ttl100', 'arr1a', 'arr1b', 'add1', 'over', 'over2']));
var_dump(apcu_exists(['ttl0', 'ttl1', 'ttl100', 'arr1a', 'arr1b', 'add1', 'over', 'over2']));
echo "expired entries can be added again:\n";
var_dump(apcu_add('ttl1', 'new'), apcu_fetch('ttl1'));
var_dump(apcu_add(['arr1a' => 'A', 'ttl100' => 'x']));
var_dump(apcu_fetch('arr1a'), apcu_fetch('ttl100'));
var_dump(apcu_store('add1', 'stored'), apcu_fetch('add1'));
?>
--EXPECT--
-- negative ttl: stored, but already expired
bool(true)
bool(false)
bool(false)
bool(false)
array(0) {
}
array(0) {
}
bool(true)
string(18) "added over expired"
bool(true)
bool(false)
array(0) {
}
array(0) {
}
array(0) {
}
bool(false)
-- large ttls keep the entry
bool(true)
int(60)
bool(true)
int(31536000)
bool(true)
int(2147483647)
bool(true)
int(100000000000)
bool(true)
int(4294967296)
-- expiry
bool(true)
bool(true)
bool(true)
array(0) {
}
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(4) "long"
bool(false)
string(7) "forever"
bool(false)
bool(false)
bool(false)
array(3) {
  ["ttl0"]=>
  string(7) "forever"
  ["ttl100"]=>
  string(4) "long"
  ["over"]=>
  string(11) "forever now"
}
array(3) {
  ["ttl0"]=>
  bool(true)
  ["ttl100"]=>
  bool(true)
  ["over"]=>
  bool(true)
}
expired entries can be added again:
bool(true)
string(3) "new"
array(1) {
  ["ttl100"]=>
  int(-1)
}
string(1) "A"
string(4) "long"
bool(true)
string(6) "stored"
