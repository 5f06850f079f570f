--TEST--
apcu_fetch: __wakeup/__unserialize throwing reaches the caller, $success true
--DESCRIPTION--
The parse succeeds and __wakeup or __unserialize then throws (PHP runs them
after the parse). The exception reaches the caller and $success is true: the
key was found, as in APCu 5.1.22. Checked alone, nested in an array, and in
the array form.
--INI--
apc.enable_cli=1
--FILE--
<?php
class W { public $a = 1; function __wakeup() { throw new Exception("__wakeup"); } }
class U { public $a = 1; function __unserialize(array $d): void { throw new LogicException("__unserialize"); } }
apcu_store("w", new W);
apcu_store("u", new U);
apcu_store("ua", ["x" => new U, "y" => 1]);
apcu_store("ok", 5);
foreach (["w", "u", "ua", ["u", "ok"]] as $k) {
    $s = "unset";
    try {
        $r = apcu_fetch($k, $s);
        echo "result: ", json_encode($r), "\n";
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
    echo "success: ", var_export($s, true), "\n";
}
?>
--EXPECT--
Exception: __wakeup
success: true
LogicException: __unserialize
success: true
LogicException: __unserialize
success: true
LogicException: __unserialize
success: true
