--TEST--
Bad input to apcu_entry: bad callbacks and keys, throwing or odd callbacks
--DESCRIPTION--
Invalid callbacks and keys, and callbacks that throw, return unstorable
values, nest, or change the cache.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=2M
--FILE--
<?php
$names = [E_WARNING => 'Warning', E_NOTICE => 'Notice', E_DEPRECATED => 'Deprecated'];
set_error_handler(function ($no, $str) use ($names) { echo $names[$no] ?? $no, ': ', $str, "\n"; return true; });
function t(string $label, callable $f) {
    echo $label, ': ';
    try { var_dump($f()); }
    catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
t('not callable', fn() => apcu_entry('k', 'no_such_function'));
t('not callable array', fn() => apcu_entry('k', [1, 2]));
t('null callback', fn() => apcu_entry('k', null));
t('missing callback', fn() => apcu_entry('k'));
t('key array', fn() => apcu_entry(['k'], fn($k) => 1));
t('key int', fn() => apcu_entry(5, fn($k) => [$k]));
t('fetch 5', fn() => apcu_fetch('5'));
t('key null', fn() => apcu_entry(null, fn($k) => 'nullkey'));
t('fetch empty', fn() => apcu_fetch(''));
t('key object', fn() => apcu_entry(new stdClass, fn($k) => 1));
t('ttl string', fn() => apcu_entry('k', fn($k) => 1, 'x'));
t('throws', fn() => apcu_entry('thr', function ($k) { throw new RuntimeException("no $k"); }));
t('exists thr', fn() => apcu_exists('thr'));
t('again', fn() => apcu_entry('thr', fn($k) => "second $k"));
t('returns resource', fn() => apcu_entry('res', fn($k) => STDIN));
t('exists res', fn() => apcu_exists('res'));
t('returns closure', fn() => apcu_entry('clo', fn($k) => function () {}));
t('exists clo', fn() => apcu_exists('clo'));
t('returns null', fn() => apcu_entry('nul', fn($k) => null));
t('exists nul', function () { return [apcu_exists('nul'), apcu_fetch('nul', $ok), $ok]; });
t('returns false', fn() => apcu_entry('fal', fn($k) => false));
t('fetch fal', fn() => apcu_exists('fal'));
t('returns nothing', fn() => apcu_entry('void', function ($k) { }));
t('exists void', fn() => apcu_exists('void'));
t('callback with 0 params', fn() => apcu_entry('zp', fn() => 'zero params'));
t('callback needing 2 params', fn() => apcu_entry('tp', fn($a, $b) => 'two params'));
t('exists tp', fn() => apcu_exists('tp'));
t('by-ref param', fn() => apcu_entry('br', function (&$k) { $k = 'changed'; return 'byref'; }));
t('fetch br', fn() => [apcu_fetch('br'), apcu_exists('changed')]);
t('nested same key', fn() => apcu_entry('nest', fn($k) => 'outer:' . apcu_entry($k, fn($k2) => 'inner')));
t('fetch nest', fn() => apcu_fetch('nest'));
t('nested other key', fn() => apcu_entry('n1', fn($k) => 'outer:' . apcu_entry('n2', fn($k2) => "inner $k2")));
t('fetch n1 n2', fn() => apcu_fetch(['n1', 'n2']));
t('store inside', fn() => apcu_entry('si', function ($k) { apcu_store($k, 'stored inside'); apcu_store('si_other', 'other'); return 'returned'; }));
t('fetch si', fn() => apcu_fetch(['si', 'si_other']));
t('delete inside', fn() => apcu_entry('di', function ($k) { apcu_store('di_victim', 1); apcu_delete('di_victim'); apcu_delete($k); return 'di'; }));
t('fetch di', fn() => apcu_fetch(['di', 'di_victim']));
t('clear inside', fn() => apcu_entry('ci', function ($k) { apcu_clear_cache(); return 'after clear'; }));
t('fetch ci', fn() => apcu_fetch(['ci', 'n1']));
t('inc inside', fn() => apcu_entry('ii', function ($k) { apcu_inc('ctr'); apcu_inc('ctr'); return apcu_fetch('ctr'); }));
t('fetch ii', fn() => apcu_fetch(['ii', 'ctr']));
t('existing entry', fn() => [apcu_store('ex', 'present'), apcu_entry('ex', fn($k) => 'computed')]);
t('expired entry', fn() => [apcu_store('exp', 'old', -1), apcu_entry('exp', fn($k) => 'recomputed'), apcu_fetch('exp')]);
t('big value', fn() => strlen(apcu_entry('big', fn($k) => str_repeat('x', 3 * 1024 * 1024))));
t('exists big', fn() => apcu_exists('big'));
t('throws nested', fn() => apcu_entry('tn1', fn($k) => apcu_entry('tn2', function ($k) { throw new LogicException('inner'); })));
t('exists tn', fn() => [apcu_exists('tn1'), apcu_exists('tn2')]);
t('after all', fn() => [apcu_entry('final', fn($k) => 'works'), apcu_store('final2', 1), apcu_fetch('final2')]);
echo "-- a throwing callback leaves nothing reserved: another process computes the key at once\n";
var_dump(apcu_delete('thr'));
t('throws again', fn() => apcu_entry('thr', function ($k) { throw new RuntimeException("no $k"); }));
if (function_exists('pcntl_fork')) {
    $pid = pcntl_fork();
    if ($pid == 0) {
        exit(apcu_entry('thr', fn($k) => "child $k") === 'child thr' ? 0 : 1);
    }
    pcntl_waitpid($pid, $status);
    var_dump(pcntl_wexitstatus($status), apcu_fetch('thr'));
} else {
    var_dump(0, apcu_entry('thr', fn($k) => "child $k"));
}
?>
--EXPECTF--
not callable: TypeError: apcu_entry(): Argument #2 ($callback) must be a valid callback, function "no_such_function" not found or invalid function name
not callable array: TypeError: apcu_entry(): Argument #2 ($callback) must be a valid callback, first array member is not a valid class name or object
null callback: TypeError: apcu_entry(): Argument #2 ($callback) must be a valid callback, no array or string given
missing callback: ArgumentCountError: apcu_entry() expects at least 2 arguments, 1 given
key array: TypeError: apcu_entry(): Argument #1 ($key) must be of type string, array given
key int: array(1) {
  [0]=>
  string(1) "5"
}
fetch 5: array(1) {
  [0]=>
  string(1) "5"
}
key null: Deprecated: apcu_entry(): Passing null to parameter #1 ($key) of type string is deprecated
string(7) "nullkey"
fetch empty: string(7) "nullkey"
key object: TypeError: apcu_entry(): Argument #1 ($key) must be of type string, stdClass given
ttl string: TypeError: apcu_entry(): Argument #3 ($ttl) must be of type int, string given
throws: RuntimeException: no thr
exists thr: bool(false)
again: string(10) "second thr"
returns resource: Warning: apcu_entry(): Cannot store resources in apcu cache
resource(1) of type (stream)
exists res: bool(false)
returns closure: Exception: Serialization of 'Closure' is not allowed
exists clo: bool(false)
returns null: NULL
exists nul: array(3) {
  [0]=>
  bool(true)
  [1]=>
  NULL
  [2]=>
  bool(true)
}
returns false: bool(false)
fetch fal: bool(true)
returns nothing: NULL
exists void: bool(true)
callback with 0 params: string(11) "zero params"
callback needing 2 params: ArgumentCountError: Too few arguments to function %r\{closure(:\{closure:.+131-bad-input-entry\.php:\d+\}:\d+)?\}%r(), 1 passed and exactly 2 expected
exists tp: bool(false)
by-ref param: Warning: %r\{closure(:\{closure:.+131-bad-input-entry\.php:\d+\}:\d+)?\}%r(): Argument #1 ($k) must be passed by reference, value given
string(5) "byref"
fetch br: array(2) {
  [0]=>
  string(5) "byref"
  [1]=>
  bool(false)
}
nested same key: string(11) "outer:inner"
fetch nest: string(5) "inner"
nested other key: string(14) "outer:inner n2"
fetch n1 n2: array(2) {
  ["n1"]=>
  string(14) "outer:inner n2"
  ["n2"]=>
  string(8) "inner n2"
}
store inside: string(8) "returned"
fetch si: array(2) {
  ["si"]=>
  string(13) "stored inside"
  ["si_other"]=>
  string(5) "other"
}
delete inside: string(2) "di"
fetch di: array(1) {
  ["di"]=>
  string(2) "di"
}
clear inside: string(11) "after clear"
fetch ci: array(1) {
  ["ci"]=>
  string(11) "after clear"
}
inc inside: int(2)
fetch ii: array(2) {
  ["ii"]=>
  int(2)
  ["ctr"]=>
  int(2)
}
existing entry: array(2) {
  [0]=>
  bool(true)
  [1]=>
  string(7) "present"
}
expired entry: array(3) {
  [0]=>
  bool(true)
  [1]=>
  string(10) "recomputed"
  [2]=>
  string(10) "recomputed"
}
big value: int(3145728)
exists big: bool(false)
throws nested: LogicException: inner
exists tn: array(2) {
  [0]=>
  bool(false)
  [1]=>
  bool(false)
}
after all: array(3) {
  [0]=>
  string(5) "works"
  [1]=>
  bool(true)
  [2]=>
  int(1)
}
-- a throwing callback leaves nothing reserved: another process computes the key at once
bool(false)
throws again: RuntimeException: no thr
int(0)
string(9) "child thr"
