<?php
// tests/fpm/iso.php - the page of tests/fpm/isolation.sh: one cache
// operation per request, answered as one line.
//   op=store|add&k=K&v=V      "1" | "0"   (v=int:N stores the int N)
//   op=fetch&k=K              the value (ints as "int:N"), or "miss"
//   op=exists|delete&k=K      "1" | "0"
//   op=inc|dec&k=K            the new int, or "false"
//   op=cas&k=K&o=O&n=N        "1" | "0"
//   op=entry&k=K&v=V          the value (V when computed; "computed" said)
//   op=key_info&k=K           "null" | "array"
//   op=list                   iterator keys | cache_info keys | num_entries
//   op=users                  shardcache_info()['users'] uids (entries each)
//   op=metrics                tools/metrics.php's shardcache_entries and the
//                             number of shardcache_shard_entries lines ("E N";
//                             a pool's user reads no shard's figures: N is 0)
//   op=clear                  "1"
//   op=whoami                 "user=<name> uid=<uid> owner_uid=<owner_uid>"
//   op=fill&p=P&from=F&n=N    stores keys P<F>..P<F+N-1>, 1,000-byte values:
//                             how many stores returned true
//   op=check&p=P&n=N          of keys P0..P<N-1>: "kept/wrong" (fetched
//                             equal to what fill stored / fetched different)
//   op=big&p=P&rounds=R       R rounds, each rewriting keys P0..P15: the odd
//                             ones with 5 MB values, the even ones with 3 MB,
//                             1 MB, 300 KB, 2 MB, 40 KB, 5 KB, 700 B, 3 MB
//                             (new bytes every round): "stored/tried"
//   op=storm&p=P&fifo=F       writes its pid and a newline to the FIFO F, then
//                             stores small (50..900 B) and large (100 KB ..
//                             3 MB) values under keys P0..P63 in a loop for up
//                             to 60 s (the test's driver SIGKILLs it before):
//                             the number of stores
//   op=resets                 shardcache_info()'s "resets clears"
$k = $_GET['k'] ?? '';
$v = $_GET['v'] ?? '';
if (str_starts_with($v, 'int:')) {
    $v = (int)substr($v, 4);
}
$show = fn($x) => is_int($x) ? "int:$x" : (string)$x;
$filled = fn(string $p, int $i) => str_pad("$p$i-", 1000, chr(97 + $i % 26));
switch ($_GET['op'] ?? '') {
    case 'store': echo (int)apcu_store($k, $v); break;
    case 'add': echo (int)apcu_add($k, $v); break;
    case 'fetch': $x = apcu_fetch($k, $ok); echo $ok ? $show($x) : 'miss'; break;
    case 'exists': echo (int)apcu_exists($k); break;
    case 'delete': echo (int)apcu_delete($k); break;
    case 'inc': $x = apcu_inc($k); echo $x === false ? 'false' : $x; break;
    case 'dec': $x = apcu_dec($k); echo $x === false ? 'false' : $x; break;
    case 'cas': echo (int)apcu_cas($k, (int)$_GET['o'], (int)$_GET['n']); break;
    case 'entry':
        $said = '';
        $x = apcu_entry($k, function () use ($v, &$said) { $said = ' computed'; return $v; });
        echo $show($x), $said;
        break;
    case 'key_info': echo apcu_key_info($k) === null ? 'null' : 'array'; break;
    case 'list':
        $it = [];
        foreach (new APCUIterator() as $key => $item) {
            $it[] = $key;
        }
        $ci = array_column(apcu_cache_info()['cache_list'], 'info');
        sort($it);
        sort($ci);
        echo implode(',', $it), ' | ', implode(',', $ci), ' | ', apcu_cache_info(true)['num_entries'];
        break;
    case 'users':
        $out = [];
        foreach (shardcache_info()['users'] as $uid => $u) {
            $out[] = "$uid:" . $u['entries'];
        }
        sort($out);   // the order of shards the users' entries were met in varies
        echo implode(',', $out);
        break;
    case 'metrics':
        require __DIR__ . '/metrics.php';
        $text = shardcache_prometheus();
        preg_match('/^shardcache_entries (\d+)$/m', $text, $m);
        preg_match_all('/^shardcache_shard_entries\{[^}]*\} (\d+)$/m', $text, $sh);
        echo ($m[1] ?? '?'), ' ', count($sh[1]);
        break;
    case 'clear': echo (int)apcu_clear_cache(); break;
    case 'fill':
        $ok = 0;
        $from = (int)($_GET['from'] ?? 0);
        for ($i = $from; $i < $from + (int)$_GET['n']; $i++) {
            $ok += (int)apcu_store($_GET['p'] . $i, $filled($_GET['p'], $i));
        }
        echo $ok;
        break;
    case 'check':
        $kept = $wrong = 0;
        for ($i = 0; $i < (int)$_GET['n']; $i++) {
            $x = apcu_fetch($_GET['p'] . $i, $found);
            if ($found) {
                $x === $filled($_GET['p'], $i) ? $kept++ : $wrong++;
            }
        }
        echo "$kept/$wrong";
        break;
    case 'big':
        $ok = $tried = 0;
        $sizes = [3 << 20, 5 << 20, 1 << 20, 5 << 20, 300 << 10, 5 << 20, 2 << 20, 5 << 20,
                  40 << 10, 5 << 20, 5 << 10, 5 << 20, 700, 5 << 20, 3 << 20, 5 << 20];
        for ($r = 0; $r < (int)$_GET['rounds']; $r++) {
            foreach ($sizes as $i => $size) {
                $tried++;
                $ok += (int)apcu_store($_GET['p'] . $i, str_repeat(chr(65 + ($r + $i) % 26), $size));
            }
        }
        echo "$ok/$tried";
        break;
    case 'storm':
        // Values made before the loop: the loop's time is the stores' time.
        mt_srand(getmypid());
        $vals = [];
        for ($i = 0; $i < 16; $i++) {
            $vals[] = str_repeat(chr(97 + $i), $i < 8 ? mt_rand(50, 900) : mt_rand(100 << 10, 3 << 20));
        }
        file_put_contents($_GET['fifo'], getmypid() . "\n");
        $n = 0;
        $max = (int)($_GET['n'] ?? PHP_INT_MAX);
        for ($end = microtime(true) + 60; microtime(true) < $end && $n < $max; $n++) {
            apcu_store($_GET['p'] . mt_rand(0, 63), $vals[mt_rand(0, 15)]);
        }
        echo $n;
        break;
    case 'resets':
        $info = shardcache_info();
        echo $info['resets'], ' ', $info['clears'];
        break;
    case 'whoami':
        $info = shardcache_info();
        printf('user=%s uid=%d owner_uid=%d isolation=%s', posix_getpwuid(posix_geteuid())['name'], posix_geteuid(),
               $info['owner_uid'], $info['isolation']);
        break;
    default:
        echo 'bad op';
}
