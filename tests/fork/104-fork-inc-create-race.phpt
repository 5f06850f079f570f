--TEST--
4 processes apcu_inc the same missing keys at once: each ends at 4, results 1-4
--DESCRIPTION--
3,000 missing keys are incremented at the same moment (creation races). Each
key ends at 4 and its four calls returned 1, 2, 3 and 4. The same holds for
apcu_dec with a ttl.
--SKIPIF--
<?php require __DIR__ . '/../lib/fork-update.inc'; fu_skip(); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
const PROCS = 4;
const NKEYS = 3000;

function race(string $fn, string $prefix, int $ttl): void {
    // every process walks the keys in the same order, so they meet on each missing key
    $kids = fu_start(PROCS, function (int $id) use ($fn, $prefix, $ttl) {
        $r = [];
        for ($i = 0; $i < NKEYS; $i++) {
            $ok = null;
            $v = $fn("$prefix$i", 1, $ok, $ttl);
            $r[] = ($ok === true && is_int($v)) ? $v : 99;
        }
        return pack('c*', ...$r);
    });
    fu_go($kids);
    $errors = 0;
    $results = fu_finish($kids, $errors);
    $sign = $fn === 'apcu_inc' ? 1 : -1;
    $want = [1 * $sign, 2 * $sign, 3 * $sign, 4 * $sign];
    sort($want);
    $bad_keys = 0;
    $results = array_map(fn($s) => array_values(unpack('c*', $s)), $results);
    for ($i = 0; $i < NKEYS; $i++) {
        $got = array_column($results, $i);
        sort($got);
        if ($got !== $want || apcu_fetch("$prefix$i") !== 4 * $sign) {
            if ($bad_keys++ < 5) echo "$prefix$i: returned ", implode(',', $got), ', now ', var_export(apcu_fetch("$prefix$i"), true), "\n";
        }
    }
    echo "$fn: errors $errors, bad keys $bad_keys\n";
}
race('apcu_inc', 'inc', 0);
race('apcu_dec', 'dec', 3600);
?>
--EXPECT--
apcu_inc: errors 0, bad keys 0
apcu_dec: errors 0, bad keys 0
