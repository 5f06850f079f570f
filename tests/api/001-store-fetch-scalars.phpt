--TEST--
apcu_store/apcu_fetch round-trip scalars: null, bool, int, float, string
--DESCRIPTION--
Floats include NAN, INF and -0.0; strings include binary strings.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
$values = [
    'null'    => null,
    'false'   => false,
    'true'    => true,
    'zero'    => 0,
    'one'     => 1,
    'neg'     => -42,
    'intmax'  => PHP_INT_MAX,
    'intmin'  => PHP_INT_MIN,
    'f0'      => 0.0,
    'fneg0'   => -0.0,
    'fpi'     => 3.141592653589793,
    'ftiny'   => 5e-324,
    'fbig'    => 1.7976931348623157e308,
    'fm'      => -0.1,
    'inf'     => INF,
    'ninf'    => -INF,
    'nan'     => NAN,
    'sempty'  => '',
    'sone'    => 'a',
    'snul'    => "\0",
    'sbin'    => "a\0b\0\0c\xff\xfe\x80",
    'snumeric'=> '123',
    'sfloat'  => '1.5',
    'sutf8'   => "h\u{e9}llo w\u{f6}rld \u{1F600}",
];
foreach ($values as $k => $v) {
    echo $k, ': ';
    var_dump(apcu_store($k, $v));
}
foreach ($values as $k => $v) {
    $got = apcu_fetch($k, $ok);
    echo $k, ': ok=', var_export($ok, true), ' type=', get_debug_type($got), ' ';
    if (is_float($v) && is_nan($v)) {
        echo 'nan=', var_export(is_nan($got), true), "\n";
    } elseif (is_string($v)) {
        echo 'same=', var_export($got === $v, true), ' hex=', bin2hex($got), "\n";
    } else {
        echo 'same=', var_export($got === $v, true), ' ';
        var_dump($got);
    }
}
// -0.0 must keep its sign bit
var_dump(fdiv(1, apcu_fetch('fneg0')));
var_dump(fdiv(1, apcu_fetch('f0')));

// every byte value
$all = '';
for ($i = 0; $i < 256; $i++) $all .= chr($i);
var_dump(apcu_store('allbytes', $all));
var_dump(apcu_fetch('allbytes') === $all);

// larger strings of various sizes
foreach ([7, 8, 63, 64, 65, 4095, 4096, 4097, 65536, 1 << 20] as $n) {
    $s = random_bytes($n);
    $ok1 = apcu_store("rnd$n", $s);
    $ok2 = apcu_fetch("rnd$n") === $s;
    echo "$n: ", var_export($ok1, true), ' ', var_export($ok2, true), "\n";
}

// overwrite with a value of a different type
var_dump(apcu_store('ow', 'string'), apcu_store('ow', 12), apcu_fetch('ow'));
var_dump(apcu_store('ow', [1]), apcu_store('ow', 1.5), apcu_fetch('ow'));
var_dump(apcu_store('ow', null), apcu_fetch('ow', $ok), $ok);
?>
--EXPECT--
null: bool(true)
false: bool(true)
true: bool(true)
zero: bool(true)
one: bool(true)
neg: bool(true)
intmax: bool(true)
intmin: bool(true)
f0: bool(true)
fneg0: bool(true)
fpi: bool(true)
ftiny: bool(true)
fbig: bool(true)
fm: bool(true)
inf: bool(true)
ninf: bool(true)
nan: bool(true)
sempty: bool(true)
sone: bool(true)
snul: bool(true)
sbin: bool(true)
snumeric: bool(true)
sfloat: bool(true)
sutf8: bool(true)
null: ok=true type=null same=true NULL
false: ok=true type=bool same=true bool(false)
true: ok=true type=bool same=true bool(true)
zero: ok=true type=int same=true int(0)
one: ok=true type=int same=true int(1)
neg: ok=true type=int same=true int(-42)
intmax: ok=true type=int same=true int(9223372036854775807)
intmin: ok=true type=int same=true int(-9223372036854775808)
f0: ok=true type=float same=true float(0)
fneg0: ok=true type=float same=true float(-0)
fpi: ok=true type=float same=true float(3.141592653589793)
ftiny: ok=true type=float same=true float(5.0E-324)
fbig: ok=true type=float same=true float(1.7976931348623157E+308)
fm: ok=true type=float same=true float(-0.1)
inf: ok=true type=float same=true float(INF)
ninf: ok=true type=float same=true float(-INF)
nan: ok=true type=float nan=true
sempty: ok=true type=string same=true hex=
sone: ok=true type=string same=true hex=61
snul: ok=true type=string same=true hex=00
sbin: ok=true type=string same=true hex=610062000063fffe80
snumeric: ok=true type=string same=true hex=313233
sfloat: ok=true type=string same=true hex=312e35
sutf8: ok=true type=string same=true hex=68c3a96c6c6f2077c3b6726c6420f09f9880
float(-INF)
float(INF)
bool(true)
bool(true)
7: true true
8: true true
63: true true
64: true true
65: true true
4095: true true
4096: true true
4097: true true
65536: true true
1048576: true true
bool(true)
bool(true)
int(12)
bool(true)
bool(true)
float(1.5)
bool(true)
NULL
bool(true)
