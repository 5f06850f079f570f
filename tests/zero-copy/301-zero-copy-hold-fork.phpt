--TEST--
Zero-copy: values held by readers stay right while writers churn the cache
--DESCRIPTION--
3 readers hold 128 fetched arrays and strings each while 2 writers
overwrite, delete, expire, evict and clear thousands of times; every element
of every held value is still right at the end.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (!function_exists('stream_socket_pair')) die('skip no socket pairs');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.zero_copy_max=8M
shardcache.zero_copy=1
--FILE--
<?php
const KEYS = 64;
const READERS = 3;
const WRITERS = 2;
$ops = getenv('SHARDCACHE_VALGRIND') ? 600 : 3000;

function arr_value(int $k, int $v): array {
    $rows = [];
    for ($j = 0; $j < 30; $j++) {
        $rows[] = ['id' => $j, 'name' => "row-$k-$v-$j", 'x' => ($k * 1000 + $v + $j) * 0.5, 'tags' => [$j, "t$j"]];
    }
    return ['k' => $k, 'v' => $v, 'rows' => $rows, 'blob' => str_repeat(chr(65 + ($k + $v) % 26), 100 + $k)];
}
function str_value(int $k, int $v): string {
    return str_repeat("$k:$v|", 40);
}
/* Number of wrong elements of a held array (0 when it is arr_value(k, v)). */
function arr_wrong($a, int $k, int $v): int {
    if (!is_array($a)) {
        return 1000;
    }
    $want = arr_value($k, $v);
    $wrong = 0;
    foreach ($want as $f => $w) {
        if ($f !== 'rows') {
            $wrong += ($a[$f] ?? null) === $w ? 0 : 1;
            continue;
        }
        foreach ($w as $j => $row) {
            foreach ($row as $rf => $rv) {
                $wrong += ($a['rows'][$j][$rf] ?? null) === $rv ? 0 : 1;
            }
        }
    }
    return $wrong + (count($a) === 4 && count($a['rows']) === 30 ? 0 : 1);
}
function zc() { return shardcache_info()['zero_copy']; }
function in_place($v): bool {
    ob_start();
    debug_zval_dump($v);
    return str_contains(strtok(ob_get_clean(), "\n"), ' interned');
}

for ($k = 0; $k < KEYS; $k++) {
    apcu_store("a$k", arr_value($k, 0));
    apcu_store("s$k", str_value($k, 0));
}
$laid = zc()['bytes'];
echo "laid out zero-copy: ", $laid > 0 ? "yes" : "no", "\n";

$readers = [];
for ($r = 0; $r < READERS; $r++) {
    [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    stream_set_timeout($mine, 3600);     /* valgrind runs are slow: no 60 s default timeout */
    stream_set_timeout($theirs, 3600);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        $held = [];
        $copied = false;
        for ($k = 0; $k < KEYS; $k++) {
            $held["a$k"] = apcu_fetch("a$k");
            $held["s$k"] = apcu_fetch("s$k");
            $copied = $copied || !in_place($held["a$k"]) || !in_place($held["s$k"]);
        }
        $wrong = 0;
        for ($k = 0; $k < KEYS; $k++) {
            $wrong += arr_wrong($held["a$k"], $k, 0) + ($held["s$k"] === str_value($k, 0) ? 0 : 1);
        }
        fwrite($theirs, "R");                 /* holding */
        fread($theirs, 1);                    /* writers are done */
        for ($k = 0; $k < KEYS; $k++) {
            $wrong += arr_wrong($held["a$k"], $k, 0) + ($held["s$k"] === str_value($k, 0) ? 0 : 1);
        }
        fwrite($theirs, sprintf("%d %d %d\n", $wrong, $copied ? 1 : 0, zc()['inside'] ? 1 : 0));
        exit(0);
    }
    fclose($theirs);
    $readers[$pid] = $mine;
}
foreach ($readers as $s) {
    if (fread($s, 1) !== 'R') {
        echo "a reader did not start\n";
    }
}

$writers = [];
for ($w = 0; $w < WRITERS; $w++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        mt_srand(1000 + $w);
        $bad = 0;
        $failed = 0;
        for ($i = 0; $i < $ops; $i++) {
            $k = mt_rand(0, KEYS - 1);
            $v = $w * 100000 + $i + 1;
            switch (mt_rand(0, 9)) {
            case 0: case 1: case 2:
                $failed += apcu_store("a$k", arr_value($k, $v)) ? 0 : 1;
                $failed += apcu_store("s$k", str_value($k, $v)) ? 0 : 1;
                break;
            case 3:
                apcu_delete("a$k");
                apcu_delete("s$k");
                break;
            case 4:
                apcu_store("a$k", arr_value($k, $v), -1);   /* stored expired */
                break;
            case 5: case 6:
                /* Filler: the segment fills up and evicts. */
                $failed += apcu_store("fill$w-$i", [str_repeat('f', 20000), $i]) ? 0 : 1;
                break;
            case 7:
                if ($i % 40 === 7) {
                    apcu_clear_cache();
                }
                break;
            default:
                $a = apcu_fetch("a$k");
                if ($a !== false && arr_wrong($a, $k, $a['v'] ?? -1)) {
                    $bad++;
                }
                $s = apcu_fetch("s$k");
                if ($s !== false && !preg_match('/^(' . $k . ':\d+\|){40}$/', $s)) {
                    $bad++;
                }
            }
        }
        exit(min(250, $bad * 10 + ($failed ? 1 : 0)));
    }
    $writers[] = $pid;
}
$wfail = 0;
foreach ($writers as $pid) {
    pcntl_waitpid($pid, $st);
    if (!pcntl_wifexited($st) || pcntl_wexitstatus($st) !== 0) {
        $wfail++;
        echo "writer: ", pcntl_wifexited($st) ? "exit " . pcntl_wexitstatus($st) : "killed", "\n";
    }
}
$during = zc();
echo "writers ok: ", $wfail === 0 ? "yes" : "no", "\n";
echo "retired while held: ", $during['retired'] > 0 ? "yes" : "no", "\n";

$wrong = 0;
$copied = 0;
$inside = 0;
foreach ($readers as $pid => $s) {
    fwrite($s, "G");
    [$w1, $c1, $i1] = array_map('intval', explode(' ', trim((string) fgets($s))));
    $wrong += $w1;
    $copied += $c1;
    $inside += $i1;
    pcntl_waitpid($pid, $st);
    if (!pcntl_wifexited($st) || pcntl_wexitstatus($st) !== 0) {
        echo "a reader failed\n";
    }
}
echo "wrong elements in held values: $wrong\n";
echo "readers that copied: $copied\n";
echo "readers inside an epoch: $inside\n";
/* Nobody holds anything now: a clear gives every retired byte back. */
apcu_clear_cache();
$after = zc();
echo "retired bytes after the readers left: ", $after['retired_bytes'], "\n";
echo "leaked: ", $after['leaked_bytes'], "\n";
?>
--EXPECT--
laid out zero-copy: yes
writers ok: yes
retired while held: yes
wrong elements in held values: 0
readers that copied: 0
readers inside an epoch: 3
retired bytes after the readers left: 0
leaked: 0
