--TEST--
apcu_fetch: an exception during unserialize() reaches the caller, $success false
--DESCRIPTION--
The exception comes from an autoloader that throws for the value's class, or
from a Serializable::unserialize that throws. It reaches the caller and
$success is false, as in APCu 5.1.22. In the array form $success is true. A
class that is only missing gives __PHP_Incomplete_Class and $success true.
--INI--
apc.enable_cli=1
error_reporting=E_ALL & ~E_DEPRECATED
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip needs pcntl'); ?>
--FILE--
<?php
// The classes exist only in the child that stores their objects.
$pid = pcntl_fork();
if ($pid === 0) {
    eval('class Gone { public $a = 1; } class Later { public $b = 2; }');
    apcu_store("gone", new Gone);
    apcu_store("gonearr", ["x" => new Gone, "y" => 1]);
    apcu_store("later", new Later);
    exit(0);
}
pcntl_waitpid($pid, $st);
spl_autoload_register(function ($c) { echo "autoload $c\n"; if ($c === 'Gone') throw new RuntimeException("no $c"); });
class Old implements Serializable {
    public function serialize() { return "x"; }
    public function unserialize($d) { throw new DomainException("Serializable::unserialize"); }
}
apcu_store("old", new Old);
apcu_store("ok", 5);
foreach (["gone", "gonearr", ["gone", "ok"], "later", "old", ["old", "ok"]] as $k) {
    $s = "unset";
    try {
        $r = @apcu_fetch($k, $s);   // the parse error notice is APCu's and ours alike
        echo "result: ", json_encode($r), is_object($r) ? " " . get_class($r) : "", "\n";
    } catch (Throwable $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
    echo "success: ", var_export($s, true), "\n";
}
?>
--EXPECT--
autoload Gone
RuntimeException: no Gone
success: false
autoload Gone
RuntimeException: no Gone
success: false
autoload Gone
RuntimeException: no Gone
success: true
autoload Later
result: {"__PHP_Incomplete_Class_Name":"Later","b":2} __PHP_Incomplete_Class
success: true
DomainException: Serializable::unserialize
success: false
DomainException: Serializable::unserialize
success: true
