--TEST--
apcu_entry: the stored value is stamped when it is stored, not when the callback started (a callback slower than the ttl stores a live value)
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
    // Slower than the ttl below: at least 2 whole seconds go by.
    $start = time();
    while (time() < $start + 2) {
        usleep(50000);
    }
    $after = time();
    return 'computed';
}, 1);
var_dump($v);
var_dump(apcu_fetch('slow'));
$info = apcu_key_info('slow');
echo 'creation_time not before the callback ended: ', var_export($info['creation_time'] >= $after, true), "\n";
echo 'callback ran at least 2 s: ', var_export($after - $before >= 2, true), "\n";
var_dump(apcu_entry('slow', fn() => 'again', 1));
?>
--EXPECT--
string(8) "computed"
string(8) "computed"
creation_time not before the callback ended: true
callback ran at least 2 s: true
string(8) "computed"
