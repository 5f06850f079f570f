--TEST--
apcu_clear_cache removes every entry; apcu_enabled is true when usable
--DESCRIPTION--
apcu_enabled reports true when the cache is usable.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
var_dump(apcu_enabled());
var_dump(apcu_clear_cache());          // on an empty cache
$keys = [];
for ($i = 0; $i < 1000; $i++) {
    $keys[] = "key$i";
    apcu_store("key$i", $i % 2 ? "value $i" : [$i]);
}
var_dump(count(apcu_exists($keys)));
var_dump(apcu_clear_cache());
var_dump(count(apcu_exists($keys)), apcu_fetch('key1'), apcu_fetch($keys));
// the cache is fully usable after clearing
var_dump(apcu_add('key1', 'again'), apcu_fetch('key1'), apcu_store('key2', 2), apcu_fetch('key2'));
var_dump(apcu_clear_cache(), apcu_clear_cache());
var_dump(apcu_exists('key1'), apcu_delete('key1'));
var_dump(apcu_enabled());
?>
--EXPECT--
bool(true)
bool(true)
int(1000)
bool(true)
int(0)
bool(false)
array(0) {
}
bool(true)
string(5) "again"
bool(true)
int(2)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
