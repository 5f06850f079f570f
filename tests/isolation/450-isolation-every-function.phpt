--TEST--
shardcache.isolation=user: two users share no entry through any function
--DESCRIPTION--
user is the default. Two Unix users share no entry through any function
(fetch, exists, add, store, delete, inc, dec, cas, entry, key_info,
APCUIterator, cache_info, shardcache_info, clear), in both directions.
Root's clear empties everything.
--SKIPIF--
<?php
if (!function_exists('pcntl_fork') || !function_exists('posix_setuid')) die('skip pcntl and posix needed');
if (posix_geteuid() !== 0) die('skip needs root (setuid to other users)');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--EXTENSIONS--
posix
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/isolation.inc';

function other_stores(): void
{
    var_dump(apcu_store('k', 'other-v'), apcu_store('n', 10), apcu_store('arr', [1, 2]), apcu_add('only-other', 'x'),
             apcu_store('k2', 'other-k2'), apcu_store('c', 7));
}

function other_checks(): void
{
    var_dump(apcu_fetch(['k', 'n', 'arr', 'only-other', 'k2', 'c']));
    echo iso_listed(), "\n";
    $u = shardcache_info()['users'];
    echo 'users: ', json_encode($u), "\n";
}

function me_tries(int $me): void
{
    $called = 0;
    var_dump(apcu_fetch('k', $ok), $ok, apcu_fetch(['k', 'n', 'arr']), apcu_exists('k'), apcu_exists(['k', 'n']),
             apcu_key_info('k'));
    echo "listed before: ", iso_listed(), "\n";
    // writes: every one makes or changes the caller's own entry only
    var_dump(apcu_add('k', 'mine'), apcu_fetch('k'), apcu_store('arr', 'mine'), apcu_delete('only-other'),
             apcu_inc('n'), apcu_dec('n', 3), apcu_cas('c', 7, 8), apcu_cas('n', -2, 5), apcu_fetch('n'));
    var_dump(apcu_entry('k2', function ($key) use (&$called) { $called++; return "computed $key"; }), $called);
    echo "listed after: ", iso_listed(), "\n";
    $u = shardcache_info()['users'];
    echo 'users: ', json_encode(array_keys($u)), ' own entries: ', $u[$me]['entries'], "\n";
    var_dump(apcu_clear_cache(), apcu_fetch(['k', 'n', 'arr', 'k2']));
    echo "listed after clear: ", iso_listed(), "\n";
}

foreach ([[ISO_A, ISO_B], [ISO_B, ISO_A]] as [$me, $other]) {
    echo "=== me $me, other $other\n";
    iso_as($other, 'other_stores');
    iso_as($me, function () use ($me) { me_tries($me); });
    echo "--- other after:\n";
    iso_as($other, 'other_checks');
    // root sees every user in shardcache_info, but lists only its own
    $u = shardcache_info()['users'];
    echo 'root: users ', json_encode(array_keys($u)), ' ', iso_listed(), "\n";
    var_dump(apcu_clear_cache());
    iso_as($other, function () { echo 'other after root clear: ', iso_listed(), "\n"; });
}
?>
--EXPECTF--
=== me 65534, other 65533
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
array(0) {
}
bool(false)
array(0) {
}
NULL
listed before: iterator=[] cache_list=[] num_entries=0 phpinfo=0 info=0
bool(true)
string(4) "mine"
bool(true)
bool(false)
int(1)
int(-2)
bool(false)
bool(true)
int(5)
string(11) "computed k2"
int(1)
listed after: iterator=["arr","k","k2","n"] cache_list=["arr","k","k2","n"] num_entries=4 phpinfo=4 info=4
users: [65534] own entries: 4
bool(true)
array(0) {
}
listed after clear: iterator=[] cache_list=[] num_entries=0 phpinfo=0 info=0
--- other after:
array(6) {
  ["k"]=>
  string(7) "other-v"
  ["n"]=>
  int(10)
  ["arr"]=>
  array(2) {
    [0]=>
    int(1)
    [1]=>
    int(2)
  }
  ["only-other"]=>
  string(1) "x"
  ["k2"]=>
  string(8) "other-k2"
  ["c"]=>
  int(7)
}
iterator=["arr","c","k","k2","n","only-other"] cache_list=["arr","c","k","k2","n","only-other"] num_entries=6 phpinfo=6 info=6
users: {"65533":{"entries":6,"mem_size":%d}}
root: users [65533] iterator=[] cache_list=[] num_entries=0 phpinfo=6 info=6/6
bool(true)
other after root clear: iterator=[] cache_list=[] num_entries=0 phpinfo=0 info=0
=== me 65533, other 65534
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
array(0) {
}
bool(false)
array(0) {
}
NULL
listed before: iterator=[] cache_list=[] num_entries=0 phpinfo=0 info=0
bool(true)
string(4) "mine"
bool(true)
bool(false)
int(1)
int(-2)
bool(false)
bool(true)
int(5)
string(11) "computed k2"
int(1)
listed after: iterator=["arr","k","k2","n"] cache_list=["arr","k","k2","n"] num_entries=4 phpinfo=4 info=4
users: [65533] own entries: 4
bool(true)
array(0) {
}
listed after clear: iterator=[] cache_list=[] num_entries=0 phpinfo=0 info=0
--- other after:
array(6) {
  ["k"]=>
  string(7) "other-v"
  ["n"]=>
  int(10)
  ["arr"]=>
  array(2) {
    [0]=>
    int(1)
    [1]=>
    int(2)
  }
  ["only-other"]=>
  string(1) "x"
  ["k2"]=>
  string(8) "other-k2"
  ["c"]=>
  int(7)
}
iterator=["arr","c","k","k2","n","only-other"] cache_list=["arr","c","k","k2","n","only-other"] num_entries=6 phpinfo=6 info=6
users: {"65534":{"entries":6,"mem_size":%d}}
root: users [65534] iterator=[] cache_list=[] num_entries=0 phpinfo=6 info=6/6
bool(true)
other after root clear: iterator=[] cache_list=[] num_entries=0 phpinfo=0 info=0
