--TEST--
shardcache.zero_copy=off is off under php-fpm; phpinfo() shows the mode
--DESCRIPTION--
Also no, false and an empty value: php.ini's parser turns them all into "".
php-fpm's auto is on. phpinfo()'s Zero-copy row says what the process uses.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('proc_open')) die('skip needs proc_open');
require __DIR__ . '/../lib/compat.inc';
require __DIR__ . '/../lib/fpm-bin.inc';
if (sc_fpm_binary() === null) die('skip no php-fpm of this PHP build loads the extension');
?>
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
require __DIR__ . '/../lib/fpm-bin.inc';
// php-fpm -i runs the module's startup in the fpm-fcgi SAPI and prints
// phpinfo(): the setting as PHP passed it and the resolved row.
function fpm_row(?string $value): string {
    $cmd = [sc_fpm_binary(), '-n', '-d', 'extension=' . sc_extension_path()];
    if ($value !== null) {
        $cmd[] = '-d';
        $cmd[] = "shardcache.zero_copy=$value";
    }
    $cmd[] = '-i';
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
    $out = stream_get_contents($pipes[1]);
    proc_close($p);
    $ini = preg_match('/^shardcache\.zero_copy => (.*?) => /m', $out, $m) ? $m[1] : 'MISSING';
    $row = preg_match('/^Zero-copy => (.*)$/m', $out, $m) ? $m[1] : 'MISSING';
    return "ini '$ini', Zero-copy $row";
}
foreach ([null, 'auto', '1', 'On', 'yes', '0', 'off', 'Off', 'no', 'false', ''] as $v) {
    printf("%-8s %s\n", $v === null ? '(unset)' : "'$v'", fpm_row($v));
}
// The CLI (auto is off there) reads the same row.
[$out] = sc_run_php(['extension=' . sc_extension_path(), 'apc.enable_cli=1', 'shardcache.zero_copy=1'],
                    'ob_start(); (new ReflectionExtension("shardcache"))->info();
                     preg_match("/^Zero-copy => (.*)$/m", ob_get_clean(), $m); echo $m[1] ?? "MISSING", "\n";');
echo "cli '1': Zero-copy $out";
?>
--EXPECT--
(unset)  ini 'auto', Zero-copy on
'auto'   ini 'auto', Zero-copy on
'1'      ini '1', Zero-copy on
'On'     ini '1', Zero-copy on
'yes'    ini '1', Zero-copy on
'0'      ini '0', Zero-copy off
'off'    ini 'no value', Zero-copy off
'Off'    ini 'no value', Zero-copy off
'no'     ini 'no value', Zero-copy off
'false'  ini 'no value', Zero-copy off
''       ini 'no value', Zero-copy off
cli '1': Zero-copy on
