--TEST--
Copied arrays hand back one shared string for a repeated string value
--DESCRIPTION--
A string value that repeats within one stored array (literals, and equal
strings built apart) is written once; each fetch makes it once and the
rows share it, as APCu's fetch does (debug_zval_dump shows the refcount).
Only values inside nested arrays are shared, not the top array's own.
Strings of one byte, strings over 255 bytes and repeats further apart than
the decoder's ring of 256 strings still come back equal, in lists, hashes,
nested arrays and arrays holding PHP references.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.zero_copy=0
--FILE--
<?php
$rows = [];
for ($i = 0; $i < 4; $i++) {
    $rows["r$i"] = [
        'method' => 'GET',
        'handler' => 'App\\Ctl::show' . ($i % 2),
        'path' => "/p/$i",
        'one' => 'x',
        'long' => str_repeat('L', 300),
        'list' => ['GET', 'HEAD', 'GET'],
    ];
}
var_dump(apcu_store('routes', $rows));
$v = apcu_fetch('routes');
var_dump($v === $rows);
debug_zval_dump($v['r0']['method']);
debug_zval_dump($v['r1']['handler']);
debug_zval_dump($v['r2']['path']);
debug_zval_dump($v['r3']['long']);
$v['r0']['method'] .= 'X';
var_dump($v['r0']['method'], $v['r1']['method'], $v['r0']['list'][0]);
var_dump(apcu_fetch('routes') === $rows);

// A fetched array (shared strings) stored again.
var_dump(apcu_store('again', $v), apcu_fetch('again') === $v);

// Repeats further apart than the ring: 300 distinct strings between.
$far = ['first', 'second'];
for ($i = 0; $i < 300; $i++) {
    $far[] = "distinct-$i";
}
$far[] = 'first';
$far[] = 'second';
$far[] = 'distinct-299';
$far = ['rows' => $far];
var_dump(apcu_store('far', $far), apcu_fetch('far') === $far);
$f = apcu_fetch('far')['rows'];
debug_zval_dump($f[302]);
debug_zval_dump($f[304]);

// The top array's own values are not shared (a flat array of distinct
// strings pays nothing for the memo); its rows' values are.
$flat = ['top', 'top', ['top', 'top']];
var_dump(apcu_store('flat', $flat));
$g = apcu_fetch('flat');
debug_zval_dump($g[1]);
debug_zval_dump($g[2][1]);

// PHP references in the array (the memo form).
$r = ['a' => 'shared', 'b' => 'shared', 'n' => ['shared', 'other', 'other']];
$r['ref'] = &$r['a'];
var_dump(apcu_store('refs', $r));
$g = apcu_fetch('refs');
var_dump($g == $r);
$g['ref'] = 'changed';
var_dump($g['a'], $g['b'], $g['n'][0]);
?>
--EXPECT--
bool(true)
bool(true)
string(3) "GET" refcount(13)
string(14) "App\Ctl::show1" refcount(3)
string(4) "/p/2" refcount(2)
string(300) "LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL" refcount(2)
string(4) "GETX"
string(3) "GET"
string(3) "GET"
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(5) "first" refcount(2)
string(12) "distinct-299" refcount(3)
bool(true)
string(3) "top" refcount(2)
string(3) "top" refcount(3)
bool(true)
bool(true)
string(7) "changed"
string(6) "shared"
string(6) "shared"
