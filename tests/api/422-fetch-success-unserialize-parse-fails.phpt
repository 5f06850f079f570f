--TEST--
apcu_fetch: an unserialize() parse failure gives false and $success false
--DESCRIPTION--
When unserialize() cannot parse a stored value without throwing (nesting
past unserialize_max_depth), the fetch returns false with PHP's warning and
notice, and $success is false, as in APCu 5.1.22. In the array form the key
is left out and $success is true.
--INI--
apc.enable_cli=1
--FILE--
<?php
class Node { public $next; }
function chain($n) { $o = null; for ($i = 0; $i < $n; $i++) { $x = new Node; $x->next = $o; $o = $x; } return $o; }
set_error_handler(function ($no, $msg) { echo "error $no: $msg\n"; return true; });
var_dump(apcu_store("deep", chain(20)));
var_dump(apcu_store("deeparr", [1, chain(20)]));
apcu_store("ok", 5);
ini_set('unserialize_max_depth', '10');
foreach (["deep", "deeparr", ["deep", "ok"]] as $k) {
    $s = "unset";
    $r = apcu_fetch($k, $s);
    echo "result: ", json_encode($r), ", success: ", var_export($s, true), "\n";
}
ini_set('unserialize_max_depth', '4096');
$s = "unset";
$r = apcu_fetch("deep", $s);
echo "within the limit again: ", var_export($r == chain(20), true), ", success: ", var_export($s, true), "\n";
?>
--EXPECTF--
bool(true)
bool(true)
error 2: apcu_fetch(): Maximum depth of 10 exceeded. The depth limit can be changed using the max_depth unserialize() option or the unserialize_max_depth ini setting
error 8: apcu_fetch(): Error at offset %d of %d bytes
result: false, success: false
error 2: apcu_fetch(): Maximum depth of 10 exceeded. The depth limit can be changed using the max_depth unserialize() option or the unserialize_max_depth ini setting
error 8: apcu_fetch(): Error at offset %d of %d bytes
result: false, success: false
error 2: apcu_fetch(): Maximum depth of 10 exceeded. The depth limit can be changed using the max_depth unserialize() option or the unserialize_max_depth ini setting
error 8: apcu_fetch(): Error at offset %d of %d bytes
result: {"ok":5}, success: true
within the limit again: true, success: true
