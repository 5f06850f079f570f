--TEST--
apcu_entry with /proc hidden: a waiter waits for a live owner, callback once
--DESCRIPTION--
/proc is hidden as in a chroot pool or a minimal container. A process
waiting for a key that a live process is computing waits for it; the
callback runs once.
--SKIPIF--
<?php
require __DIR__ . '/../lib/noproc.inc';
np_skip();
if (!extension_loaded('shardcache')) die('skip shardcache-specific (liveness slots)');
if (getenv('SHARDCACHE_VALGRIND')) die('skip under valgrind: valgrind traces unshare and mount, which then fail');
if (getenv('ASAN_OPTIONS') !== false) die('skip under AddressSanitizer: it reads /proc when a process starts, and this test hides /proc');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/noproc.inc';
echo np_run(__DIR__ . '/../lib/entry-live-owner-no-proc.inc');
?>
--EXPECT--
/proc/self visible: false
A: computing
B waits while A computes: true
A got: from A
B got: from A
string(6) "from A"
