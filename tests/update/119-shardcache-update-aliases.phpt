--TEST--
shardcache_inc/dec/cas/entry: same signatures and cache as the apcu_* names
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache not loaded');
if (!function_exists('apcu_store')) die('skip apcu functions not available');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
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
foreach (['inc', 'dec', 'cas', 'entry'] as $f) {
    echo "shardcache_$f", sig("shardcache_$f"), ' same as apcu: ', var_export(sig("shardcache_$f") === sig("apcu_$f"), true),
        ', extension ', (new ReflectionFunction("shardcache_$f"))->getExtensionName(), "\n";
}
var_dump(shardcache_inc('n', 5, $ok), $ok, apcu_inc('n'), shardcache_dec('n', 2), apcu_fetch('n'));
var_dump(shardcache_cas('n', 4, 10), apcu_cas('n', 10, 11), shardcache_fetch('n'));
var_dump(shardcache_entry('e', fn($k) => "v:$k"), apcu_entry('e', fn() => 'other'), apcu_fetch('e'));
var_dump(apcu_entry('e2', fn($k) => "v:$k"), shardcache_entry('e2', fn() => 'other'));
var_dump(shardcache_inc('s', 1, $ok, -1), $ok);
?>
--EXPECT--
shardcache_inc(string $key, int $step = 1, &$success = NULL, int $ttl = 0): int|false same as apcu: true, extension shardcache
shardcache_dec(string $key, int $step = 1, &$success = NULL, int $ttl = 0): int|false same as apcu: true, extension shardcache
shardcache_cas(string $key, int $old, int $new): bool same as apcu: true, extension shardcache
shardcache_entry(string $key, callable $callback, int $ttl = 0): mixed same as apcu: true, extension shardcache
int(5)
bool(true)
int(6)
int(4)
int(4)
bool(true)
bool(true)
int(11)
string(3) "v:e"
string(3) "v:e"
string(3) "v:e"
string(4) "v:e2"
string(4) "v:e2"
bool(false)
bool(false)
