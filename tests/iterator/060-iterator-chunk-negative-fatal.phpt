--TEST--
APCUIterator: a negative chunk size is a fatal error, as in APCu
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
register_shutdown_function(function () { echo "shutdown, last error type ", error_get_last()['type'], "\n"; });
$it = new APCUIterator(null, APC_ITER_ALL, 0);
var_dump($it->valid());
try {
    new APCUIterator(null, APC_ITER_ALL, -1);
} catch (Throwable $e) {
    echo "caught ", get_class($e), "\n";
}
echo "not reached\n";
?>
--EXPECTF--
bool(false)

Fatal error: APCUIterator::__construct(): APCUIterator chunk size must be 0 or greater in %s on line %d
shutdown, last error type 1
