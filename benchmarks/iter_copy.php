<?php
/*
 * iter_copy.php [SECONDS]: APCUIterator reads of one 100-element list (80
 * ints, 20 short strings, the value of bench.php's fetch_arr_100) per
 * second, in one process. The iterator always copies a value into request
 * memory: with shardcache.zero_copy=1 the value is stored as a zero-copy
 * layout and read through the layout copy (php/zc_copy.c); with
 * zero_copy=0 it is stored in the copying format and decoded. The same
 * script, one setting after the other, compares the two readers:
 *
 *   for i in 1 2 3 4 5 6 7; do for z in 0 1; do
 *     taskset -c 1 php -n -d extension=modules/shardcache.so -d apc.enable_cli=1 \
 *       -d shardcache.zero_copy=$z benchmarks/iter_copy.php; done; done
 *
 * Prints the reads per second; exits 1 when a value read is wrong.
 */
$seconds = (float)($argv[1] ?? 1);
$list = range(0, 79);
for ($q = 0; $q < 20; $q++) {
    $list[] = "v0_$q";
}
apcu_store('iter_copy', $list);
$reads = 0;
$end = hrtime(true) + (int)($seconds * 1e9);
while (hrtime(true) < $end) {
    for ($j = 0; $j < 200; $j++) {
        foreach (new APCUIterator('/^iter_copy$/', APC_ITER_VALUE) as $e) {
            if ($e['value'] !== $list) {
                fwrite(STDERR, "iter_copy: wrong value read\n");
                exit(1);
            }
        }
    }
    $reads += 200;
}
echo $reads, "\n";
