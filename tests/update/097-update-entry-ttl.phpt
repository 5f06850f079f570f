--TEST--
TTL with inc/dec/cas/entry: $ttl applies only to an entry they create
--DESCRIPTION--
Covers apcu_inc, apcu_dec, apcu_cas and apcu_entry. An updated entry keeps
its own expiry.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
function now(string $key): string {
    $v = apcu_fetch($key, $hit);
    return $hit ? var_export($v, true) : '<missing>';
}
$calls = 0;
$cb = function ($k) use (&$calls) { $calls++; return "computed $k #$calls"; };
var_dump(apcu_inc('inc_new', 1, $ok, 1));            // created with ttl 1
var_dump(apcu_dec('dec_new', 3, $ok, 1));            // created with ttl 1
var_dump(apcu_inc('inc_new_forever', 1, $ok, 0));    // created forever
var_dump(apcu_inc('inc_new_long', 1, $ok, 100));     // created with ttl 100
apcu_store('forever', 10);
var_dump(apcu_inc('forever', 1, $ok, 1));            // exists: the ttl is not changed
apcu_store('short', 10, 1);
var_dump(apcu_inc('short', 1, $ok, 100));            // exists: still expires after 1 s
var_dump(apcu_dec('short', 1, $ok, 0));
apcu_store('short_cas', 10, 1);
var_dump(apcu_cas('short_cas', 10, 11));             // cas keeps the expiry too
apcu_store('long_cas', 10, 100);
var_dump(apcu_cas('long_cas', 10, 11));
var_dump(apcu_entry('entry_short', $cb, 1));
var_dump(apcu_entry('entry_long', $cb, 100));
var_dump(apcu_entry('entry_forever', $cb));
apcu_store('entry_existing', 'stored forever');
var_dump(apcu_entry('entry_existing', $cb, 1));
// let 2 full seconds pass (measured on the monotonic clock): whole-second clocks then show
// at least ctime + 2, so every 1-second ttl has run out
$start = hrtime(true);
while (hrtime(true) - $start < 2100000000) {
    usleep(100000);
}
echo "-- 2 seconds later\n";
foreach (['inc_new', 'dec_new', 'inc_new_forever', 'inc_new_long', 'forever', 'short', 'short_cas', 'long_cas',
          'entry_short', 'entry_long', 'entry_forever', 'entry_existing'] as $k) {
    echo str_pad($k, 16), now($k), "\n";
}
echo "-- expired entries start again\n";
var_dump(apcu_inc('inc_new', 5), apcu_dec('short', 5), apcu_cas('short_cas', 11, 12), apcu_exists('short_cas'));
var_dump(apcu_entry('entry_short', $cb), apcu_entry('entry_long', $cb), $calls);
?>
--EXPECT--
int(1)
int(-3)
int(1)
int(1)
int(11)
int(11)
int(10)
bool(true)
bool(true)
string(23) "computed entry_short #1"
string(22) "computed entry_long #2"
string(25) "computed entry_forever #3"
string(14) "stored forever"
-- 2 seconds later
inc_new         <missing>
dec_new         <missing>
inc_new_forever 1
inc_new_long    1
forever         11
short           <missing>
short_cas       <missing>
long_cas        11
entry_short     <missing>
entry_long      'computed entry_long #2'
entry_forever   'computed entry_forever #3'
entry_existing  'stored forever'
-- expired entries start again
int(5)
int(-5)
bool(false)
bool(false)
string(23) "computed entry_short #4"
string(22) "computed entry_long #2"
int(4)
