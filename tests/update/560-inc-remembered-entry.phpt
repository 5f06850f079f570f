--TEST--
apcu_inc/dec/cas through the memo see every change to the key
--DESCRIPTION--
apcu_inc/apcu_dec/apcu_cas find a key's entry again through the thread's
memo of recent hits. Every change of the key (in-place store, delete, a
store of another type, a clear, a store by another process, a fetch) is seen
by the next update.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
$k = 'ctr';
apcu_store($k, 1);
echo json_encode([apcu_inc($k), apcu_inc($k, 5), apcu_dec($k, 2)]), "\n";
apcu_store($k, 100);                       // a scalar over a scalar: in place
echo json_encode([apcu_inc($k), apcu_fetch($k)]), "\n";
apcu_delete($k);
echo json_encode([apcu_fetch($k), apcu_inc($k, 1, $ok), $ok]), "\n";
apcu_store($k, "a string");
echo json_encode([apcu_inc($k, 1, $ok), $ok, apcu_fetch($k)]), "\n";
apcu_store($k, 3);
echo json_encode([apcu_fetch($k), apcu_inc($k), apcu_cas($k, 4, 40), apcu_cas($k, 4, 41), apcu_fetch($k)]), "\n";
apcu_clear_cache();
echo json_encode([apcu_fetch($k), apcu_dec($k, 1, $ok), $ok]), "\n";
apcu_store($k, [1, 2]);
echo json_encode([apcu_inc($k, 1, $ok), $ok, apcu_fetch($k)]), "\n";

// Another process replaces the key between two updates of this one.
apcu_store('x', 1);
apcu_inc('x');
$pid = pcntl_fork();
if ($pid === 0) {
    apcu_delete('x');
    apcu_store('x', 50);
    apcu_inc('x');
    exit(0);
}
pcntl_waitpid($pid, $st);
echo json_encode([pcntl_wexitstatus($st), apcu_inc('x'), apcu_fetch('x')]), "\n";

// Many keys, more than the memo's slots, each updated several times.
for ($i = 0; $i < 300; $i++) apcu_store("k$i", $i * 10);
$bad = 0;
for ($r = 1; $r <= 4; $r++) {
    for ($i = 0; $i < 300; $i++) {
        if (apcu_inc("k$i") !== $i * 10 + $r) $bad++;
    }
    if ($r === 2) {
        for ($i = 0; $i < 300; $i += 3) apcu_store("k$i", $i * 10 + 2);   // in place, same values
        for ($i = 1; $i < 300; $i += 3) { apcu_delete("k$i"); apcu_store("k$i", $i * 10 + 2); }
    }
}
for ($i = 0; $i < 300; $i++) if (apcu_fetch("k$i") !== $i * 10 + 4) $bad++;
echo "wrong values: $bad\n";
?>
--EXPECT--
[2,7,5]
[101,101]
[false,1,true]
[false,false,"a string"]
[3,4,true,false,40]
[false,-1,true]
[false,false,[1,2]]
[0,52,52]
wrong values: 0
