--TEST--
zero-copy: the copying reader survives corrupt layouts: an array or false
--DESCRIPTION--
The copying reader never trusts a layout. A reader at another address
corrupts random bytes (and 8-byte words: pointers, counts, lengths) of
stored arrays in the segment file, 1500 times, and fetches after each: it
gets an array or, with a warning, false; never a crash (valgrind checks
every read of the copy).
--SKIPIF--
<?php if (!extension_loaded('shardcache')) die('skip shardcache only'); ?>
<?php if (!function_exists('proc_open')) die('skip needs proc_open'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/segment.inc';
$d = seg_dir();
$seg = "$d/seg";
$ini = ['shardcache.zero_copy' => '1', 'apc.shm_size' => '4M'];
echo seg_php($seg, '
    for ($k = 0; $k < 12; $k++) {
        $a = ["marker" => "FUZZ-$k-" . str_repeat("m", 20)];
        for ($i = 0; $i < 20; $i++) {
            $a[$i % 3 ? "k$i" : $i] = $i % 2 ? [$k, "s$i", [$i => 1.5]] : ($i % 5 ? "str$i" : $i);
        }
        if (!apcu_store("f$k", $a)) echo "store f$k failed\n";
        $p = [];
        for ($i = 0; $i < 30; $i++) $p[] = $i % 4 ? $i : "p$i";
        if (!apcu_store("p$k", $p)) echo "store p$k failed\n";
    }
    $b = apcu_fetch("f0");
    echo "writer: stored\n";', $ini), "\n";
$bytes = file_get_contents($seg);
$h = strrpos(substr($bytes, 0, strpos($bytes, 'FUZZ-0-')), pack('V', 0x5a43314b));
$wbase = unpack('P', substr($bytes, $h + 8, 8))[1] - $h;
putenv('SHARDCACHE_TEST_AVOID_ADDR=' . dechex($wbase));
echo seg_php($seg, '
    $seg = ' . var_export($seg, true) . ';
    // Every shard locked once (checked, as after every restart: a shard
    // damaged before its check is emptied): the bytes below change a live segment.
    shardcache_info();
    $bytes = file_get_contents($seg);
    // Every layout: the 640 bytes after the magic of its header (inside the value).
    $starts = [];
    for ($o = strpos($bytes, pack("V", 0x5a43314b)); $o !== false; $o = strpos($bytes, pack("V", 0x5a43314b), $o + 4)) {
        $starts[] = $o;
    }
    $keys = [];
    for ($k = 0; $k < 12; $k++) { $keys[] = "f$k"; $keys[] = "p$k"; }
    $warned = 0;
    set_error_handler(function ($no, $msg) use (&$warned) { $warned++; return true; });
    mt_srand(18);
    $f = fopen($seg, "r+");
    $bad = 0; $arrays = 0; $falses = 0;
    for ($round = 0; $round < 1500; $round++) {
        $at = $starts[mt_rand(0, count($starts) - 1)] + 8 * mt_rand(1, 80);
        $len = mt_rand(0, 1) ? 1 : 8;
        $orig = substr($bytes, $at, $len);
        $new = $len === 1 ? chr(mt_rand(0, 255)) : pack("P", [mt_rand(), 0x7ffffff0, PHP_INT_MAX, -8, mt_rand(0, 4096)][mt_rand(0, 4)]);
        fseek($f, $at); fwrite($f, $new); fflush($f);
        foreach ($keys as $k) {
            $w = $warned;
            $v = apcu_fetch($k, $ok);
            if (is_array($v)) { $arrays++; }
            elseif ($v === false && ($warned > $w || !$ok)) { $falses++; }
            else { $bad++; echo "round $round: $k gave ", var_export($v, true), " without a warning\n"; }
        }
        fseek($f, $at); fwrite($f, $orig); fflush($f);
    }
    fclose($f);
    $same = 0;
    foreach ($keys as $k) { $same += is_array(apcu_fetch($k)) ? 1 : 0; }
    printf("reader: %d fetches, %d bad; arrays and warned falses both seen: %s; after restoring: %d of 24 arrays\n",
           1500 * 24, $bad, $arrays > 0 && $falses > 0 ? "yes" : "no", $same);
    echo "copied: ", shardcache_info()["zero_copy"]["copied"] > 0 ? "yes" : "no", "\n";', $ini), "\n";
?>
--EXPECT--
writer: stored
reader: 36000 fetches, 0 bad; arrays and warned falses both seen: yes; after restoring: 24 of 24 arrays
copied: yes
