--TEST--
apcu_cache_info: APCu 5.1.28's keys and types, one process's counters, rows
--DESCRIPTION--
Keys, order and types of the full and limited forms are APCu 5.1.28's. The
counters are those of one process (apcu_exists counts as in 5.1.25+). The
cache_list rows are checked too.
--SKIPIF--
<?php if (!function_exists('apcu_cache_info')) die('skip apcu_cache_info not available'); ?>
--INI--
apc.enable_cli=1
apc.ttl=30
--FILE--
<?php
function shape(array $a) {
    foreach ($a as $k => $v) {
        echo "  $k: ", gettype($v), "\n";
    }
}
echo "-- empty\n";
$info = apcu_cache_info();
shape($info);
var_dump($info['num_hits'], $info['num_misses'], $info['num_inserts'], $info['num_entries'], $info['cleanups'],
         $info['defragmentations'], $info['expunges'], $info['mem_size'], $info['ttl'], $info['memory_type'], $info['cache_list'], $info['deleted_list'],
         $info['slot_distribution'], $info['num_slots'] > 0, $info['start_time'] > 0);
echo "-- limited\n";
shape(apcu_cache_info(true));
var_dump(array_keys(apcu_cache_info(true)) === array_slice(array_keys($info), 0, 12));

echo "-- after stores, fetches, misses\n";
for ($i = 0; $i < 20; $i++) {
    apcu_store("k$i", str_repeat('v', $i * 10), $i % 3 ? 0 : 100 + $i);
}
apcu_store('k0', 'replaced');
apcu_add('k1', 'not added');
for ($i = 0; $i < 75; $i++) {
    apcu_fetch('k' . ($i % 20));
}
apcu_fetch(['k1', 'k2', 'nope1']);
for ($i = 0; $i < 40; $i++) {
    apcu_fetch("missing$i");
}
apcu_exists('k3');
apcu_exists('missing');
$info = apcu_cache_info();
var_dump($info['num_hits'], $info['num_misses'], $info['num_inserts'], $info['num_entries'], $info['cleanups'],
         $info['defragmentations'], $info['expunges']);
var_dump($info['mem_size'] > 0, $info['mem_size'] == array_sum(array_column($info['cache_list'], 'mem_size')));
var_dump(count($info['cache_list']), array_sum($info['slot_distribution']), min($info['slot_distribution']) >= 1);
var_dump(max(array_keys($info['slot_distribution'])) < $info['num_slots']);
$row = $info['cache_list'][0];
shape($row);
$rows = [];
foreach ($info['cache_list'] as $r) {
    $rows[$r['info']] = $r;
}
ksort($rows, SORT_NATURAL);
foreach ($rows as $key => $r) {
    printf("%s ttl=%d hits=%s del=%d ref=%d mtime=ctime:%s atime>=ctime:%s\n", $key, $r['ttl'], gettype($r['num_hits']),
           $r['deletion_time'], $r['ref_count'], var_export($r['mtime'] === $r['creation_time'], true),
           var_export($r['access_time'] >= $r['creation_time'], true));
}
echo "-- deletes\n";
apcu_delete(['k5', 'k6', 'absent']);
$info = apcu_cache_info(true);
var_dump($info['num_entries'], $info['num_inserts']);
echo "-- arguments\n";
try {
    apcu_cache_info([]);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
var_dump(count(apcu_cache_info(0)), count(apcu_cache_info(1)), count(apcu_cache_info(limited: true)));
?>
--EXPECT--
-- empty
  num_slots: integer
  ttl: integer
  num_hits: double
  num_misses: double
  num_inserts: double
  num_entries: integer
  cleanups: integer
  defragmentations: integer
  expunges: integer
  start_time: integer
  mem_size: double
  memory_type: string
  cache_list: array
  deleted_list: array
  slot_distribution: array
float(0)
float(0)
float(0)
int(0)
int(0)
int(0)
int(0)
float(0)
int(30)
string(4) "mmap"
array(0) {
}
array(0) {
}
array(0) {
}
bool(true)
bool(true)
-- limited
  num_slots: integer
  ttl: integer
  num_hits: double
  num_misses: double
  num_inserts: double
  num_entries: integer
  cleanups: integer
  defragmentations: integer
  expunges: integer
  start_time: integer
  mem_size: double
  memory_type: string
bool(true)
-- after stores, fetches, misses
float(78)
float(42)
float(21)
int(20)
int(0)
int(0)
int(0)
bool(true)
bool(true)
int(20)
int(20)
bool(true)
bool(true)
  info: string
  ttl: integer
  num_hits: double
  mtime: integer
  creation_time: integer
  deletion_time: integer
  access_time: integer
  ref_count: integer
  mem_size: integer
k0 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k1 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k2 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k3 ttl=103 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k4 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k5 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k6 ttl=106 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k7 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k8 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k9 ttl=109 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k10 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k11 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k12 ttl=112 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k13 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k14 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k15 ttl=115 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k16 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k17 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k18 ttl=118 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
k19 ttl=0 hits=double del=0 ref=0 mtime=ctime:true atime>=ctime:true
-- deletes
int(18)
float(21)
-- arguments
apcu_cache_info(): Argument #1 ($limited) must be of type bool, array given
int(15)
int(12)
int(12)
