--TEST--
shardcache.ini lists every registered setting once, at its real default
--DESCRIPTION--
Each setting is commented out, and no other setting is listed.
--SKIPIF--
<?php
if (!function_exists('shardcache_store')) die('skip shardcache not loaded');
if (!is_file(dirname(__DIR__, 2) . '/shardcache.ini')) die('skip shardcache.ini not shipped here');
require __DIR__ . '/../lib/noproc.inc';
if (np_extension_path() === null) die('skip cannot tell which shardcache.so is loaded');
?>
--FILE--
<?php
require __DIR__ . '/../lib/noproc.inc';

/* The defaults: ini_get_all() of the loaded module in a PHP started with
 * -n and nothing but the extension (this process may run with settings of
 * the harness, e.g. shardcache.segment in the named-segment phase). */
$cmd = [PHP_BINARY, '-n', '-d', 'extension=' . np_extension_path(), '-r',
        'echo json_encode(array_map(fn($e) => $e["global_value"], array_filter(ini_get_all(),'
        . ' fn($k) => str_starts_with($k, "apc.") || str_starts_with($k, "shardcache."), ARRAY_FILTER_USE_KEY)));'];
$p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$json = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
$rc = proc_close($p);
$defaults = json_decode($json, true);
if ($rc !== 0 || !is_array($defaults)) {
    echo "child failed (rc $rc): $json $err\n";
    exit(1);
}
ksort($defaults);
// The child loaded the same module: the same settings as this process.
$here = array_keys(array_filter(ini_get_all(), fn($k) => str_starts_with($k, 'apc.') || str_starts_with($k, 'shardcache.'),
                                ARRAY_FILTER_USE_KEY));
sort($here);
var_dump($here === array_keys($defaults));
echo count($defaults), " settings registered\n";

/* The file: every setting line is ";name=value" (commented out). */
$file = dirname(__DIR__, 2) . '/shardcache.ini';
$lines = file($file, FILE_IGNORE_NEW_LINES);
$listed = [];
$problems = [];
foreach ($lines as $n => $line) {
    if (preg_match('/^\s*((?:apc|shardcache)\.[A-Za-z0-9_.]+)\s*=/', $line, $m)) {
        $problems[] = "line " . ($n + 1) . ": $m[1] is set, not commented out";
        continue;
    }
    if (!preg_match('/^;\s*((?:apc|shardcache)\.[A-Za-z0-9_.]+\s*=.*)$/', $line, $m)) {
        continue;
    }
    // The value as PHP reads it once the line is uncommented.
    $parsed = parse_ini_string($m[1], false, INI_SCANNER_RAW);
    if ($parsed === false || count($parsed) !== 1) {
        $problems[] = "line " . ($n + 1) . ": not a valid ini line once uncommented";
        continue;
    }
    $name = array_key_first($parsed);
    if (isset($listed[$name])) {
        $problems[] = "line " . ($n + 1) . ": $name listed twice";
    }
    $listed[$name] = (string)$parsed[$name];
}
foreach ($defaults as $name => $default) {
    if (!array_key_exists($name, $listed)) {
        $problems[] = "$name is missing";
    } elseif ($listed[$name] !== (string)$default) {
        $problems[] = "$name: the file says '" . $listed[$name] . "', the default is '" . $default . "'";
    }
}
foreach ($listed as $name => $value) {
    if (!array_key_exists($name, $defaults)) {
        $problems[] = "$name is not a setting";
    }
}
// Setting names in the comments must exist too (file names aside).
preg_match_all('/\b(?:apc|shardcache)\.[a-z_]+\b/', implode("\n", $lines), $m);
foreach (array_unique($m[0]) as $name) {
    if (!array_key_exists($name, $defaults) && !in_array($name, ['shardcache.so', 'shardcache.ini'], true)) {
        $problems[] = "$name is mentioned but is not a setting";
    }
}
echo count($listed), " settings listed\n";
echo $problems ? implode("\n", $problems) : "file matches the defaults", "\n";
?>
--EXPECT--
bool(true)
22 settings registered
22 settings listed
file matches the defaults
