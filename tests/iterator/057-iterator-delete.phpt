--TEST--
apcu_delete(APCUIterator): deletes what the iterator would still visit
--DESCRIPTION--
It deletes every entry the iterator would still visit and returns true.
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
function fill() {
    apcu_clear_cache();
    for ($i = 0; $i < 200; $i++) {
        apcu_store("user:$i", $i);
        apcu_store("sess:$i", [$i]);
    }
    apcu_store('keep', 'me');
}
function left() {
    $keys = [];
    foreach (new APCUIterator(null, APC_ITER_NONE) as $k => $v) {
        $keys[] = preg_replace('/\d+$/', 'N', $k);
    }
    $c = array_count_values($keys);
    ksort($c);
    return json_encode($c);
}
fill();
var_dump(apcu_delete(new APCUIterator('/^user:/')));
echo left(), "\n";
var_dump(apcu_fetch('user:5'), apcu_fetch('sess:5'), apcu_exists('keep'));

fill();
var_dump(apcu_delete(new APCUIterator(['user:1', 'sess:2', 'keep', 'missing'])));
echo left(), "\n";
var_dump(apcu_exists(['user:1', 'user:2', 'sess:1', 'sess:2', 'keep']));

fill();
var_dump(apcu_delete(new APCUIterator('/^(user|sess):1\d$/', APC_ITER_VALUE, 3)));
echo left(), "\n";

echo "-- every format and chunk size deletes the same\n";
foreach ([[APC_ITER_NONE, 0], [APC_ITER_ALL, 1], [APC_ITER_KEY, 7], [APC_ITER_VALUE, 500]] as [$fmt, $chunk]) {
    fill();
    var_dump(apcu_delete(new APCUIterator('/^sess:/', $fmt, $chunk)));
    echo left(), "\n";
}

echo "-- nothing matches\n";
fill();
var_dump(apcu_delete(new APCUIterator('/^nothing/')), apcu_delete(new APCUIterator([])));
echo left(), "\n";

echo "-- a fully iterated iterator deletes nothing more; a fresh one everything\n";
$it = new APCUIterator('/^user:/');
foreach ($it as $_) {
}
var_dump(apcu_delete($it));
echo left(), "\n";
var_dump(apcu_delete(new APCUIterator()));
echo left(), "\n";
var_dump(apcu_cache_info(true)['num_entries']);

echo "-- the deleted list deletes nothing\n";
fill();
var_dump(apcu_delete(new APCUIterator(null, APC_ITER_ALL, 0, APC_LIST_DELETED)));
echo left(), "\n";

echo "-- the iterator can be used again afterwards\n";
$it = new APCUIterator('/^keep$/');
var_dump(apcu_delete($it));
var_dump($it->valid());
apcu_store('keep', 'again');
$it->rewind();
var_dump($it->valid(), $it->key(), $it->current()['value']);

echo "-- in an array of keys, an iterator is not accepted\n";
var_dump(apcu_delete([new APCUIterator(['keep'])]));
var_dump(apcu_exists('keep'));
?>
--EXPECTF--
bool(true)
{"keep":1,"sess:N":200}
bool(false)
array(1) {
  [0]=>
  int(5)
}
bool(true)
bool(true)
{"sess:N":199,"user:N":199}
array(2) {
  ["user:2"]=>
  bool(true)
  ["sess:1"]=>
  bool(true)
}
bool(true)
{"keep":1,"sess:N":190,"user:N":190}
-- every format and chunk size deletes the same
bool(true)
{"keep":1,"user:N":200}
bool(true)
{"keep":1,"user:N":200}
bool(true)
{"keep":1,"user:N":200}
bool(true)
{"keep":1,"user:N":200}
-- nothing matches
bool(true)
bool(true)
{"keep":1,"sess:N":200,"user:N":200}
-- a fully iterated iterator deletes nothing more; a fresh one everything
bool(true)
{"keep":1,"sess:N":200,"user:N":200}
bool(true)
[]
int(0)
-- the deleted list deletes nothing
bool(true)
{"keep":1,"sess:N":200,"user:N":200}
-- the iterator can be used again afterwards
bool(true)
bool(false)
bool(true)
string(4) "keep"
string(5) "again"
-- in an array of keys, an iterator is not accepted

Warning: apcu_delete(): apc_delete() expects a string, array of strings, or APCIterator instance in %s on line 69
array(1) {
  [0]=>
  object(APCUIterator)#%d (0) {
  }
}
bool(true)
