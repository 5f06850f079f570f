--TEST--
Fork: APCUIterator and apcu_cache_info while others store and delete
--DESCRIPTION--
The iterator and apcu_cache_info run in processes while others store and
delete; every item read is checked.
--SKIPIF--
<?php
if (!class_exists('APCUIterator')) die('skip APCUIterator not available');
if (!function_exists('pcntl_fork')) die('skip pcntl not available');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
const WRITERS = 4;
const READERS = 2;
const PER_WRITER = 3000;

function expected_value(int $w, int $i): array {
    return [$w, $i, str_repeat(chr(65 + $w), $i % 97)];
}
/* "w<writer>:<i>" => [writer, i], or null for a key no writer makes */
function parse_key(string $k): ?array {
    return preg_match('/^w(\d+):(\d+)$/D', $k, $m) ? [(int)$m[1], (int)$m[2]] : null;
}
/* One pass over the cache; returns [items, problems]. */
function check_pass(): array {
    $seen = [];
    $bad = [];
    foreach (new APCUIterator('/^w/', APC_ITER_KEY | APC_ITER_VALUE | APC_ITER_TTL, 50) as $k => $item) {
        $p = parse_key($k);
        if ($p === null || $item['key'] !== $k || $item['value'] !== expected_value($p[0], $p[1]) || $item['ttl'] !== 0) {
            $bad[] = "bad item $k: " . json_encode($item);
        }
        if (isset($seen[$k])) {
            $bad[] = "$k listed twice in one pass";
        }
        $seen[$k] = true;
    }
    return [$seen, $bad];
}

$children = [];
for ($c = 0; $c < WRITERS + READERS; $c++) {
    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = pcntl_fork();
    if ($pid < 0) {
        echo "fork failed\n";
        exit(1);
    }
    if ($pid == 0) {
        fclose($pair[0]);
        $report = [];
        if ($c < WRITERS) {
            // start once both readers are reading
            while (apcu_fetch('ready_readers') !== READERS) {
            }
            for ($i = 0; $i < PER_WRITER; $i++) {
                if (!apcu_store("w$c:$i", expected_value($c, $i))) {
                    $report[] = "store w$c:$i failed";
                }
            }
            for ($i = 1; $i < PER_WRITER; $i += 2) {
                if (!apcu_delete("w$c:$i")) {
                    $report[] = "delete w$c:$i failed";
                }
            }
            apcu_inc('done_writers');
        } else {
            apcu_inc('ready_readers');
            do {
                $done = apcu_fetch('done_writers');
                [$seen, $bad] = check_pass();
                $report = array_merge($report, $bad);
                $info = apcu_cache_info();
                foreach ($info['cache_list'] as $e) {
                    if (!is_string($e['info']) || !is_int($e['mem_size']) || $e['mem_size'] <= 0) {
                        $report[] = 'bad cache_list row ' . json_encode($e);
                    }
                }
            } while ($done !== WRITERS && count($report) < 10);
            // after the writers: exactly the even keys of every writer
            $want = WRITERS * PER_WRITER / 2;
            if (count($seen) !== $want) {
                $report[] = 'final pass saw ' . count($seen) . " keys, want $want";
            }
            foreach ($seen as $k => $_) {
                if (parse_key($k)[1] % 2 != 0) {
                    $report[] = "deleted key $k listed";
                }
            }
        }
        fwrite($pair[1], json_encode($report));
        fclose($pair[1]);
        exit(0);
    }
    fclose($pair[1]);
    $children[$c] = [$pid, $pair[0]];
}
foreach ($children as $c => [$pid, $sock]) {
    $report = json_decode(stream_get_contents($sock), true);
    fclose($sock);
    pcntl_waitpid($pid, $status);
    $role = $c < WRITERS ? "writer" : "reader";
    echo "$role: ", pcntl_wifexited($status) && pcntl_wexitstatus($status) === 0 ? 'exited 0' : "status $status",
         ', ', $report === [] ? 'no problems' : json_encode(array_slice($report, 0, 5)), "\n";
}
[$seen, $bad] = check_pass();
echo count($seen), " keys, ", count($bad), " bad\n";
$it = new APCUIterator('/^w/');
var_dump($it->getTotalCount(), apcu_cache_info(true)['num_entries'], count(apcu_cache_info()['cache_list']));
var_dump(apcu_delete(new APCUIterator('/^w1:/')));
var_dump((new APCUIterator('/^w/'))->getTotalCount(), (new APCUIterator('/^w1:/'))->getTotalCount());
?>
--EXPECT--
writer: exited 0, no problems
writer: exited 0, no problems
writer: exited 0, no problems
writer: exited 0, no problems
reader: exited 0, no problems
reader: exited 0, no problems
6000 keys, 0 bad
int(6000)
int(6002)
int(6002)
bool(true)
int(4500)
int(0)
