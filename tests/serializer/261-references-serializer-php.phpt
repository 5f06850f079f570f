--TEST--
apc.serializer=php: references in arrays go through serialize(), as in APCu
--DESCRIPTION--
Arrays holding shared PHP references go through serialize() as in APCu; a
cycle comes back one level lower.
--INI--
apc.enable_cli=1
apc.serializer=php
--FILE--
<?php
function show($label, $v) { echo "-- $label\n"; var_dump($v); }
function main() {
$value = [&$value];
apcu_store(["cycle" => &$value]);
show("cycle", apcu_fetch("cycle"));
$a = 1; $v = [&$a, &$a, 'x' => [1, 2]]; $v['y'] = &$v['x'];
apcu_store("shared", $v);
$r = apcu_fetch("shared"); $r[0] = 5; $r['y'][] = 3;
show("shared refs, written through", $r);
$x = ['a' => 1]; $x['self'] = &$x;
apcu_store("selfhash", $x);
$r = apcu_fetch("selfhash"); $r['self']['b'] = 2;
show("self in hash, written through", $r);
$o = [1]; $w = [$o, $o, [], []];
apcu_store("samearray", $w);
$r = apcu_fetch("samearray"); $r[0][] = 9;
show("same array twice, one changed", $r);
$deep = ['l1' => ['l2' => ['l3' => 'x']]]; $deep['back'] = &$deep['l1']['l2'];
apcu_store("deep", $deep);
$r = apcu_fetch("deep"); $r['back']['l3'] = 'changed';
show("deep ref, written through", $r);
$p = 'str'; $q = [&$p, 'k' => &$p, [&$p]];
apcu_store("strref", $q);
$r = apcu_fetch("strref"); $r['k'] = 'via k';
show("string ref in three places", $r);
$m = [1, 2]; $n = [&$m, &$m]; $n[] = &$n;
apcu_store("mixed", $n);
show("mixed", apcu_fetch("mixed"));
$obj = new stdClass; $obj->v = 1; $s = [&$obj, &$obj, $obj];
apcu_store("objref", $s);
$r = apcu_fetch("objref"); $r[0] = 'replaced';
show("object and refs", $r);
show("apcu_entry", apcu_entry("entry", function () { $z = [1]; $z[] = &$z; return $z; }));
}
main();
// the cycles built above (and fetched) are garbage now
gc_collect_cycles();
?>
--EXPECT--
-- cycle
array(1) {
  [0]=>
  &array(1) {
    [0]=>
    *RECURSION*
  }
}
-- shared refs, written through
array(4) {
  [0]=>
  &int(5)
  [1]=>
  &int(5)
  ["x"]=>
  &array(3) {
    [0]=>
    int(1)
    [1]=>
    int(2)
    [2]=>
    int(3)
  }
  ["y"]=>
  &array(3) {
    [0]=>
    int(1)
    [1]=>
    int(2)
    [2]=>
    int(3)
  }
}
-- self in hash, written through
array(2) {
  ["a"]=>
  int(1)
  ["self"]=>
  &array(3) {
    ["a"]=>
    int(1)
    ["self"]=>
    *RECURSION*
    ["b"]=>
    int(2)
  }
}
-- same array twice, one changed
array(4) {
  [0]=>
  array(2) {
    [0]=>
    int(1)
    [1]=>
    int(9)
  }
  [1]=>
  array(1) {
    [0]=>
    int(1)
  }
  [2]=>
  array(0) {
  }
  [3]=>
  array(0) {
  }
}
-- deep ref, written through
array(2) {
  ["l1"]=>
  array(1) {
    ["l2"]=>
    &array(1) {
      ["l3"]=>
      string(7) "changed"
    }
  }
  ["back"]=>
  &array(1) {
    ["l3"]=>
    string(7) "changed"
  }
}
-- string ref in three places
array(3) {
  [0]=>
  &string(5) "via k"
  ["k"]=>
  &string(5) "via k"
  [1]=>
  array(1) {
    [0]=>
    &string(5) "via k"
  }
}
-- mixed
array(3) {
  [0]=>
  &array(2) {
    [0]=>
    int(1)
    [1]=>
    int(2)
  }
  [1]=>
  &array(2) {
    [0]=>
    int(1)
    [1]=>
    int(2)
  }
  [2]=>
  &array(3) {
    [0]=>
    &array(2) {
      [0]=>
      int(1)
      [1]=>
      int(2)
    }
    [1]=>
    &array(2) {
      [0]=>
      int(1)
      [1]=>
      int(2)
    }
    [2]=>
    *RECURSION*
  }
}
-- object and refs
array(3) {
  [0]=>
  &string(8) "replaced"
  [1]=>
  &string(8) "replaced"
  [2]=>
  object(stdClass)#2 (1) {
    ["v"]=>
    int(1)
  }
}
-- apcu_entry
array(2) {
  [0]=>
  int(1)
  [1]=>
  *RECURSION*
}
