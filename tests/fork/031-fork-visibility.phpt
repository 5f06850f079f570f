--TEST--
Fork visibility: parent's and children's writes are seen by each other
--DESCRIPTION--
The parent's entries are seen by children; a child's writes, deletes and
clear are seen by the parent and by later children.
--SKIPIF--
<?php
if (!function_exists('apcu_store')) die('skip apcu functions not available');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
/* Runs $fn in a child process and returns what it returned (JSON through a socket pair).
 * The parent blocks in waitpid, so the child's effects are complete when this returns. */
function in_child(callable $fn) {
    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid < 0) { echo "fork failed\n"; exit(1); }
    if ($pid == 0) {
        fclose($pair[0]);
        fwrite($pair[1], json_encode($fn()));
        fclose($pair[1]);
        exit(0);
    }
    fclose($pair[1]);
    $out = stream_get_contents($pair[0]);
    fclose($pair[0]);
    pcntl_waitpid($pid, $status);
    if (!pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0) {
        echo "child failed (status $status)\n";
    }
    return json_decode($out, true);
}

$big = str_repeat('0123456789', 10000);
var_dump(apcu_store([
    'p_str' => 'from parent',
    'p_int' => 42,
    'p_arr' => ['a' => [1, 2, 3], 'b' => null],
    'p_big' => $big,
    'p_obj' => (object) ['x' => 1],
    'p_del' => 'to be deleted by child 1',
    'p_ow'  => 'to be overwritten by child 1',
]));

echo "-- child 1 reads the parent's entries and writes its own\n";
var_dump(in_child(function () use ($big) {
    $r = [];
    $r['p_str'] = apcu_fetch('p_str');
    $r['p_int'] = apcu_fetch('p_int');
    $r['p_arr'] = apcu_fetch('p_arr');
    $r['p_big'] = apcu_fetch('p_big') === $big;
    $r['p_obj'] = apcu_fetch('p_obj')->x;
    $r['exists'] = apcu_exists(['p_str', 'p_del', 'nothing']);
    $r['add_existing'] = apcu_add('p_str', 'child');
    $r['store'] = apcu_store(['c1_str' => 'from child 1', 'c1_arr' => [1 => 'one'], 'p_ow' => 'overwritten by child 1']);
    $r['add_new'] = apcu_add('c1_added', 'added by child 1');
    $r['delete'] = apcu_delete('p_del');
    return $r;
}));

echo "-- the parent sees child 1's effects\n";
var_dump(apcu_fetch(['c1_str', 'c1_arr', 'c1_added', 'p_ow', 'p_del', 'p_str']));
var_dump(apcu_exists('p_del'));
var_dump(apcu_add('c1_added', 'parent'), apcu_fetch('c1_added'));

echo "-- child 2 (a sibling of child 1) sees both; children run one after another\n";
var_dump(in_child(function () {
    $r = apcu_fetch(['p_str', 'c1_str', 'c1_added', 'p_ow', 'p_del']);
    $r['inc'] = apcu_store('counter', 1);
    return $r;
}));
for ($i = 0; $i < 5; $i++) {
    in_child(function () { return apcu_store('counter', apcu_fetch('counter') + 1); });
}
var_dump(apcu_fetch('counter'));

echo "-- a child's apcu_clear_cache empties the cache for everyone\n";
var_dump(in_child(fn() => apcu_clear_cache()));
var_dump(apcu_fetch(['p_str', 'c1_str', 'counter']), apcu_exists('p_big'));
var_dump(apcu_store('after_clear', 'parent'));
var_dump(in_child(fn() => [apcu_fetch('after_clear'), apcu_store('child_after_clear', 3)]));
var_dump(apcu_fetch('child_after_clear'));

echo "-- entries stored by the parent after a fork are seen by children forked later\n";
var_dump(apcu_store('late', ['stored' => 'late']));
var_dump(in_child(fn() => apcu_fetch('late')));

