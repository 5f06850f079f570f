--TEST--
Special keys: empty, NUL bytes, binary, very long, near-identical
--DESCRIPTION--
Very long keys are 100 KB and 1 MB long.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
echo "-- empty key is an ordinary key\n";
var_dump(apcu_exists(''), apcu_store('', 'empty'), apcu_fetch(''), apcu_exists(''));
var_dump(apcu_add('', 'x'), apcu_fetch(['', 'missing']), apcu_delete(''), apcu_exists(''), apcu_add('', 'y'), apcu_fetch(''));
var_dump(apcu_store(['' => 'via array form']), apcu_fetch(''));

echo "-- NUL bytes are part of the key\n";
$keys = ["a\0b", "a\0c", "a", "a\0", "\0a", "\0", "\0\0"];
foreach ($keys as $i => $k) {
    var_dump(apcu_store($k, $i));
}
foreach ($keys as $i => $k) {
    echo bin2hex($k), ' => ', var_export(apcu_fetch($k), true), "\n";
}
var_dump(apcu_exists("a\0d"), apcu_fetch("a\0d"));
$m = apcu_fetch($keys);
echo implode(',', array_map('bin2hex', array_keys($m))), ' | ', implode(',', $m), "\n";
var_dump(apcu_delete("a\0b"), apcu_exists("a\0b"), apcu_fetch("a\0c"), apcu_fetch('a'));
var_dump(array_map("bin2hex", apcu_delete(["\0", "x\0"])));
var_dump(apcu_exists("\0"), apcu_fetch("\0\0"));

echo "-- binary and multibyte keys\n";
$bin = '';
for ($i = 255; $i >= 0; $i--) $bin .= chr($i);
var_dump(apcu_store($bin, 'bin'), apcu_fetch($bin), apcu_exists(substr($bin, 0, 255)));
var_dump(apcu_store("cl\u{e9}", 'nfc'), apcu_store("cle\u{301}", 'nfd'), apcu_fetch("cl\u{e9}"), apcu_fetch("cle\u{301}"));
var_dump(apcu_store('Key', 'upper'), apcu_store('key', 'lower'), apcu_fetch('Key'), apcu_fetch('key'), apcu_fetch('KEY'));

echo "-- very long keys\n";
foreach ([250, 256, 4096, 100 * 1024, 1024 * 1024] as $len) {
    $k = str_repeat('k', $len - 1) . 'A';
    $near = str_repeat('k', $len - 1) . 'B';
    $shorter = substr($k, 1);
    $r = [
        apcu_store($k, "long $len"),
        apcu_fetch($k),
        apcu_exists($k),
        apcu_exists($near),
        apcu_exists($shorter),
        apcu_add($k, 'x'),
        apcu_add($near, "near $len"),
        array_values(apcu_fetch([$k, $near])),
        array_keys(apcu_fetch([$k, $near])) === [$k, $near],
        apcu_delete($k),
        apcu_exists($k),
        apcu_fetch($near),
    ];
    echo $len, ': ', json_encode($r), "\n";
}
$k = str_repeat('x', 100 * 1024);
var_dump(apcu_store([$k => 'array form']), apcu_fetch($k), apcu_exists([$k]) === [$k => true]);
?>
--EXPECT--
-- empty key is an ordinary key
bool(false)
bool(true)
string(5) "empty"
bool(true)
bool(false)
array(1) {
  [""]=>
  string(5) "empty"
}
bool(true)
bool(false)
bool(true)
string(1) "y"
array(0) {
}
string(14) "via array form"
-- NUL bytes are part of the key
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
610062 => 0
610063 => 1
61 => 2
6100 => 3
0061 => 4
00 => 5
0000 => 6
bool(false)
bool(false)
610062,610063,61,6100,0061,00,0000 | 0,1,2,3,4,5,6
bool(true)
bool(false)
int(1)
int(2)
array(1) {
  [0]=>
  string(4) "7800"
}
bool(false)
int(6)
-- binary and multibyte keys
bool(true)
string(3) "bin"
bool(false)
bool(true)
bool(true)
string(3) "nfc"
string(3) "nfd"
bool(true)
bool(true)
string(5) "upper"
string(5) "lower"
bool(false)
-- very long keys
250: [true,"long 250",true,false,false,false,true,["long 250","near 250"],true,true,false,"near 250"]
256: [true,"long 256",true,false,false,false,true,["long 256","near 256"],true,true,false,"near 256"]
4096: [true,"long 4096",true,false,false,false,true,["long 4096","near 4096"],true,true,false,"near 4096"]
102400: [true,"long 102400",true,false,false,false,true,["long 102400","near 102400"],true,true,false,"near 102400"]
1048576: [true,"long 1048576",true,false,false,false,true,["long 1048576","near 1048576"],true,true,false,"near 1048576"]
array(0) {
}
string(10) "array form"
bool(true)
