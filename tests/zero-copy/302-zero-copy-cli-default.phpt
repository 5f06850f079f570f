--TEST--
shardcache.zero_copy: off by default in the CLI, on with -d zero_copy=1
--DESCRIPTION--
Off by default in the CLI (auto), where a script may run for ever without a
request end; -d shardcache.zero_copy=1 turns it on. On a named segment,
values laid out by a zero-copy process are read right by processes with
zero-copy off or mapping the file elsewhere.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('proc_open')) die('skip needs proc_open');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$probe = '$a = ["k" => range(1, 50), "s" => str_repeat("x", 100)]; apcu_store("a", $a); $f = apcu_fetch("a"); ob_start(); debug_zval_dump($f); $d = !str_contains(strtok(ob_get_clean(), "\\n"), " interned");'
       . ' echo ini_get("shardcache.zero_copy"), " enabled=", json_encode(shardcache_info()["zero_copy"]["enabled"]),'
       . ' " copied=", json_encode($d), " same=", json_encode($f === $a), "\n";';
function run(string $code, array $ini): string {
    $p = proc_open(seg_cmd($ini, $code), [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
    $out = stream_get_contents($pipes[1]);
    proc_close($p);
    return $out;
}
echo "default:  ", run($probe, []);
echo "auto:     ", run($probe, ['shardcache.zero_copy' => 'auto']);
echo "on:       ", run($probe, ['shardcache.zero_copy' => '1']);
echo "off:      ", run($probe, ['shardcache.zero_copy' => '0']);

echo "-- a named segment: a zero-copy process stores, others read\n";
$d = seg_dir();
$seg = "$d/seg";
$value = '["k" => range(1, 50), "n" => ["x" => str_repeat("y", 90), "e" => []], "s" => str_repeat("z", 100)]';
echo seg_php($seg, '$v = ' . $value . '; apcu_store("a", $v); apcu_store("s", str_repeat("q", 500));'
              . ' echo "laid out: ", json_encode(shardcache_info()["zero_copy"]["bytes"] > 0), "\n";',
             ['shardcache.zero_copy' => '1']), "\n";
$check = '$v = ' . $value . '; $f = apcu_fetch("a"); $s = apcu_fetch("s"); ob_start(); debug_zval_dump($f); $d = !str_contains(strtok(ob_get_clean(), "\\n"), " interned");'
       . ' echo "same: ", json_encode($f === $v && $s === str_repeat("q", 500)), " copied: ", json_encode($d), "\n";';
echo "off: ", seg_php($seg, $check, ['shardcache.zero_copy' => '0']), "\n";
/* Zero-copy on, but the file is mapped wherever this process got it: the
 * value is used in place only at the address it was laid out for. */
$on = seg_php($seg, $check, ['shardcache.zero_copy' => '1']);
echo "on: ", substr($on, 0, 10), "\n";
?>
--EXPECT--
default:  auto enabled=false copied=true same=true
auto:     auto enabled=false copied=true same=true
on:       1 enabled=true copied=false same=true
off:      0 enabled=false copied=true same=true
-- a named segment: a zero-copy process stores, others read
laid out: true
off: same: true copied: true
on: same: true
