<?php
/*
 * tests/fpm/killer.php - the killer of tests/fpm/abuse.sh: SIGKILLs
 * random php-fpm workers (children of one master) at random moments.
 *
 *   php -n -d extension=posix killer.php --master=PID --seconds=S
 *       [--max-kills=N] [--min-us=200] [--max-us=100000] [--seed=N] [--log=FILE]
 *
 * Waits a random delay (log-uniform between --min-us and --max-us), picks a
 * random child of --master, checks right before the kill that it is still a
 * php-fpm child of that master (never anything else), sends SIGKILL, and
 * repeats until --seconds have passed or --max-kills kills were made.
 * Each kill is logged ("<t_s> <pid> <what>"), where <what> tells what the
 * worker was doing, from /proc/PID/syscall read just before the kill:
 * idle = blocked in accept() (waiting for a request: its kill fails no
 * request), busy = running or blocked in any other system call (serving a
 * request, starting up, or exiting after pm.max_requests), gone = already
 * exiting. Last line on stdout:
 *   kills=N idle=N busy=N gone=N seed=N
 */
$opt = getopt('', ['master:', 'seconds:', 'max-kills:', 'min-us:', 'max-us:', 'seed:', 'log:']);
$master = (int) ($opt['master'] ?? 0);
$seconds = (float) ($opt['seconds'] ?? 10);
$max_kills = (int) ($opt['max-kills'] ?? 1000000);
$min_us = max(1, (int) ($opt['min-us'] ?? 200));
$max_us = max($min_us, (int) ($opt['max-us'] ?? 100000));
$seed = (int) ($opt['seed'] ?? random_int(1, 1 << 30));
$log = isset($opt['log']) ? fopen($opt['log'], 'w') : null;

if ($master <= 1 || !function_exists('posix_kill')) {
    fwrite(STDERR, "killer.php: need --master=PID and the posix extension\n");
    exit(2);
}
mt_srand($seed);

/* [ppid, state, comm] of a pid, or null when it is gone. */
function proc_info(int $pid): ?array
{
    $s = @file_get_contents("/proc/$pid/stat");
    if ($s === false) return null;
    $l = strpos($s, '(');
    $r = strrpos($s, ')');
    if ($l === false || $r === false) return null;
    $f = explode(' ', substr($s, $r + 2));
    return [(int) $f[1], $f[0], substr($s, $l + 1, $r - $l - 1)];
}

function children(int $master): array
{
    $out = [];
    foreach (glob('/proc/[0-9]*', GLOB_ONLYDIR) ?: [] as $d) {
        $pid = (int) substr($d, 6);
        $i = proc_info($pid);
        if ($i !== null && $i[0] === $master) $out[] = $pid;
    }
    return $out;
}

$t0 = hrtime(true);
$deadline = $t0 + (int) ($seconds * 1e9);
$kills = 0;
$by_what = ['idle' => 0, 'busy' => 0, 'gone' => 0];
// accept / accept4 system call numbers
$accept_nr = php_uname('m') === 'aarch64' ? ['202', '242'] : ['43', '288'];
$kids = [];
$kids_at = 0;
$ln_min = log($min_us);
$ln_max = log($max_us);

while ($kills < $max_kills) {
    $delay = (int) exp($ln_min + ($ln_max - $ln_min) * mt_rand() / mt_getrandmax());
    $left = intdiv($deadline - hrtime(true), 1000);
    if ($left <= $delay) break;
    usleep($delay);
    if (!proc_info($master)) {
        fwrite(STDERR, "killer.php: the fpm master $master is gone\n");
        break;
    }
    // The list of children is refreshed every 20 ms or when it ran dry.
    if (!$kids || hrtime(true) - $kids_at > 20000000) {
        $kids = children($master);
        $kids_at = hrtime(true);
        if (!$kids) continue;
    }
    $k = mt_rand(0, count($kids) - 1);
    $pid = $kids[$k];
    array_splice($kids, $k, 1);
    $i = proc_info($pid);
    if ($i === null || $i[0] !== $master || strncmp($i[2], 'php-fpm', 7) !== 0) continue;
    $sc = @file_get_contents("/proc/$pid/syscall");
    if (!posix_kill($pid, 9)) continue;
    $kills++;
    $nr = $sc === false ? '' : strtok($sc, " \n");
    $what = ($sc === false || $i[1] === 'Z') ? 'gone' : (in_array($nr, $accept_nr, true) ? 'idle' : 'busy');
    $by_what[$what]++;
    if ($log) fprintf($log, "%.6f %d %s %s\n", (hrtime(true) - $t0) / 1e9, $pid, $what, $nr);
}
if ($log) fclose($log);
printf("kills=%d idle=%d busy=%d gone=%d seed=%d\n", $kills, $by_what['idle'], $by_what['busy'],
       $by_what['gone'], $seed);
