--TEST--
apc.slam_defense=0 (the default): another process may store the same key
--DESCRIPTION--
Another process may store the same key in the same second.
--SKIPIF--
<?php if (!extension_loaded('pcntl')) die('skip pcntl required'); ?>
--INI--
apc.enable_cli=1
apc.use_request_time=1
apc.slam_defense=0
--FILE--
<?php
// The request time is the "now" of every store (apc.use_request_time=1), so
// parent and children store within the same second by construction.
function child(callable $f) {
    $pid = pcntl_fork();
    if ($pid === 0) { $f(); exit(0); }
    pcntl_waitpid($pid, $status);
}
echo "slam_defense=", ini_get("apc.slam_defense"), "\n";
var_dump(apcu_store("foo", "parent"));
child(function () {
    echo "child store foo: ", json_encode(apcu_store("foo", "child")), "\n";
    echo "child add foo: ", json_encode(apcu_add("foo", "child")), "\n";
    echo "child store [foo]: ", json_encode(apcu_store(["foo" => "child"])), "\n";
    echo "child store bar: ", json_encode(apcu_store("bar", "child")), "\n";
    echo "child store bar again: ", json_encode(apcu_store("bar", "child2")), "\n";
});
echo "parent fetch: ", json_encode(apcu_fetch(["foo", "bar"])), "\n";
echo "parent store foo again: ", json_encode(apcu_store("foo", "parent2")), "\n";
?>
--EXPECT--
slam_defense=0
bool(true)
child store foo: true
child add foo: false
child store [foo]: []
child store bar: true
child store bar again: true
parent fetch: {"foo":"child","bar":"child2"}
parent store foo again: true
