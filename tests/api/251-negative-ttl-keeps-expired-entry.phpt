--TEST--
A negative ttl stores an entry that is expired from the start, and keeps it
--DESCRIPTION--
As in APCu 5.1.22, the entry is counted, listed and deletable, but never
fetched.
--INI--
apc.enable_cli=1
--FILE--
<?php
function show($label, $v) { echo str_pad($label, 28), json_encode($v), "\n"; }
show("store k ttl -5", apcu_store("k", 1, -5));
show("exists, fetch", [apcu_exists("k"), apcu_fetch("k", $ok), $ok]);
$i = apcu_key_info("k");
show("key_info ttl, hits", $i === null ? null : [$i["ttl"], $i["hits"]]);
show("num_entries", apcu_cache_info()["num_entries"]);
$listed = [];
foreach (apcu_cache_info()["cache_list"] as $e) { $listed[$e["info"]] = $e["ttl"]; }
show("cache_list", $listed);
$keys = [];
foreach (new APCUIterator() as $key => $unused) { $keys[] = $key; }
show("iterator", $keys);
show("add k ttl -1", apcu_add("k", 2, -1));
show("key_info ttl", apcu_key_info("k")["ttl"] ?? null);
show("add k", apcu_add("k", 3));
show("fetch k", apcu_fetch("k"));
show("store k ttl -1", apcu_store("k", 4, -1));
show("delete k twice", [apcu_delete("k"), apcu_delete("k")]);
show("store array ttl -2", apcu_store(["a" => 1, "b" => 2], null, -2));
show("num_entries", apcu_cache_info()["num_entries"]);
show("inc n ttl -3", [apcu_inc("n", 1, $ok, -3), $ok, apcu_key_info("n")["ttl"] ?? null]);
show("inc n", [apcu_inc("n", 1, $ok), $ok]);
show("entry e ttl -4", apcu_entry("e", fn() => "v", -4));
show("e exists, key_info", [apcu_exists("e"), apcu_key_info("e")["ttl"] ?? null]);
show("delete array", apcu_delete(["a", "b", "e", "zz"]));
?>
--EXPECT--
store k ttl -5              true
exists, fetch               [false,false,false]
key_info ttl, hits          [-5,0]
num_entries                 1
cache_list                  {"k":-5}
iterator                    []
add k ttl -1                true
key_info ttl                -1
add k                       true
fetch k                     3
store k ttl -1              true
delete k twice              [true,false]
store array ttl -2          []
num_entries                 2
inc n ttl -3                [false,false,-3]
inc n                       [1,true]
entry e ttl -4              "v"
e exists, key_info          [false,-4]
delete array                ["zz"]
