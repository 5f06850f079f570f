<?php
/*
 * tests/kill/restart.php - the kill test's restart rounds on a named segment
 * (run by tests/kill/run.sh --segment=...): the segment's last users die
 * mid-operation, then a new process -- the first user of the file after them,
 * as after a php-fpm restart -- must find it usable exactly as a running
 * pool finds it after a kill.
 *
 *   php -d extension=shardcache.so restart.php --segment=PATH --shm=SIZE [--rounds=N] [--workers=N] [--seed=N]
 *
 * Each round starts N worker processes (the kill test's worker loop,
 * tests/kill/workload.inc) on the segment, lets them run a random
 * 20..300 ms after they all reported progress, SIGKILLs all of them at
 * once, and then runs a checker process that must finish within 20 s (a
 * hang otherwise): every key holds a valid value or nothing, and every key
 * can be cleared, stored, read and updated (kt_final_check). This process
 * never maps the segment itself (it runs with the cache off).
 * Output ends with "restart rounds: N, hangs: N, wrong values: N" and
 * "N passed, N failed".
 */
require __DIR__ . '/workload.inc';

$opt = getopt('', ['segment:', 'shm:', 'rounds:', 'workers:', 'seed:', 'worker:', 'check', 'so:', 'shards:']);
$segment = $opt['segment'] ?? '';
$so = $opt['so'] ?? '';

if (isset($opt['worker'])) {         // a worker: its messages go to stdout
    kt_worker((int) $opt['worker'], STDOUT);
}
if (isset($opt['check'])) {          // the checker: problems as JSON, then the repair figures
    $i = shardcache_info();           // (itself locks every shard: repairs happen here)
    $problems = kt_final_check();
    echo json_encode(['problems' => $problems, 'repairs' => $i['repairs'] ?? null, 'resets' => $i['resets'] ?? null]), "\n";
    exit(0);
}

if ($segment === '' || $so === '') {
    fwrite(STDERR, "restart.php: --segment and --so are required\n");
    exit(2);
}
$rounds = (int) ($opt['rounds'] ?? 10);
$nworkers = (int) ($opt['workers'] ?? 6);
$seed = (int) ($opt['seed'] ?? random_int(1, 1 << 30));
mt_srand($seed);
$base = [PHP_BINARY, '-n', '-d', "extension=$so", '-d', 'apc.enable_cli=1', '-d', 'shardcache.segment=' . $segment,
         '-d', 'apc.shm_size=' . ($opt['shm'] ?? '2M'), '-d', 'memory_limit=512M', '-d', 'display_errors=stderr'];
if (isset($opt['shards'])) array_push($base, '-d', 'shardcache.shards=' . $opt['shards']);
echo "restart rounds on $segment: $rounds rounds of $nworkers workers, seed $seed\n";

$hangs = $wrong = $crashes = 0;
$wid = 1;
$lines = [];
$repairs_seen = [];
for ($round = 1; $round <= $rounds; $round++) {
    $procs = [];
    foreach (range(1, $nworkers) as $_) {
        $p = proc_open(array_merge($base, [__FILE__, '--worker=' . $wid++]), [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        stream_set_blocking($pipes[1], false);
        stream_set_blocking($pipes[2], false);
        $procs[] = ['p' => $p, 'out' => $pipes[1], 'err' => $pipes[2], 'in' => $pipes[0], 'buf' => '', 'progress' => false];
    }
    // Until every worker reported progress (at most 20 s), then a random while longer.
    $until = null;
    $deadline = microtime(true) + 20;
    while (microtime(true) < $deadline && ($until === null || microtime(true) < $until)) {
        $r = array_column($procs, 'out');
        $w = $e = null;
        if (@stream_select($r, $w, $e, 0, 10000) > 0) {
            foreach ($procs as &$pr) {
                $d = fread($pr['out'], 65536);
                if ($d === '' || $d === false) continue;
                $pr['buf'] .= $d;
                while (($nl = strpos($pr['buf'], "\n")) !== false) {
                    $line = substr($pr['buf'], 0, $nl);
                    $pr['buf'] = substr($pr['buf'], $nl + 1);
                    if ($line[0] === 'P') $pr['progress'] = true;
                    if ($line[0] === 'W') { $wrong++; $lines[] = "round $round: " . substr($line, 2); }
                }
            }
            unset($pr);
        }
        if ($until === null && count(array_filter($procs, fn($x) => $x['progress'])) === $nworkers) {
            $until = microtime(true) + mt_rand(20, 300) / 1000;
        }
    }
    if ($until === null) {
        $hangs++;
        $lines[] = "round $round: not every worker made progress within 20 s";
    }
    clearstatcache();
    if (!is_file($segment)) {
        $crashes++;
        $lines[] = "round $round: no segment file at $segment while the workers ran: not a named segment";
    }
    foreach ($procs as $pr) proc_terminate($pr['p'], 9);
    foreach ($procs as $pr) {
        $err = stream_get_contents($pr['err']);
        fclose($pr['in']); fclose($pr['out']); fclose($pr['err']);
        proc_close($pr['p']);
        if (trim((string) $err) !== '') { $crashes++; $lines[] = "round $round: a worker printed: " . trim($err); }
    }
    // The first user after them all.
    $c = proc_open(array_merge($base, [__FILE__, '--check']), [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $cp);
    stream_set_blocking($cp[1], false);
    $out = '';
    $deadline = microtime(true) + 20;
    while (!feof($cp[1]) && microtime(true) < $deadline) {
        $r = [$cp[1]]; $w = $e = null;
        if (@stream_select($r, $w, $e, 0, 50000) > 0) $out .= fread($cp[1], 65536);
    }
    if (!feof($cp[1])) {
        $hangs++;
        $lines[] = "round $round: the checker did not finish within 20 s";
        proc_terminate($c, 9);
    }
    fclose($cp[1]);
    proc_close($c);
    $res = json_decode(trim($out), true);
    if (!is_array($res) || !is_array($res['problems'] ?? null)) {
        $crashes++;
        $lines[] = "round $round: the checker gave no report: " . trim($out);
        continue;
    }
    $wrong += count($res['problems']);
    foreach (array_slice($res['problems'], 0, 5) as $p) $lines[] = "round $round: $p";
    $repairs_seen[] = (int) $res['repairs'];
}
foreach (array_slice($lines, 0, 30) as $l) echo "$l\n";
echo 'shard repairs counted (in total) by each round\'s checker: ', implode(' ', $repairs_seen),
     " (a rise: the first user after the kill repaired a shard a dead writer left)\n";
echo "restart rounds: $rounds, hangs: $hangs, wrong values: $wrong\n";
echo "crashes: $crashes\n";
$ok = $hangs == 0 && $wrong == 0 && $crashes == 0;
echo $ok ? "1 passed, 0 failed\n" : "0 passed, 1 failed\n";
exit($ok ? 0 : 1);
