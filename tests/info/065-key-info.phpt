--TEST--
apcu_key_info: keys, order and types; missing keys; ttl; replaced entries
--DESCRIPTION--
Bad arguments are covered too.
--SKIPIF--
<?php if (!function_exists('apcu_key_info')) die('skip apcu_key_info not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
apcu_store('plain', 1);
apcu_store('ttl', [1, 2], 500);
apcu_store("bin\0key", 'x');
$ki = apcu_key_info('plain');
foreach ($ki as $k => $v) {
    echo "$k: ", gettype($v), "\n";
}
var_dump($ki['hits'], $ki['deletion_time'], $ki['ttl'], $ki['refs'],
         $ki['mtime'] === $ki['creation_time'], $ki['access_time'] === $ki['creation_time'], $ki['creation_time'] > 0);
var_dump(apcu_key_info('ttl')['ttl'], apcu_key_info("bin\0key")['ttl'], apcu_key_info('bin'));
var_dump(apcu_key_info('missing'), apcu_key_info(''), apcu_key_info('PLAIN'));
// the entry's creation time is the latest store
$before = apcu_key_info('plain');
apcu_store('plain', 2, 7);
$after = apcu_key_info('plain');
var_dump($after['ttl'], $after['creation_time'] >= $before['creation_time'], $after['hits']);
apcu_delete('plain');
var_dump(apcu_key_info('plain'));
// it agrees with the iterator
$item = (new APCUIterator(['ttl']))->current();
$ki = apcu_key_info('ttl');
var_dump($item['creation_time'] === $ki['creation_time'], $item['mtime'] === $ki['mtime'], $item['ttl'] === $ki['ttl']);
foreach ([[], null, new stdClass] as $bad) {
    try {
        var_dump(apcu_key_info($bad));
    } catch (TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump(apcu_key_info(123));
try {
    apcu_key_info();
} catch (ArgumentCountError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECTF--
hits: integer
access_time: integer
mtime: integer
creation_time: integer
deletion_time: integer
ttl: integer
refs: integer
int(0)
int(0)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
int(500)
int(0)
NULL
NULL
NULL
NULL
int(7)
bool(true)
int(0)
NULL
bool(true)
bool(true)
bool(true)
TypeError: apcu_key_info(): Argument #1 ($key) must be of type string, array given

Deprecated: apcu_key_info(): Passing null to parameter #1 ($key) of type string is deprecated in %s on line 26
NULL
TypeError: apcu_key_info(): Argument #1 ($key) must be of type string, stdClass given
NULL
apcu_key_info() expects exactly 1 argument, 0 given
