--TEST--
APCUIterator: entries gone after the iteration started are not yielded later
--DESCRIPTION--
Entries deleted, cleared or replaced after the iteration started are not
yielded from a later chunk (only the rest of the current chunk stays, as in
APCu), with one shard and with the default count.
--FILE--
<?php
require __DIR__ . '/../lib/compat.inc';
$ext = extension_loaded('shardcache') ? 'extension=' . sc_extension_path() : 'extension=apcu.so';
$code = <<<'CODE'
function run($what) {
    apcu_clear_cache();
    for ($i = 0; $i < 200; $i++) {
        apcu_store("k$i", $i);
    }
    $it = new APCUIterator(null, APC_ITER_KEY | APC_ITER_VALUE, 10);
    $seen = 0;
    $bad = [];
    $vals = [];
    foreach ($it as $key => $item) {
        if ($seen++ === 0) {
            if ($what === 'clear') {
                apcu_clear_cache();
            } elseif ($what === 'delete') {
                for ($i = 0; $i < 200; $i++) apcu_delete("k$i");
            } else {
                for ($i = 0; $i < 200; $i++) apcu_store("k$i", "new$i");
            }
        }
        if ($item['key'] !== $key) $bad[] = $key;
        if ($what === 'replace') {
            $v = $item['value'];
            $ok = $v === (int) substr($key, 1) ? 'old' : ($v === 'new' . substr($key, 1) ? 'new' : 'wrong');
            $vals[$ok] = ($vals[$ok] ?? 0) + 1;
        }
    }
    echo "$what: yielded $seen, then a new iterator sees ", iterator_count(new APCUIterator()),
         ", bad ", json_encode($bad), $vals ? " values " . json_encode($vals) : "", "\n";
}
run('delete');
run('clear');
run('replace');
CODE;
foreach ([[], ['shardcache.shards=1']] as $extra) {
    [$out, $status] = sc_run_php(array_merge([$ext, 'apc.enable_cli=1'], $extra), $code);
    echo $out, "exit $status\n";
}
?>
--EXPECT--
delete: yielded 11, then a new iterator sees 0, bad []
clear: yielded 11, then a new iterator sees 0, bad []
replace: yielded 200, then a new iterator sees 200, bad [] values {"old":11,"new":189}
exit 0
delete: yielded 11, then a new iterator sees 0, bad []
clear: yielded 11, then a new iterator sees 0, bad []
replace: yielded 200, then a new iterator sees 200, bad [] values {"old":11,"new":189}
exit 0
