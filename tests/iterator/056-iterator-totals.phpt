--TEST--
APCUIterator: getTotalCount, getTotalSize and getTotalHits follow the search
--DESCRIPTION--
They follow the search, are computed once, and ignore the list.
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
for ($i = 0; $i < 30; $i++) {
    apcu_store("a$i", str_repeat('x', $i * 100));
}
for ($i = 0; $i < 10; $i++) {
    apcu_store("b$i", $i);
}
foreach ([null, '/^a/', '/^b/', ['a1', 'b1', 'zz'], '/none/', []] as $search) {
    $it = new APCUIterator($search, APC_ITER_MEM_SIZE | APC_ITER_NUM_HITS);
    $count = $it->getTotalCount();
    $size = $it->getTotalSize();
    $hits = $it->getTotalHits();
    // the totals agree with what iterating sees
    $n = $sum = $h = 0;
    foreach ($it as $item) {
        $n++;
        $sum += $item['mem_size'];
        $h += $item['num_hits'];
    }
    echo json_encode($search), ": count $count, size ", gettype($size), ' ', var_export($size > 0, true),
         ", hits $hits; iterated: ", json_encode([$n === $count, $sum === $size, $h === $hits]), "\n";
}
echo "-- bigger values take more room\n";
$small = (new APCUIterator(['a1']))->getTotalSize();
$large = (new APCUIterator(['a29']))->getTotalSize();
var_dump($large >= $small + 2800);
echo "-- computed once\n";
$it = new APCUIterator('/^c/');
var_dump($it->getTotalCount(), $it->getTotalSize());
apcu_store('c1', 'new');
var_dump($it->getTotalCount(), $it->getTotalSize(), (new APCUIterator('/^c/'))->getTotalCount());
var_dump(iterator_count($it)); // iterating sees the new entry
echo "-- the deleted list is empty, but the totals count the active entries\n";
$it = new APCUIterator(null, APC_ITER_ALL, 0, APC_LIST_DELETED);
var_dump(iterator_to_array($it), $it->getTotalCount());
echo "-- expired entries are neither listed nor counted\n";
apcu_store('gone', 1, -1);
var_dump((new APCUIterator(['gone']))->getTotalCount(), iterator_count(new APCUIterator(['gone'])));
?>
--EXPECT--
null: count 40, size integer true, hits 0; iterated: [true,true,true]
"\/^a\/": count 30, size integer true, hits 0; iterated: [true,true,true]
"\/^b\/": count 10, size integer true, hits 0; iterated: [true,true,true]
["a1","b1","zz"]: count 2, size integer true, hits 0; iterated: [true,true,true]
"\/none\/": count 0, size integer false, hits 0; iterated: [true,true,true]
[]: count 0, size integer false, hits 0; iterated: [true,true,true]
-- bigger values take more room
bool(true)
-- computed once
int(0)
int(0)
int(0)
int(0)
int(1)
int(1)
-- the deleted list is empty, but the totals count the active entries
array(0) {
}
int(41)
-- expired entries are neither listed nor counted
int(0)
int(0)
