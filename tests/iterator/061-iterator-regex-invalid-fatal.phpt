--TEST--
APCUIterator: an invalid regular expression is a fatal error, as in APCu
--DESCRIPTION--
A search string that is not a valid regular expression gives PCRE's warning,
then a fatal error, as in APCu.
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
register_shutdown_function(function () { echo "shutdown, last error type ", error_get_last()['type'], "\n"; });
apcu_store('key', 1);
var_dump(iterator_count(new APCUIterator('/^k/')));
try {
    new APCUIterator('/unterminated');
} catch (Throwable $e) {
    echo "caught ", get_class($e), "\n";
}
echo "not reached\n";
?>
--EXPECTF--
int(1)

Warning: APCUIterator::__construct(): No ending delimiter '/' found in %s on line %d

Fatal error: APCUIterator::__construct(): Could not compile regular expression: /unterminated in %s on line %d
shutdown, last error type 1
