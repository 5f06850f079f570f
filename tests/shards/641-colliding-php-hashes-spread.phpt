--TEST--
shardcache.shards=16: keys with one PHP hash spread over the shards
--DESCRIPTION--
4096 keys made of twelve blocks each "Ez" or "FY" all have the same PHP
string hash (DJBX33A: both blocks add 2399 to the running hash), checked
below. The core files keys under its own hash of the key bytes, keyed with
a secret the segment draws when it is made, so these keys get unrelated
hashes: they spread over the 16 shards (about 256 each; no shard near all
of them) and over each shard's table instead of forming one probe run that
every lookup in its way walks. Before, they all had one 64-bit hash: one
shard held all 4096 in one run. Every key still reads back its own value,
and deletes remove only their own key.
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache not loaded'); ?>
--INI--
apc.enable_cli=1
apc.shm_size=64M
shardcache.shards=16
--FILE--
<?php
function djbx33a(string $s): int {
    $h = 5381;
    for ($i = 0; $i < strlen($s); $i++) {
        $h = ($h * 33 + ord($s[$i])) & 0xffffffffffff;
    }
    return $h;
}
$keys = [];
for ($n = 0; $n < 4096; $n++) {
    $k = 'c';
    for ($b = 0; $b < 12; $b++) {
        $k .= ($n >> $b) & 1 ? 'FY' : 'Ez';
    }
    $keys[] = $k;
}
$hashes = array_unique(array_map('djbx33a', $keys));
echo 'distinct keys: ', count(array_unique($keys)), ', distinct PHP hashes (low 48 bits): ', count($hashes), "\n";
$stored = 0;
foreach ($keys as $i => $k) {
    $stored += apcu_store($k, $i) ? 1 : 0;
}
echo "stored: $stored\n";
$dist = apcu_cache_info()['slot_distribution'];
echo 'shards used: ', count($dist) > 8 ? 'more than 8' : count($dist), "\n";
echo 'fullest shard: ', max($dist) < 1024 ? 'under 1024 entries' : max($dist) . ' entries', "\n";
$bad = 0;
foreach ($keys as $i => $k) {
    $bad += apcu_fetch($k) === $i ? 0 : 1;
}
for ($i = 0; $i < 4096; $i += 2) {
    $bad += apcu_delete($keys[$i]) ? 0 : 1;
}
foreach ($keys as $i => $k) {
    $bad += apcu_exists($k) === (($i & 1) === 1) ? 0 : 1;
}
echo "wrong answers: $bad\n";
?>
--EXPECT--
distinct keys: 4096, distinct PHP hashes (low 48 bits): 1
stored: 4096
shards used: more than 8
fullest shard: under 1024 entries
wrong answers: 0
