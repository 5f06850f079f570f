--TEST--
apcu_entry: a value stored for the key while the callback runs stays
--DESCRIPTION--
The key gets stored by a nested apcu_entry for the same key, or by
apcu_store/apcu_add/apcu_inc inside the callback; that value stays and the
callback's result is only returned.
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
$inner_calls = 0;
echo "-- nested apcu_entry for the same key: the inner callback runs too\n";
$r = apcu_entry('same', function ($k) use (&$inner_calls) {
    return 'outer+' . apcu_entry($k, function ($k2) use (&$inner_calls) { $inner_calls++; return "inner:$k2"; });
});
var_dump($r, now('same'), $inner_calls);
echo "-- three levels\n";
$r = apcu_entry('deep', fn($k) => 'l1+' . apcu_entry($k, fn($k) => 'l2+' . apcu_entry($k, fn($k) => 'l3')));
var_dump($r, now('deep'));
echo "-- stored inside the callback\n";
var_dump(apcu_entry('st', function ($k) { apcu_store($k, 'stored inside'); return 'returned'; }), now('st'));
var_dump(apcu_entry('ad', function ($k) { apcu_add($k, 'added inside'); return 'returned'; }), now('ad'));
var_dump(apcu_entry('in', function ($k) { apcu_inc($k, 5); return 'returned'; }), now('in'));
var_dump(apcu_entry('sa', function ($k) { apcu_store([$k => 'array store inside']); return 'returned'; }), now('sa'));
echo "-- stored with a negative ttl inside: expired, so the result is stored\n";
var_dump(apcu_entry('neg', function ($k) { apcu_store($k, 'expired', -1); return 'returned'; }), now('neg'));
echo "-- stored then deleted inside: the result is stored\n";
var_dump(apcu_entry('del', function ($k) { apcu_store($k, 'x'); apcu_delete($k); return 'returned'; }), now('del'));
?>
--EXPECT--
-- nested apcu_entry for the same key: the inner callback runs too
string(16) "outer+inner:same"
string(12) "'inner:same'"
int(1)
-- three levels
string(8) "l1+l2+l3"
string(4) "'l3'"
-- stored inside the callback
string(8) "returned"
string(15) "'stored inside'"
string(8) "returned"
string(14) "'added inside'"
string(8) "returned"
string(1) "5"
string(8) "returned"
string(20) "'array store inside'"
-- stored with a negative ttl inside: expired, so the result is stored
string(8) "returned"
string(10) "'returned'"
-- stored then deleted inside: the result is stored
string(8) "returned"
string(10) "'returned'"
