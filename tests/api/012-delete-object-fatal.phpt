--TEST--
apcu_delete with an object that is not an APCUIterator is a fatal error
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
apcu_store('a', 1);
try {
    apcu_delete(new stdClass);
} catch (Throwable $e) {
    echo 'caught ', get_class($e), "\n";
}
echo "not reached\n";
?>
--EXPECTF--
Fatal error: apcu_delete(): apc_delete object argument must be instance of APCUIterator. in %s on line %d
