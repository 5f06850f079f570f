--TEST--
apc.entries_hint the segment cannot index at all: APCu's startup error
--DESCRIPTION--
1M entries in apc.shm_size=1M gives APCu's startup error. Hints that fit, or
are judged as APCu judges them, start.
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
$cases = [['1M', '1000000'], ['1M', '100000'], ['32M', '999999999999']];
foreach ($cases as [$size, $hint]) {
    [$out, $status] = sc_run_php(['extension=' . sc_extension_path(), 'apc.enable_cli=1', "apc.shm_size=$size",
                                  "apc.entries_hint=$hint", 'display_startup_errors=1', 'log_errors=0'],
                                 'var_dump(apcu_enabled(), apcu_store("k", 1), apcu_fetch("k"));');
    $out = trim($out);
    $out = sc_strip_startup_trace($out, $status);
    echo "$size $hint: exit ", $status === 0 ? 0 : 'non-zero', "\n", $out, "\n";
}
?>
--EXPECTF--
1M 1000000: exit non-zero
%AFatal error: Unable to allocate %d bytes of shared memory for cache structures. Either apc.shm_size is too small or apc.entries_hint too large in Unknown on line 0
1M 100000: exit 0
bool(true)
bool(true)
int(1)
32M 999999999999: exit 0
bool(true)
bool(true)
int(1)
