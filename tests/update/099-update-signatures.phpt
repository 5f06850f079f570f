--TEST--
apcu_inc/dec/cas/entry signatures match APCu 5.1; named arguments work
--DESCRIPTION--
Names, types, defaults, by-reference parameters and return types match APCu
5.1; named arguments are checked.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
foreach (['apcu_inc', 'apcu_dec', 'apcu_cas', 'apcu_entry'] as $fn) {
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
var_dump(apcu_inc(key: 'n', step: 2, success: $ok, ttl: 0), $ok);
var_dump(apcu_inc(success: $ok2, key: 'n'), $ok2);
var_dump(apcu_dec(step: 5, key: 'n'));
var_dump(apcu_dec('n', ttl: 100, success: $ok3), $ok3);
var_dump(apcu_cas(key: 'n', old: -3, new: 4), apcu_fetch('n'));
var_dump(apcu_cas(new: 5, old: 4, key: 'n'), apcu_fetch('n'));
var_dump(apcu_entry(key: 'e', callback: fn($k) => "<$k>", ttl: 0));
var_dump(apcu_entry(callback: 'strrev', key: 'abc'));
var_dump(apcu_entry('ttl', ttl: 100, callback: 'strtoupper'));
?>
--EXPECT--
apcu_inc(string $key, int $step = 1, &$success = NULL, int $ttl = 0): int|false required=1
apcu_dec(string $key, int $step = 1, &$success = NULL, int $ttl = 0): int|false required=1
apcu_cas(string $key, int $old, int $new): bool required=3
apcu_entry(string $key, callable $callback, int $ttl = 0): mixed required=2
int(2)
bool(true)
int(3)
bool(true)
int(-2)
int(-3)
bool(true)
bool(true)
int(4)
bool(true)
int(5)
string(3) "<e>"
string(3) "cba"
string(3) "TTL"
