--TEST--
apcu_fetch of copied values through the memo sees every change to the entry
--DESCRIPTION--
apcu_fetch of strings, arrays and objects (values that are copied) finds the
entry again through the thread's memo of recent hits. A store of the same
length (written into the entry), a store of another length or type, a
delete, a clear and a store by another process are all seen by the next
fetch.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
function show($v) { echo is_object($v) ? get_class($v) . ' ' . json_encode($v) : json_encode($v), "\n"; }
$a = str_repeat('a', 100); $b = str_repeat('b', 100);
apcu_store('s', $a);
show(apcu_fetch('s') === $a); show(apcu_fetch('s') === $a);
apcu_store('s', $b);                       // same type and length
show(apcu_fetch('s') === $b);
apcu_store('s', 'short');
show(apcu_fetch('s'));
apcu_store('s', [1, 'two', 3.5]);
show(apcu_fetch('s')); show(apcu_fetch('s'));
apcu_store('s', [1, 'owt', 3.5]);
show(apcu_fetch('s'));
class P { public $x = 1; public $y = [2]; }
$o = new P();
apcu_store('s', $o);
show(apcu_fetch('s')); show(apcu_fetch('s', $ok)); show($ok);
apcu_delete('s');
show(apcu_fetch('s', $ok)); show($ok);
apcu_store('s', $a);
show(apcu_fetch('s') === $a);
apcu_clear_cache();
show(apcu_fetch('s'));
apcu_store('s', $a);
show(apcu_fetch('s') === $a);
$pid = pcntl_fork();
if ($pid === 0) {
    apcu_store('s', $b);                   // same length, another process
    exit(apcu_fetch('s') === $b ? 0 : 1);
}
pcntl_waitpid($pid, $st);
show(pcntl_wexitstatus($st)); show(apcu_fetch('s') === $b);
$pid = pcntl_fork();
if ($pid === 0) {
    apcu_delete('s');
    apcu_store('s', 'from the child');
    exit(0);
}
pcntl_waitpid($pid, $st);
show(apcu_fetch('s'));

// More keys than the memo has slots, each read and rewritten several times.
$bad = 0;
for ($i = 0; $i < 200; $i++) apcu_store("k$i", str_repeat(chr(65 + $i % 26), 64 + $i));
for ($r = 0; $r < 3; $r++) {
    for ($i = 0; $i < 200; $i++) {
        $want = str_repeat(chr(65 + ($i + $r) % 26), 64 + $i);
        if (apcu_fetch("k$i") !== $want) $bad++;
        apcu_store("k$i", str_repeat(chr(65 + ($i + $r + 1) % 26), 64 + $i));
    }
}
echo "wrong values: $bad\n";
?>
--EXPECT--
true
true
true
"short"
[1,"two",3.5]
[1,"two",3.5]
[1,"owt",3.5]
P {"x":1,"y":[2]}
P {"x":1,"y":[2]}
true
false
false
true
false
true
0
true
"from the child"
wrong values: 0
