--TEST--
Info functions and APCUIterator with the cache disabled: warnings, false, Error
--DESCRIPTION--
The cache is disabled with apc.enable_cli=0. The answers are warnings and
false, null, or an Error.
--SKIPIF--
<?php if (!function_exists('apcu_cache_info')) die('skip apcu_cache_info not available'); ?>
--INI--
apc.enable_cli=0
--FILE--
<?php
var_dump(apcu_enabled());
var_dump(apcu_cache_info());
var_dump(apcu_cache_info(true));
var_dump(apcu_sma_info());
var_dump(apcu_sma_info(true));
var_dump(apcu_key_info('x'));
var_dump(class_exists('APCUIterator'), APC_ITER_ALL, APC_LIST_ACTIVE);
try {
    new APCUIterator();
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    new APCUIterator('/x/', APC_ITER_ALL, -5, 99);
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$it = (new ReflectionClass('APCUIterator'))->newInstanceWithoutConstructor();
foreach (['valid', 'getTotalCount'] as $m) {
    try {
        $it->$m();
    } catch (Error $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
try {
    var_dump(apcu_delete($it));
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECTF--
bool(false)

Warning: apcu_cache_info(): No APC info available.  Perhaps APC is not enabled? Check apc.enabled in your ini file in %s on line 3
bool(false)

Warning: apcu_cache_info(): No APC info available.  Perhaps APC is not enabled? Check apc.enabled in your ini file in %s on line 4
bool(false)

Warning: apcu_sma_info(): No APC SMA info available.  Perhaps APC is disabled via apc.enabled? in %s on line 5
bool(false)

Warning: apcu_sma_info(): No APC SMA info available.  Perhaps APC is disabled via apc.enabled? in %s on line 6
bool(false)
NULL
bool(true)
int(4294967295)
int(1)
Error: APC must be enabled to use APCUIterator

Fatal error: APCUIterator::__construct(): APCUIterator chunk size must be 0 or greater in %s on line 15
