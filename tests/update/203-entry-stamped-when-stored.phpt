--TEST--
apcu_entry: the value is stamped when stored, not when the callback started
--DESCRIPTION--
A callback slower than the ttl stores a live value.
--SKIPIF--
<?php if (!function_exists('apcu_entry')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.use_request_time=0
--FILE--
<?php
$before = time();
$after = 0;
$v = apcu_entry('slow', function () use (&$after) {
    // Slower than the ttl below: at least 4 whole seconds go by. (The ttl
    // is 3 s, not 1, so that the reads below, made right after the store,
    // stay inside it even on a loaded machine.)
    $start = time();
    while (time() < $start + 4) {
        usleep(50000);
    }
    $after = time();
    return 'computed';
}, 3);
var_dump($v);
var_dump(apcu_fetch('slow'));
$info = apcu_key_info('slow');
// One second of slack between the cache's clock and time(); a value stamped
// before the callback would be 4 s early.
echo 'creation_time not before the callback ended: ', var_export($info['creation_time'] >= $after - 1, true), "\n";
echo 'callback ran longer than the ttl: ', var_export($after - $before >= 4, true), "\n";
var_dump(apcu_entry('slow', fn() => 'again', 3));
?>
--EXPECT--
string(8) "computed"
string(8) "computed"
creation_time not before the callback ended: true
callback ran longer than the ttl: true
string(8) "computed"
