--TEST--
shardcache.segment in the test process itself: every operation works on it
--DESCRIPTION--
This lets the valgrind run see the named-segment code. The segment file is
made at startup, mapped, and every operation works on it (store, fetch, add,
inc, cas, entry, delete, iterator, info, clear). With %p the file has no
name (nothing is left at the path).
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=2M
shardcache.segment={TMP}/shardcache-288-%p
--FILE--
<?php
$seg = str_replace('%p', getmypid(), ini_get('shardcache.segment'));
clearstatcache();
echo file_exists($seg) ? "file at the path\n" : "no file at the path\n";
var_dump(apcu_enabled());
var_dump(apcu_store('a', ['x' => 1, 'y' => [2, 3]]), apcu_fetch('a'));
var_dump(apcu_add('a', 1), apcu_add('b', 'bee'), apcu_fetch(['a', 'b', 'c']) === ['a' => ['x' => 1, 'y' => [2, 3]], 'b' => 'bee']);
var_dump(apcu_inc('n', 5), apcu_dec('n', 2), apcu_cas('n', 3, 10), apcu_fetch('n'));
var_dump(apcu_entry('e', fn($k) => "made $k"), apcu_entry('e', fn($k) => 'not again'));
$keys = [];
foreach (new APCUIterator('/^[abe]$/') as $k => $v) $keys[] = $k;
sort($keys);
echo implode(',', $keys), "\n";
var_dump(apcu_delete('b'), apcu_exists('b'));
$i = apcu_cache_info();
echo "entries ", $i['num_entries'], "\n";
var_dump(apcu_clear_cache(), apcu_cache_info()['num_entries']);
ob_start();
(new ReflectionExtension('shardcache'))->info();
echo preg_match('/^Segment => ' . preg_quote($seg, '/') . ' \(file, \d+ boots\)$/m', ob_get_clean()) ? "phpinfo names the file\n" : "phpinfo: ?\n";
var_dump(apcu_store('after-unlink', 1), apcu_fetch('after-unlink'));
?>
--EXPECT--
no file at the path
bool(true)
bool(true)
array(2) {
  ["x"]=>
  int(1)
  ["y"]=>
  array(2) {
    [0]=>
    int(2)
    [1]=>
    int(3)
  }
}
bool(false)
bool(true)
bool(true)
int(5)
int(3)
bool(true)
int(10)
string(6) "made e"
string(6) "made e"
a,b,e
bool(true)
bool(false)
entries 3
bool(true)
int(0)
phpinfo names the file
bool(true)
int(1)
