--TEST--
shardcache: TTLs of 2^32 seconds and more never expire
--DESCRIPTION--
APCu 5.1.22 truncates them to 32 bits instead, so 2^32 + 1 expires after 1 s
there.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache-specific: APCu truncates huge TTLs to 32 bits'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
$ttls = ['2^32-1' => 4294967295, '2^32' => 4294967296, '2^32+1' => 4294967297, '2^32+3600' => 4294967296 + 3600,
         '2^40+1' => (1 << 40) + 1, 'PHP_INT_MAX' => PHP_INT_MAX];
foreach ($ttls as $label => $ttl) {
    $r = [
        apcu_store("store:$label", 's', $ttl),
        apcu_add("add:$label", 'a', $ttl),
        apcu_store(["storearr:$label" => 'sa'], null, $ttl),
        apcu_inc("inc:$label", 1, $ok, $ttl), $ok,
        apcu_dec("dec:$label", 1, $ok, $ttl), $ok,
        apcu_entry("entry:$label", fn() => 'e', $ttl),
    ];
    echo str_pad($label, 12), json_encode($r), "\n";
}
$start = hrtime(true);
while (hrtime(true) - $start < 2100000000) {
    usleep(100000);
}
echo "-- 2 seconds later, all still there\n";
foreach ($ttls as $label => $ttl) {
    $keys = ["store:$label", "add:$label", "storearr:$label", "inc:$label", "dec:$label", "entry:$label"];
    echo str_pad($label, 12), json_encode(apcu_fetch($keys)), "\n";
}
?>
--EXPECT--
2^32-1      [true,true,[],1,true,-1,true,"e"]
2^32        [true,true,[],1,true,-1,true,"e"]
2^32+1      [true,true,[],1,true,-1,true,"e"]
2^32+3600   [true,true,[],1,true,-1,true,"e"]
2^40+1      [true,true,[],1,true,-1,true,"e"]
PHP_INT_MAX [true,true,[],1,true,-1,true,"e"]
-- 2 seconds later, all still there
2^32-1      {"store:2^32-1":"s","add:2^32-1":"a","storearr:2^32-1":"sa","inc:2^32-1":1,"dec:2^32-1":-1,"entry:2^32-1":"e"}
2^32        {"store:2^32":"s","add:2^32":"a","storearr:2^32":"sa","inc:2^32":1,"dec:2^32":-1,"entry:2^32":"e"}
2^32+1      {"store:2^32+1":"s","add:2^32+1":"a","storearr:2^32+1":"sa","inc:2^32+1":1,"dec:2^32+1":-1,"entry:2^32+1":"e"}
2^32+3600   {"store:2^32+3600":"s","add:2^32+3600":"a","storearr:2^32+3600":"sa","inc:2^32+3600":1,"dec:2^32+3600":-1,"entry:2^32+3600":"e"}
2^40+1      {"store:2^40+1":"s","add:2^40+1":"a","storearr:2^40+1":"sa","inc:2^40+1":1,"dec:2^40+1":-1,"entry:2^40+1":"e"}
PHP_INT_MAX {"store:PHP_INT_MAX":"s","add:PHP_INT_MAX":"a","storearr:PHP_INT_MAX":"sa","inc:PHP_INT_MAX":1,"dec:PHP_INT_MAX":-1,"entry:PHP_INT_MAX":"e"}
