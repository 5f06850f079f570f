--TEST--
APCUIterator: search by regular expression and by an array of keys
--DESCRIPTION--
The regular expression is matched against the key. Ignored search types are
covered too.
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
foreach (['user:1', 'user:2', 'user:10', 'User:3', 'session:1', 'session:abc', "bin\0key", "ünï", '42', '7', ''] as $i => $k) {
    apcu_store($k, $i);
}
function keys($search) {
    $out = [];
    foreach (new APCUIterator($search, APC_ITER_KEY | APC_ITER_VALUE) as $key => $item) {
        if ((string)$key !== $item['key'] || apcu_fetch($item['key']) !== $item['value']) {
            echo "mismatch for ", json_encode($item['key']), "\n";
        }
        $out[] = $item['key'];
    }
    sort($out, SORT_STRING);
    return json_encode($out);
}
echo "-- regex\n";
foreach (['/^user:/', '/^user:\d$/', '/^user:/i', '/:1/', '#session:[a-z]+#', '/\d+$/D', '/^\d+$/', '/zzz/',
          '/./', '/^$/', "/\\0/", '/ü/u', '/^.{3}$/u', '/^.{3}$/', '~^(user|session):1$~'] as $re) {
    echo str_pad($re, 22), keys($re), "\n";
}
echo "-- array of keys (only the string elements count)\n";
foreach ([[], ['user:1'], ['user:1', 'user:2', 'missing'], ['k' => 'User:3', 'x' => 'session:1'],
          ['42', 42, 7, '7', 7.0, true, null, ['user:1']], ["bin\0key", 'ünï'], ['user:1', 'user:1']] as $arr) {
    echo str_pad(json_encode($arr), 50), keys($arr), "\n";
}
$ref = 'user:2';
$arr = ['user:1', &$ref];
echo str_pad('with a reference', 50), keys($arr), "\n";
echo "-- no filter\n";
foreach ([null, '', 5, 1.5, true, false, new stdClass] as $s) {
    echo str_pad(is_object($s) ? 'object' : var_export($s, true), 50), keys($s), "\n";
}
echo "-- totals follow the search\n";
foreach (['/^user:/', ['user:1', 'nope'], null, '/nothing/'] as $s) {
    $it = new APCUIterator($s);
    var_dump($it->getTotalCount());
}
?>
--EXPECT--
-- regex
/^user:/              ["user:1","user:10","user:2"]
/^user:\d$/           ["user:1","user:2"]
/^user:/i             ["User:3","user:1","user:10","user:2"]
/:1/                  ["session:1","user:1","user:10"]
#session:[a-z]+#      ["session:abc"]
/\d+$/D               ["42","7","User:3","session:1","user:1","user:10","user:2"]
/^\d+$/               ["42","7"]
/zzz/                 []
/./                   ["42","7","User:3","bin\u0000key","session:1","session:abc","user:1","user:10","user:2","\u00fcn\u00ef"]
/^$/                  [""]
/\0/                  ["bin\u0000key"]
/ü/u                 ["\u00fcn\u00ef"]
/^.{3}$/u             ["\u00fcn\u00ef"]
/^.{3}$/              []
~^(user|session):1$~  ["session:1","user:1"]
-- array of keys (only the string elements count)
[]                                                []
["user:1"]                                        ["user:1"]
["user:1","user:2","missing"]                     ["user:1","user:2"]
{"k":"User:3","x":"session:1"}                    ["User:3","session:1"]
["42",42,7,"7",7,true,null,["user:1"]]            ["42","7"]
["bin\u0000key","\u00fcn\u00ef"]                  ["bin\u0000key","\u00fcn\u00ef"]
["user:1","user:1"]                               ["user:1"]
with a reference                                  ["user:1","user:2"]
-- no filter
NULL                                              ["","42","7","User:3","bin\u0000key","session:1","session:abc","user:1","user:10","user:2","\u00fcn\u00ef"]
''                                                ["","42","7","User:3","bin\u0000key","session:1","session:abc","user:1","user:10","user:2","\u00fcn\u00ef"]
5                                                 ["","42","7","User:3","bin\u0000key","session:1","session:abc","user:1","user:10","user:2","\u00fcn\u00ef"]
1.5                                               ["","42","7","User:3","bin\u0000key","session:1","session:abc","user:1","user:10","user:2","\u00fcn\u00ef"]
true                                              ["","42","7","User:3","bin\u0000key","session:1","session:abc","user:1","user:10","user:2","\u00fcn\u00ef"]
false                                             ["","42","7","User:3","bin\u0000key","session:1","session:abc","user:1","user:10","user:2","\u00fcn\u00ef"]
object                                            ["","42","7","User:3","bin\u0000key","session:1","session:abc","user:1","user:10","user:2","\u00fcn\u00ef"]
-- totals follow the search
int(3)
int(1)
int(11)
int(0)
