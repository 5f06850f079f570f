--TEST--
apc.preload_path: every <key>.data file is loaded at startup as APCu does
--DESCRIPTION--
Each file holds one serialize()d value. Other names, subdirectories, and
empty, truncated or invalid files are skipped.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.preload_path={PWD}/plain
--FILE--
<?php
$keys = ['int', 'str', 'arr', 'false', 'null', 'dbl', 'bad', 'empty', 'trail', '', 'x.data', 'x', 'upper', 'dotted.name',
         'dotted', 'noext', 'dir', 'inner', 'cut', 'nested-empty', 'escaped', 'unclosed', 'hugeint'];
foreach ($keys as $k) {
    $v = apcu_fetch($k, $ok);
    echo json_encode($k), ': ', $ok ? 'hit ' . var_export($v, true) : 'miss', "\n";
}
$all = [];
foreach (new APCUIterator() as $key => $item) {
    $all[] = $key;
}
sort($all);
echo json_encode($all), "\n";
// preloaded entries are ordinary entries, with no ttl
var_dump(apcu_add('int', 0), apcu_store('str', 'replaced'), apcu_fetch('str'), apcu_inc('int'));
?>
--EXPECTF--
%r(Deprecated: PHP Startup: Unserializing the 'S' format is deprecated in Unknown on line 0\n\n)?%rWarning: PHP Startup: Numerical result out of range in Unknown on line 0
"int": hit 42
"str": hit 'hello'
"arr": hit array (
  0 => 1,
  'k' => 
  array (
    0 => 'v',
  ),
)
"false": hit false
"null": hit NULL
"dbl": hit 1.5
"bad": miss
"empty": miss
"trail": hit 1
"": hit 7
"x.data": miss
"x": miss
"upper": miss
"dotted.name": hit 10
"dotted": miss
"noext": miss
"dir": miss
"inner": miss
"cut": miss
"nested-empty": hit array (
  0 => 
  array (
  ),
)
"escaped": hit 'abc'
"unclosed": miss
"hugeint": hit 9223372036854775807
["","arr","dbl","dotted.name","escaped","false","hugeint","int","nested-empty","null","str","trail"]
bool(false)
bool(true)
string(8) "replaced"
int(43)
