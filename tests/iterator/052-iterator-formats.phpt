--TEST--
APCUIterator: every format flag alone and combined
--DESCRIPTION--
Combinations, APC_ITER_NONE, APC_ITER_ALL and -1 too.
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
apcu_store('k', ['v' => 1], 60);
apcu_store('other', 2);
function show($format) {
    $it = new APCUIterator(['k'], $format);
    $items = iterator_to_array($it);
    echo str_pad(var_export($format, true), 12), ' ', count($items), ': ';
    foreach ($items as $key => $item) {
        $parts = [];
        foreach ($item as $f => $v) {
            $parts[] = $f . '=' . match ($f) {
                'type', 'key' => $v,
                'value' => json_encode($v),
                'ttl', 'num_hits', 'deletion_time', 'ref_count' => var_export($v, true),
                default => gettype($v),
            };
        }
        echo $key, ' [', implode(', ', $parts), ']';
    }
    echo "\n";
}
foreach ([APC_ITER_TYPE, APC_ITER_KEY, APC_ITER_VALUE, APC_ITER_NUM_HITS, APC_ITER_MTIME, APC_ITER_CTIME,
          APC_ITER_DTIME, APC_ITER_ATIME, APC_ITER_REFCOUNT, APC_ITER_MEM_SIZE, APC_ITER_TTL] as $flag) {
    show($flag);
}
show(APC_ITER_NONE);
show(APC_ITER_ALL);
show(-1);
show(APC_ITER_KEY | APC_ITER_VALUE);
show(APC_ITER_TTL | APC_ITER_TYPE | APC_ITER_MTIME);
show(APC_ITER_ALL & ~APC_ITER_VALUE);
show(1 << 11);                  // no known flag
show(PHP_INT_MIN);              // negative: accepted, and none of the flag bits is set
show(1 << 40);                  // above APC_ITER_ALL: a fatal error, as in APCu
echo "not reached\n";
?>
--EXPECTF--
1            1: k [type=user]
2            1: k [key=k]
4            1: k [value={"v":1}]
8            1: k [num_hits=0]
16           1: k [mtime=integer]
32           1: k [creation_time=integer]
64           1: k [deletion_time=0]
128          1: k [access_time=integer]
256          1: k [ref_count=0]
512          1: k [mem_size=integer]
1024         1: k [ttl=60]
0            1: k []
4294967295   1: k [type=user, key=k, value={"v":1}, num_hits=0, mtime=integer, creation_time=integer, deletion_time=0, access_time=integer, ref_count=0, mem_size=integer, ttl=60]
-1           1: k [type=user, key=k, value={"v":1}, num_hits=0, mtime=integer, creation_time=integer, deletion_time=0, access_time=integer, ref_count=0, mem_size=integer, ttl=60]
6            1: k [key=k, value={"v":1}]
1041         1: k [type=user, mtime=integer, ttl=60]
4294967291   1: k [type=user, key=k, num_hits=0, mtime=integer, creation_time=integer, deletion_time=0, access_time=integer, ref_count=0, mem_size=integer, ttl=60]
2048         1: k []
-9223372036854775807-1 1: k []

Fatal error: APCUIterator::__construct(): APCUIterator format is invalid in %s on line 5
