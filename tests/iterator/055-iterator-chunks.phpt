--TEST--
APCUIterator: every chunk size gives every entry, chunks as in APCu
--DESCRIPTION--
Chunk sizes 0 (= 100), 1, small and large give every entry; a chunk holds
chunk_size + 1 entries, as in APCu.
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
$n = 1000;
for ($i = 0; $i < $n; $i++) {
    apcu_store("e$i", str_repeat(chr(65 + $i % 26), $i % 50));
}
foreach ([0, 1, 2, 3, 99, 100, 101, 999, 1000, 5000] as $chunk) {
    $keys = [];
    $bad = 0;
    foreach (new APCUIterator(null, APC_ITER_ALL, $chunk) as $k => $item) {
        $i = (int)substr($k, 1);
        if ($item['key'] !== $k || $item['value'] !== str_repeat(chr(65 + $i % 26), $i % 50)) {
            $bad++;
        }
        $keys[$k] = true;
    }
    echo "chunk $chunk: ", count($keys), " distinct keys, $bad bad\n";
}
// apcu_delete($iterator) deletes what the iterator has not fetched yet: after
// rewind() the first chunk is fetched, so its entries stay
foreach ([1, 2, 9, 100, 998, 999, 1000] as $chunk) {
    apcu_clear_cache();
    for ($i = 0; $i < $n; $i++) {
        apcu_store("e$i", $i);
    }
    $it = new APCUIterator(null, APC_ITER_KEY, $chunk);
    $it->rewind();
    var_dump(apcu_delete($it));
    echo "chunk $chunk: ", apcu_cache_info(true)['num_entries'], " left\n";
}
?>
--EXPECT--
chunk 0: 1000 distinct keys, 0 bad
chunk 1: 1000 distinct keys, 0 bad
chunk 2: 1000 distinct keys, 0 bad
chunk 3: 1000 distinct keys, 0 bad
chunk 99: 1000 distinct keys, 0 bad
chunk 100: 1000 distinct keys, 0 bad
chunk 101: 1000 distinct keys, 0 bad
chunk 999: 1000 distinct keys, 0 bad
chunk 1000: 1000 distinct keys, 0 bad
chunk 5000: 1000 distinct keys, 0 bad
bool(true)
chunk 1: 2 left
bool(true)
chunk 2: 3 left
bool(true)
chunk 9: 10 left
bool(true)
chunk 100: 101 left
bool(true)
chunk 998: 999 left
bool(true)
chunk 999: 1000 left
bool(true)
chunk 1000: 1000 left
