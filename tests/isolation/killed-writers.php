<?php
// tests/isolation/killed-writers.php - the driver of
// tests/isolation/killed-writers.sh (see there). Run as root with
// pcntl/posix; argv: a directory, then the stop points, each
// "FUNCTION:STEPS" or "FUNCTION:STEPS+REPAIRSTEPS".
//
// User A (the victim) stores its keys once. Then, for each point, user B
// forks a writer that prints "W <pid>" and stores and deletes small and
// large values, in a loop, in the same single shard, once the file
// DIR/go.<pid> exists (gdb makes it once its breakpoint is set); the shell
// stops it
// with gdb where the point says and kills it there, and this process sees
// it die (waitpid). With "+REPAIRSTEPS", a second writer of B ("W <pid>"
// again) is stopped inside the repair that the first death causes, and
// killed there too. Then B stores once (the shard is repaired by then)
// and A reads every key back. One line per point:
//   "point P: victim kept N/M, wrong W, repairs +R, resets +S"
require __DIR__ . '/../lib/isolation.inc';

const VICTIM_KEYS = 5000;

function victim_value(int $i): string
{
    return "victim-$i-" . str_repeat(chr(97 + $i % 26), $i % 300);
}

/* A writer of B: says its pid, then stores and deletes for ever. Every
 * kind of write a point may stop in comes round within a few turns. */
function writer(int $seed, string $dir): void
{
    mt_srand($seed);
    echo "W ", getmypid(), "\n";
    fflush(STDOUT);
    $go = "$dir/go." . getmypid();
    while (!file_exists($go)) {
        usleep(1000);   // until gdb has set its breakpoint
        clearstatcache();
    }
    for ($n = 0;; $n++) {
        $k = mt_rand(0, 3000);
        switch ($n % 6) {
            case 0: apcu_store("s$k", str_repeat('s', mt_rand(1, 3000))); break;
            case 1: apcu_store("L" . ($k % 40), str_repeat('L', mt_rand(33000, 150000))); break;
            case 2: apcu_delete("s" . mt_rand(0, 3000)); break;
            case 3: apcu_delete("L" . mt_rand(0, 40)); break;
            case 4: apcu_store("n" . ($k % 50), $n % 3 ? $n : $n / 2, 100); break;   // in place (a ttl: not lockless)
            default: apcu_store("new$seed-$n", $n); break;
        }
    }
}

/* Forks writer $seed as user B and waits until it is gone. */
function writer_killed(int $seed): bool
{
    global $argv;

    $pid = pcntl_fork();
    if ($pid === 0) {
        posix_setegid(ISO_B);
        posix_seteuid(ISO_B);
        writer($seed, $argv[1]);
        exit(0);
    }
    pcntl_waitpid($pid, $st);
    return pcntl_wifsignaled($st);
}

iso_as(ISO_A, function () {
    $ok = 0;
    for ($i = 0; $i < VICTIM_KEYS; $i++) {
        $ok += apcu_store("v$i", victim_value($i)) ? 1 : 0;
    }
    echo "victim stored $ok/", VICTIM_KEYS, "\n";
});
foreach (array_slice($argv, 2) as $n => $point) {
    $before = shardcache_info();
    $killed = writer_killed(2 * $n);
    if (str_contains($point, '+')) {
        $killed = writer_killed(2 * $n + 1) && $killed;
    }
    iso_as(ISO_B, function () {
        apcu_store('after', 1);
    });
    iso_as(ISO_A, function () use ($point, $killed) {
        $kept = $wrong = 0;
        for ($i = 0; $i < VICTIM_KEYS; $i++) {
            $v = apcu_fetch("v$i", $found);
            if ($found) {
                $v === victim_value($i) ? $kept++ : $wrong++;
            }
        }
        printf("point %s: %s victim kept %d/%d, wrong %d, ", $point,
               $killed ? 'killed;' : 'NOT KILLED;', $kept, VICTIM_KEYS, $wrong);
    });
    // The segment's counters: root's (a user reads none of them).
    $after = shardcache_info();
    printf("repairs +%d, resets +%d\n", $after['repairs'] - $before['repairs'], $after['resets'] - $before['resets']);
}
echo "driver done\n";
