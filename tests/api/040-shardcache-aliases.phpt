--TEST--
shardcache_* aliases exist, share the cache with apcu_*, and behave identically
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache not loaded');
if (!function_exists('apcu_store')) die('skip apcu functions not available');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
$names = [E_WARNING => 'Warning', E_NOTICE => 'Notice', E_DEPRECATED => 'Deprecated'];
set_error_handler(function ($no, $str) use ($names) { echo $names[$no] ?? $no, ': ', $str, "\n"; return true; });
function sig(string $fn): string {
    $r = new ReflectionFunction($fn);
    $ps = [];
    foreach ($r->getParameters() as $p) {
        $s = ($p->hasType() ? $p->getType() . ' ' : '') . ($p->isPassedByReference() ? '&' : '') . '$' . $p->getName();
        if ($p->isOptional()) {
            $s .= ' = ' . ($p->isDefaultValueAvailable() ? var_export($p->getDefaultValue(), true) : '<no default>');
        }
        $ps[] = $s;
    }
    return '(' . implode(', ', $ps) . '): ' . $r->getReturnType();
}
$fns = ['store', 'add', 'fetch', 'exists', 'delete', 'clear_cache', 'enabled'];
foreach ($fns as $f) {
    $ok = function_exists("shardcache_$f");
    echo "shardcache_$f: exists=", var_export($ok, true);
    if ($ok) {
        echo ' ext=', (new ReflectionFunction("shardcache_$f"))->getExtensionName(),
            ' same-signature=', var_export(sig("shardcache_$f") === sig("apcu_$f"), true);
    }
    echo "\n";
}
// without the real APCu extension, the apcu_* names are provided by shardcache
if (!extension_loaded('apcu')) {
    foreach ($fns as $f) {
        echo "apcu_$f: ext=", (new ReflectionFunction("apcu_$f"))->getExtensionName(), "\n";
    }
} else {
    foreach ($fns as $f) echo "apcu_$f: ext=shardcache\n";   // (APCu loaded too: not checked)
}

echo "-- one cache behind both names\n";
var_dump(shardcache_enabled());
var_dump(shardcache_store('s', 'via shardcache_store'), apcu_fetch('s'));
var_dump(apcu_store('a', ['via' => 'apcu_store']), shardcache_fetch('a'));
var_dump(shardcache_store(['m1' => 1, 'm2' => 2]), shardcache_fetch(['m1', 'm2', 'nope'], $ok), $ok);
var_dump(shardcache_add('s', 'x'), shardcache_add('new', 'added'), apcu_fetch('new'));
var_dump(shardcache_add(['s' => 1, 'new2' => 2]));
var_dump(shardcache_exists('a'), shardcache_exists(['a', 'nope', 's']));
var_dump(shardcache_fetch('nope', $ok), $ok);
var_dump(shardcache_delete('a'), shardcache_delete('a'), apcu_exists('a'));
var_dump(shardcache_delete(['m1', 'nope']));
var_dump(shardcache_store('ttl', 1, -1), shardcache_exists('ttl'));
var_dump(shardcache_clear_cache(), apcu_exists('s'), shardcache_exists('new'));

echo "-- same errors, reported under the alias name\n";
var_dump(shardcache_store(5, 1));
var_dump(shardcache_add(null, 1));
var_dump(shardcache_fetch([5]));
var_dump(shardcache_exists([5]));
var_dump(shardcache_delete(5));
var_dump(shardcache_store('r', STDIN));
try { shardcache_store('c', fn() => 1); } catch (Exception $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
try { shardcache_store('t', 1, 'x'); } catch (TypeError $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
try { shardcache_fetch(); } catch (ArgumentCountError $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
?>
--EXPECT--
shardcache_store: exists=true ext=shardcache same-signature=true
shardcache_add: exists=true ext=shardcache same-signature=true
shardcache_fetch: exists=true ext=shardcache same-signature=true
shardcache_exists: exists=true ext=shardcache same-signature=true
shardcache_delete: exists=true ext=shardcache same-signature=true
shardcache_clear_cache: exists=true ext=shardcache same-signature=true
shardcache_enabled: exists=true ext=shardcache same-signature=true
apcu_store: ext=shardcache
apcu_add: ext=shardcache
apcu_fetch: ext=shardcache
apcu_exists: ext=shardcache
apcu_delete: ext=shardcache
apcu_clear_cache: ext=shardcache
apcu_enabled: ext=shardcache
-- one cache behind both names
bool(true)
bool(true)
string(20) "via shardcache_store"
bool(true)
array(1) {
  ["via"]=>
  string(10) "apcu_store"
}
array(0) {
}
array(2) {
  ["m1"]=>
  int(1)
  ["m2"]=>
  int(2)
}
bool(true)
bool(false)
bool(true)
string(5) "added"
array(1) {
  ["s"]=>
  int(-1)
}
bool(true)
array(2) {
  ["a"]=>
  bool(true)
  ["s"]=>
  bool(true)
}
bool(false)
bool(false)
bool(true)
bool(false)
bool(false)
array(1) {
  [0]=>
  string(4) "nope"
}
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
-- same errors, reported under the alias name
Warning: shardcache_store(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
Warning: shardcache_add(): apc_store expects key parameter to be a string or an array of key/value pairs.
bool(false)
Warning: shardcache_fetch(): apc_fetch() expects a string or array of strings.
array(0) {
}
Warning: shardcache_exists(): apc_exists() expects a string or array of strings.
array(0) {
}
Warning: shardcache_delete(): apc_delete() expects a string, array of strings, or APCIterator instance
bool(false)
Warning: shardcache_store(): Cannot store resources in apcu cache
bool(false)
Exception: Serialization of 'Closure' is not allowed
TypeError: shardcache_store(): Argument #3 ($ttl) must be of type int, string given
ArgumentCountError: shardcache_fetch() expects at least 1 argument, 0 given
