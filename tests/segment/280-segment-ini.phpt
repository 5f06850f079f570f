--TEST--
shardcache.segment and segment_mode: defaults, modes, a 0600 file, %u %U %p
--DESCRIPTION--
shardcache.segment and shardcache.segment_mode: defaults, PHP_INI_SYSTEM,
bad modes (0640 and 0644 too). A named segment is a 0600 file (whatever the
umask) that a later process maps with its entries. %u, %U and %p are
covered.
--SKIPIF--
<?php if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: many child PHP processes, each traced (288 runs a named segment under valgrind)'); ?>
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--INI--
apc.enable_cli=1
shardcache.segment=
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$all = ini_get_all('shardcache');
foreach (['shardcache.segment', 'shardcache.segment_mode'] as $n) {
    printf("%s: global=%s local=%s access=%d\n", $n, var_export($all[$n]['global_value'], true),
           var_export($all[$n]['local_value'], true), $all[$n]['access']);
}
var_dump(ini_set('shardcache.segment', '/tmp/x'), ini_get('shardcache.segment'));
echo "this process: ", ini_get('shardcache.segment') === '' && apcu_enabled() ? "anonymous, enabled" : "?", "\n";

$d = seg_dir();
$seg = "$d/pool";
umask(0);   // the mode is set explicitly: a permissive umask widens nothing
echo seg_php($seg, 'var_dump(apcu_store("k", [1, "two"]), apcu_fetch("k"));' . SEG_INFO), "\n";
printf("file mode %04o, size %d, owner is me: %s\n", fileperms($seg) & 07777, filesize($seg),
       var_export(fileowner($seg) === posix_geteuid_or_uid(), true));
function posix_geteuid_or_uid() { return function_exists('posix_geteuid') ? posix_geteuid() : getmyuid(); }
echo seg_php($seg, 'var_dump(apcu_fetch("k")); echo apcu_cache_info()["num_entries"], " entries\n";' . SEG_INFO), "\n";
umask(077);
echo seg_php("$d/group", 'var_dump(apcu_store("g", 1));', ['shardcache.segment_mode' => '0660']), "\n";
printf("group file mode %04o\n", fileperms("$d/group") & 07777);
umask(022);

// Bad modes: warning, the default (0600) stays. 0640 and 0644 would share
// nothing: every process of a segment maps it to read and write.
foreach (['0640', '0644', '0666', '0700', 'rw', '0604', ''] as $m) {
    echo "mode '$m': ", seg_php("$d/m", 'echo ini_get("shardcache.segment_mode"), "\n";', ['shardcache.segment_mode' => $m]), "\n";
}
// Not an absolute path / unknown %-form: refused, a private segment instead, nothing created.
echo seg_php('relative-seg', 'var_dump(apcu_enabled(), apcu_store("k", 1));'), "\n";
echo seg_php("$d/x%q", 'var_dump(apcu_enabled());'), "\n";
var_dump(file_exists('relative-seg'));
// %U (uid), %p (pid: a segment per process), %%
echo seg_php("$d/u-%U-%%", 'var_dump(apcu_store("k", 2));'), "\n";
var_dump(file_exists("$d/u-" . posix_geteuid_or_uid() . "-%"));
echo seg_php("$d/p-%p", 'var_dump(file_exists(ini_get("shardcache.segment")), file_exists(str_replace("%p", getmypid(), ini_get("shardcache.segment"))));'), "\n";
echo count(glob("$d/*.new")), " temporary files left\n";
?>
--EXPECTF--
shardcache.segment: global='' local='' access=4
shardcache.segment_mode: global='0600' local='0600' access=4
bool(false)
string(0) ""
this process: anonymous, enabled
bool(true)
array(2) {
  [0]=>
  int(1)
  [1]=>
  string(3) "two"
}
segment: SEG (file, 1 boots)
file mode 0600, size 33554432, owner is me: true
array(2) {
  [0]=>
  int(1)
  [1]=>
  string(3) "two"
}
1 entries
segment: SEG (file, 2 boots)
bool(true)
group file mode 0660
mode '0640': Warning: PHP Startup: shardcache.segment_mode must be 0600 (the owner) or 0660 (the owner and the group: every user of a segment reads and writes it); using the default 0600 in Unknown on line 0
0600
mode '0644': Warning: PHP Startup: shardcache.segment_mode must be 0600 (the owner) or 0660 (the owner and the group: every user of a segment reads and writes it); using the default 0600 in Unknown on line 0
0600
mode '0666': Warning: PHP Startup: shardcache.segment_mode must be 0600 (the owner) or 0660 (the owner and the group: every user of a segment reads and writes it); using the default 0600 in Unknown on line 0
0600
mode '0700': Warning: PHP Startup: shardcache.segment_mode must be 0600 (the owner) or 0660 (the owner and the group: every user of a segment reads and writes it); using the default 0600 in Unknown on line 0
0600
mode 'rw': Warning: PHP Startup: shardcache.segment_mode must be 0600 (the owner) or 0660 (the owner and the group: every user of a segment reads and writes it); using the default 0600 in Unknown on line 0
0600
mode '0604': Warning: PHP Startup: shardcache.segment_mode must be 0600 (the owner) or 0660 (the owner and the group: every user of a segment reads and writes it); using the default 0600 in Unknown on line 0
0600
mode '': Warning: PHP Startup: shardcache.segment_mode must be 0600 (the owner) or 0660 (the owner and the group: every user of a segment reads and writes it); using the default 0600 in Unknown on line 0
0600
Warning: PHP Startup: shardcache: shardcache.segment must be an absolute path; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
bool(true)
Warning: PHP Startup: shardcache: shardcache.segment "SEG" is not valid (%u, %U, %p and %% are the only % forms); this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
bool(false)
0 temporary files left
