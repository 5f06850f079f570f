--TEST--
apcu_fetch: $success is true when the key is found but decoding throws
--DESCRIPTION--
As in APCu 5.1.22: the key is found, decoding its value throws, and $success
is still true.
--INI--
apc.enable_cli=1
--FILE--
<?php
class Boom { public $a = 1; function __wakeup() { throw new Exception("boom"); } }
apcu_store("obj", new Boom);
apcu_store("arr", ["x" => new Boom]);
apcu_store("7", new Boom);
foreach (["obj", ["obj", "missing"], "arr", ["missing", "arr"], 7] as $k) {
    $s = "unset";
    try {
        $r = apcu_fetch($k, $s);
        echo "no exception: ", json_encode($r), "\n";
    } catch (Exception $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
    var_dump($s);
}
$s = "unset";
var_dump(apcu_fetch("missing", $s), $s);
?>
--EXPECT--
Exception: boom
bool(true)
Exception: boom
bool(true)
Exception: boom
bool(true)
Exception: boom
bool(true)
Exception: boom
bool(true)
bool(false)
bool(false)