echo "-- two live siblings: B waits on a socket for A's message, then must see A's writes\n";
$link = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$report = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pids = [];
foreach (['A', 'B'] as $who) {
    $pid = pcntl_fork();
    if ($pid == 0) {
        fclose($report[0]);
        if ($who === 'A') {
            fclose($link[1]);
            $errors = 0;
            for ($i = 0; $i < 100; $i++) {
                if (!apcu_store("handoff$i", "A:$i")) $errors++;
                fwrite($link[0], pack('N', $i));            // "handoff$i is stored"
                $ack = fread($link[0], 4);                  // B: "I read it, delete it"
                if (apcu_exists("handoff$i") !== false) $errors++;
            }
            fwrite($report[1], "A errors=$errors\n");
        } else {
            fclose($link[0]);
            $errors = 0;
            for ($i = 0; $i < 100; $i++) {
                $msg = fread($link[1], 4);
                $n = unpack('N', $msg)[1];
                if ($n !== $i || apcu_fetch("handoff$i") !== "A:$i") $errors++;
                if (!apcu_delete("handoff$i")) $errors++;
                fwrite($link[1], 'ack!');
            }
            fwrite($report[1], "B errors=$errors\n");
        }
        exit(0);
    }
    $pids[$who] = $pid;
}
fclose($link[0]);
fclose($link[1]);
fclose($report[1]);
pcntl_waitpid($pids['A'], $sa);
pcntl_waitpid($pids['B'], $sb);
$lines = explode("\n", trim(stream_get_contents($report[0])));
sort($lines);
echo implode("\n", $lines), "\n";
var_dump(pcntl_wexitstatus($sa), pcntl_wexitstatus($sb), apcu_exists('handoff99'));
?>
--EXPECT--
array(0) {
}
-- child 1 reads the parent's entries and writes its own
array(10) {
  ["p_str"]=>
  string(11) "from parent"
  ["p_int"]=>
  int(42)
  ["p_arr"]=>
  array(2) {
    ["a"]=>
    array(3) {
      [0]=>
      int(1)
      [1]=>
      int(2)
      [2]=>
      int(3)
    }
    ["b"]=>
    NULL
  }
  ["p_big"]=>
  bool(true)
  ["p_obj"]=>
  int(1)
  ["exists"]=>
  array(2) {
    ["p_str"]=>
    bool(true)
    ["p_del"]=>
    bool(true)
  }
  ["add_existing"]=>
  bool(false)
  ["store"]=>
  array(0) {
  }
  ["add_new"]=>
  bool(true)
  ["delete"]=>
  bool(true)
}
-- the parent sees child 1's effects
array(5) {
  ["c1_str"]=>
  string(12) "from child 1"
  ["c1_arr"]=>
  array(1) {
    [1]=>
    string(3) "one"
  }
  ["c1_added"]=>
  string(16) "added by child 1"
  ["p_ow"]=>
  string(22) "overwritten by child 1"
  ["p_str"]=>
  string(11) "from parent"
}
bool(false)
bool(false)
string(16) "added by child 1"
-- child 2 (a sibling of child 1) sees both; children run one after another
array(5) {
  ["p_str"]=>
  string(11) "from parent"
  ["c1_str"]=>
  string(12) "from child 1"
  ["c1_added"]=>
  string(16) "added by child 1"
  ["p_ow"]=>
  string(22) "overwritten by child 1"
  ["inc"]=>
  bool(true)
}
int(6)
-- a child's apcu_clear_cache empties the cache for everyone
bool(true)
array(0) {
}
bool(false)
bool(true)
array(2) {
  [0]=>
  string(6) "parent"
  [1]=>
  bool(true)
}
int(3)
-- entries stored by the parent after a fork are seen by children forked later
bool(true)
array(1) {
  ["stored"]=>
  string(4) "late"
}
-- two live siblings: B waits on a socket for A's message, then must see A's writes
A errors=0
B errors=0
int(0)
int(0)
bool(false)
