--TEST--
apcu_inc/apcu_dec at PHP_INT_MAX/PHP_INT_MIN: wraps around, as in APCu 5.1.22
--DESCRIPTION--
The result wraps around and stays an int.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
function op(string $fn, string $key, int $step): void {
    $ok = 'untouched';
    $r = $fn($key, $step, $ok);
    $v = apcu_fetch($key, $hit);
    echo "$fn('$key', $step): ", var_export($r, true), ' success=', var_export($ok, true),
        ' now=', $hit ? var_export($v, true) : '<missing>', "\n";
}
apcu_store(['max' => PHP_INT_MAX, 'max2' => PHP_INT_MAX, 'max3' => PHP_INT_MAX - 1,
            'min' => PHP_INT_MIN, 'min2' => PHP_INT_MIN, 'min3' => PHP_INT_MIN + 1]);
echo "-- one past the end\n";
op('apcu_inc', 'max', 1);
op('apcu_inc', 'max', 1);
op('apcu_dec', 'min', 1);
op('apcu_dec', 'min', 1);
op('apcu_dec', 'max2', -1);
op('apcu_inc', 'min2', -1);
echo "-- up to the end exactly, then past it\n";
op('apcu_inc', 'max3', 1);
op('apcu_inc', 'max3', 5);
op('apcu_dec', 'min3', 1);
op('apcu_dec', 'min3', 5);
echo "-- huge steps\n";
op('apcu_inc', 'fresh1', PHP_INT_MAX);
op('apcu_inc', 'fresh1', PHP_INT_MAX);
op('apcu_dec', 'fresh2', PHP_INT_MIN);
op('apcu_inc', 'fresh3', PHP_INT_MIN);
op('apcu_dec', 'fresh3', PHP_INT_MAX);
op('apcu_dec', 'fresh4', PHP_INT_MAX);
op('apcu_dec', 'fresh4', PHP_INT_MAX);
echo "-- the result is still an int that cas, inc and dec accept\n";
var_dump(apcu_cas('max', PHP_INT_MIN + 1, 5), apcu_fetch('max'));
op('apcu_inc', 'max', PHP_INT_MAX);
var_dump(is_int(apcu_fetch('min')), is_int(apcu_fetch('fresh1')));
?>
--EXPECT--
-- one past the end
apcu_inc('max', 1): -9223372036854775807-1 success=true now=-9223372036854775807-1
apcu_inc('max', 1): -9223372036854775807 success=true now=-9223372036854775807
apcu_dec('min', 1): 9223372036854775807 success=true now=9223372036854775807
apcu_dec('min', 1): 9223372036854775806 success=true now=9223372036854775806
apcu_dec('max2', -1): -9223372036854775807-1 success=true now=-9223372036854775807-1
apcu_inc('min2', -1): 9223372036854775807 success=true now=9223372036854775807
-- up to the end exactly, then past it
apcu_inc('max3', 1): 9223372036854775807 success=true now=9223372036854775807
apcu_inc('max3', 5): -9223372036854775804 success=true now=-9223372036854775804
apcu_dec('min3', 1): -9223372036854775807-1 success=true now=-9223372036854775807-1
apcu_dec('min3', 5): 9223372036854775803 success=true now=9223372036854775803
-- huge steps
apcu_inc('fresh1', 9223372036854775807): 9223372036854775807 success=true now=9223372036854775807
apcu_inc('fresh1', 9223372036854775807): -2 success=true now=-2
apcu_dec('fresh2', -9223372036854775808): -9223372036854775807-1 success=true now=-9223372036854775807-1
apcu_inc('fresh3', -9223372036854775808): -9223372036854775807-1 success=true now=-9223372036854775807-1
apcu_dec('fresh3', 9223372036854775807): 1 success=true now=1
apcu_dec('fresh4', 9223372036854775807): -9223372036854775807 success=true now=-9223372036854775807
apcu_dec('fresh4', 9223372036854775807): 2 success=true now=2
-- the result is still an int that cas, inc and dec accept
bool(true)
int(5)
apcu_inc('max', 9223372036854775807): -9223372036854775804 success=true now=-9223372036854775804
bool(true)
bool(true)
