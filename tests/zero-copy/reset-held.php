<?php
// Driver of tests/zero-copy/reset-held.sh (see there). Run with
// shardcache.zero_copy=1 on an anonymous segment; reads commands on stdin.
// Arguments: once | twice, and (twice) a flag file's path.
//   1. stores 40 zero-copy arrays, forks a reader R that fetches (borrows)
//      all of them and holds them, and a writer W that stores and deletes
//      large values in a loop (each takes and gives pool runs);
//   2. prints "W <pid>" and waits for "killed" on stdin (the script stops
//      W inside the pool lock with gdb, marks the pool's intent record
//      RESET, one a repair cannot finish, and kills it there);
//   3. stores until the pool's dead holder is found and the full reset
//      done (figure resets), then overwrites the cache with other arrays;
//   4. lets R check every element of every array it held; R's epoch ends
//      with its process, after which the held pages must be given back.
// twice: between 2 and 3, a second writer W2 starts the full reset and is
// killed inside it (prints "W2 <pid>", waits until the flag file exists,
// i.e. until gdb is attached, then stores; the script kills it where the
// reset rebuilds the pool, after the tables are emptied; "killed2" on
// stdin); step 3 then makes the next reset, which must still hold R's
// pages.

function held_val(int $k): array
{
    $a = [];
    for ($i = 0; $i < 150; $i++) {
        $a[] = $i % 2 ? "held-$k-$i" : $k * 1000 + $i;
    }
    return ['k' => $k, 'rows' => $a, 'nested' => ['x' => str_repeat(chr(65 + $k % 26), 80), 'y' => [$k, $k + 0.5]]];
}

function say($sock, string $line): void
{
    fwrite($sock, "$line\n");
}

function hear($sock): string
{
    return trim((string)fgets($sock));
}

const N = 40;
for ($k = 0; $k < N; $k++) {
    if (!apcu_store("held$k", held_val($k))) {
        echo "store held$k failed\n";
    }
}
[$rp, $rc] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$r = pcntl_fork();
if ($r === 0) {
    fclose($rp);
    $held = [];
    for ($k = 0; $k < N; $k++) {
        $held[$k] = apcu_fetch("held$k");
    }
    $zc = shardcache_info()['zero_copy'];
    say($rc, sprintf('ready inside=%s copied=%d', $zc['inside'] ? 'yes' : 'no', $zc['copied']));
    hear($rc);                      // "check"
    $wrong = 0;
    for ($k = 0; $k < N; $k++) {
        if ($held[$k] !== held_val($k)) {
            $wrong++;
        }
    }
    say($rc, "R: " . N . " held arrays checked, $wrong wrong");
    hear($rc);                      // "bye"
    exit(0);
}
fclose($rc);
$w = pcntl_fork();
if ($w === 0) {
    $big = [str_repeat('w', 100000), new stdClass()];  // an object: never zero-copy
    for ($i = 0;; $i++) {
        apcu_store("w", $big);
        apcu_delete("w");
    }
}
echo hear($rp), "\n";               // R holds its arrays now
echo "W $w\n";
flush();
if (trim((string)fgets(STDIN)) !== 'killed') {
    echo "no kill\n";
}
pcntl_waitpid($w, $st);
$big = [str_repeat('x', 100000), new stdClass()];
$resets = 1;
if (($argv[1] ?? 'once') === 'twice') {
    $flag = $argv[2];
    $w2 = pcntl_fork();
    if ($w2 === 0) {
        while (!file_exists($flag)) {   // until gdb is attached (bounded by the script)
            usleep(1000);
            clearstatcache();
        }
        for ($i = 0;; $i++) {
            apcu_store("y$i", $big);
        }
    }
    echo "W2 $w2\n";
    flush();
    if (trim((string)fgets(STDIN)) !== 'killed2') {
        echo "no second kill\n";
    }
    pcntl_waitpid($w2, $st);
    echo "W2 died inside the reset: ", pcntl_wifsignaled($st) && shardcache_info()['resets'] === 1 ? 'yes' : 'no', "\n";
    $resets = 2;
}
for ($i = 0; $i < 100 && shardcache_info()['resets'] < $resets; $i++) {
    apcu_store("x$i", $big);
}
$info = shardcache_info();
echo "full reset: ", $info['resets'] >= $resets ? 'yes' : 'no', "\n";
echo "pages held for the reader: ", $info['zero_copy']['leaked_bytes'] > 0 ? 'yes' : 'no', "\n";
// Overwrite whatever the pool hands out, many times over.
for ($i = 0; $i < 3000; $i++) {
    $v = [];
    for ($j = 0; $j < 150; $j++) {
        $v[] = $j % 2 ? "OVERWRITE-$i-$j" : -$i;
    }
    apcu_store("f" . ($i % 400), ['k' => -1, 'rows' => $v, 'nested' => ['x' => str_repeat('#', 80), 'y' => [0, 0.0]]]);
}
say($rp, 'check');
echo hear($rp), "\n";
say($rp, 'bye');
pcntl_waitpid($r, $st);
echo "R exit: ", pcntl_wifexited($st) ? pcntl_wexitstatus($st) : 'signal ' . pcntl_wtermsig($st), "\n";
$info = shardcache_info();
echo "held pages given back after R left: ", $info['zero_copy']['leaked_bytes'] === 0 ? 'yes' : 'no (' . $info['zero_copy']['leaked_bytes'] . ')', "\n";
echo "cache usable: ", apcu_store('after', [1, 2, 3]) && apcu_fetch('after') === [1, 2, 3] ? 'yes' : 'no', "\n";
