--TEST--
APCUIterator: a format above APC_ITER_ALL is a fatal error, as in APCu
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
register_shutdown_function(function () { echo "shutdown, last error type ", error_get_last()['type'], "\n"; });
try {
    new APCUIterator(null, APC_ITER_ALL + 1);
} catch (Throwable $e) {
    echo "caught ", get_class($e), "\n";
}
echo "not reached\n";
?>
--EXPECTF--
Fatal error: APCUIterator::__construct(): APCUIterator format is invalid in %s on line %d
shutdown, last error type 1
