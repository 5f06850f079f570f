--TEST--
shardcache.segment_mode=0660, isolation off: a group's members share a segment
--DESCRIPTION--
With shardcache.isolation=off, a segment root made for group G is shared by
two users of G (each sees the other's stores). A segment one member made is
refused by the other (warning, a private segment instead, the file
untouched). A user outside G cannot open it.
--SKIPIF--
<?php if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: many child PHP processes, each traced (288 runs a named segment under valgrind)'); ?>
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
<?php if (!function_exists('exec') || trim((string) shell_exec('id -u')) !== '0') die('skip needs root (runs PHP as other uids)'); ?>
<?php if (trim((string) shell_exec('command -v setpriv')) === '') die('skip needs setpriv (util-linux)'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
// Uids and a group with no passwd entry: %u would give the uid.
const G = 48100, U1 = 48101, U2 = 48102, OUTSIDER = 48103;
function as_user(int $uid, int $gid, string $path, string $code): string
{
    $p = proc_open(array_merge(['setpriv', "--reuid=$uid", "--regid=$gid", '--clear-groups', '--'],
                               seg_cmd(['shardcache.segment' => $path, 'shardcache.segment_mode' => '0660',
                                        'shardcache.isolation' => 'off'], $code)),
                   [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]);
    fclose($pipes[1]);
    $st = proc_close($p);
    $out = trim(str_replace($path, 'SEG', $out));
    return $st === 0 ? $out : "$out\n[exit $st]";
}
function owner(string $f): string
{
    clearstatcache();
    $s = stat($f);
    return sprintf('%d:%d %04o', $s['uid'], $s['gid'], $s['mode'] & 07777);
}
$d = seg_dir();
chmod($d, 0755);            // the others may pass through
// Root makes the segment for G in a directory only root can write.
mkdir("$d/shared", 0755);
$seg = "$d/shared/seg";
echo as_user(0, G, $seg, 'var_dump(apcu_store("from-root", 1));'), "\n";
echo "file: ", owner($seg), "\n";
echo "u1: ", as_user(U1, G, $seg, 'var_dump(apcu_fetch("from-root"), apcu_store("from-u1", "one"));'), "\n";
echo "u2: ", as_user(U2, G, $seg, 'var_dump(apcu_fetch("from-u1"), apcu_store("from-u2", "two"));' . SEG_INFO), "\n";
echo "u1: ", as_user(U1, G, $seg, 'var_dump(apcu_fetch("from-u2"), apcu_cache_info()["num_entries"]);'), "\n";
echo "outsider: ", as_user(OUTSIDER, OUTSIDER, $seg, 'var_dump(apcu_fetch("from-u1"), apcu_store("x", 1));'), "\n";
echo "file: ", owner($seg), "\n";

// A directory the members may write (sticky): the first member to start
// owns the file; the other does not trust it.
mkdir("$d/open", 01770);
chmod("$d/open", 01770);
chgrp("$d/open", G);
$seg = "$d/open/seg";
echo "u1: ", as_user(U1, G, $seg, 'var_dump(apcu_store("k", "u1 made it"));'), "\n";
echo "file: ", owner($seg), "\n";
echo "u2: ", str_replace([(string) U1, (string) U2], ['U1', 'U2'],
                         as_user(U2, G, $seg, 'var_dump(apcu_fetch("k"), apcu_store("k", "u2"), apcu_fetch("k"));' . SEG_INFO)), "\n";
echo "u1: ", as_user(U1, G, $seg, 'var_dump(apcu_fetch("k"));'), "\n";
echo "file: ", owner($seg), "\n";
echo count(glob("$d/*/*.new")), " temporary files left\n";
?>
--EXPECT--
bool(true)
file: 0:48100 0660
u1: int(1)
bool(true)
u2: string(3) "one"
bool(true)
segment: SEG (file, 3 boots)
u1: string(3) "two"
int(3)
outsider: Warning: PHP Startup: shardcache: cannot open SEG: Permission denied; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(false)
bool(true)
file: 0:48100 0660
u1: bool(true)
file: 48101:48100 0660
u2: Warning: PHP Startup: shardcache: SEG is owned by uid U1, not by this process's user (uid U2) or root; this process uses a private anonymous segment instead (its entries are not shared with other processes) in Unknown on line 0
bool(false)
bool(true)
string(2) "u2"
segment: anonymous, private to this process: shardcache.segment refused: SEG is owned by uid U1, not by this process's user (uid U2) or root
u1: string(10) "u1 made it"
file: 48101:48100 0660
0 temporary files left
