--TEST--
Function signatures match APCu 5.1
--DESCRIPTION--
Parameter names, types, defaults, by-reference parameters and return types
all match APCu 5.1.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
foreach (['apcu_store', 'apcu_add', 'apcu_fetch', 'apcu_exists', 'apcu_delete', 'apcu_clear_cache', 'apcu_enabled'] as $fn) {
    $r = new ReflectionFunction($fn);
    $ps = [];
    foreach ($r->getParameters() as $p) {
        $s = ($p->hasType() ? $p->getType() . ' ' : '') . ($p->isPassedByReference() ? '&' : '') . '$' . $p->getName();
        if ($p->isOptional()) {
            $s .= ' = ' . ($p->isDefaultValueAvailable() ? var_export($p->getDefaultValue(), true) : '<no default>');
        }
        $ps[] = $s;
    }
    echo $fn, '(', implode(', ', $ps), '): ', $r->getReturnType(),
        ' required=', $r->getNumberOfRequiredParameters(), "\n";
}
// named arguments use those names
var_dump(apcu_store(key: 'n', value: 'named', ttl: 0));
var_dump(apcu_add(value: 'v', key: 'n2'));
var_dump(apcu_fetch(key: 'n'), apcu_fetch(key: 'n2', success: $ok), $ok);
var_dump(apcu_exists(key: 'n'), apcu_delete(key: 'n'));
?>
--EXPECT--
apcu_store($key, mixed $value = <no default>, int $ttl = 0): array|bool required=1
apcu_add($key, mixed $value = <no default>, int $ttl = 0): array|bool required=1
apcu_fetch($key, &$success = NULL): mixed required=1
apcu_exists($key): array|bool required=1
apcu_delete($key): array|bool required=1
apcu_clear_cache(): bool required=0
apcu_enabled(): bool required=0
bool(true)
bool(true)
string(5) "named"
string(1) "v"
bool(true)
bool(true)
bool(true)
