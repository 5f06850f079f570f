--TEST--
Fork, one shard: races on lockless-deleted keys break no rule, counts agree
--DESCRIPTION--
Processes race on the same keys with apcu_add as a lock (the holder's fetch,
same-length store and delete must all see it alone), with stores, adds,
deletes and fetches of shared keys, and with inc against delete, while a
reader checks every value it sees. Deletes without the lock keep the entry;
a same-length store brings it back. No violation; the counts agree, and the
figures agree with the listing.
--SKIPIF--
<?php
require __DIR__ . '/../lib/fork-update.inc';
fu_skip();
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.shards=1
--FILE--
<?php
require __DIR__ . '/../lib/gone-race.inc';
gr_run(getenv('SHARDCACHE_VALGRIND') ? 300 : 40000);
?>
--EXPECT--
processes failed: 0
violations: none
reader looked: true
counts agree: yes
entries = listed = iterator: true
inserts - deletes = entries: true
deletes = deletes that said true: true
inserts >= adds that said true: true
lockless deletes and inserts happened: true
evicted 0, expired 0, repairs 0, resets 0
