--TEST--
shardcache.isolation=user: a stale fair-share estimate evicts in its own shard
--DESCRIPTION--
A store that took an estimate of the users' bytes (sc_fair_refresh) evicts
with it in its own shard even if it is no longer fresh by then (its process
descheduled past SC_FAIR_FRESH; gdb marks it stale right after the survey).
There is no expunge across the cache.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork') || !function_exists('posix_setuid')) die('skip pcntl and posix needed');
if (!function_exists('stream_socket_pair') || !function_exists('proc_open')) die('skip socket pairs and proc_open needed');
if (posix_geteuid() !== 0) die('skip needs root (setuid to other users)');
if (getenv('SHARDCACHE_VALGRIND')) die('skip gdb attaches to a child');
if (trim((string)shell_exec('command -v gdb 2>/dev/null')) === '') die('skip no gdb');
?>
--EXTENSIONS--
posix
--INI--
apc.enable_cli=1
apc.shm_size=8M
--FILE--
<?php
require __DIR__ . '/../lib/isolation.inc';

function value(int $i): string
{
    return str_pad("v-$i-", 1000, chr(97 + $i % 26));
}
function expunges(): int
{
    return apcu_cache_info(true)['expunges'];
}

[$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
foreach ([$mine, $theirs] as $s) {
    stream_set_timeout($s, -1);
}
$p = pcntl_fork();
if ($p === 0) {
    /* The user: fills the segment about three times over (its stores
     * evict its own entries in their shards), then waits; gdb is attached
     * meanwhile. Then more stores, one of which surveys and is held. */
    fclose($mine);
    posix_setegid(ISO_B);
    posix_seteuid(ISO_B);
    $ok = 0;
    for ($i = 0; $i < 24000; $i++) {
        $ok += apcu_store("k$i", value($i)) ? 1 : 0;
    }
    fwrite($theirs, sprintf("filled: %s\n", $ok === 24000 ? 'yes' : "no ($ok stored)"));
    fgets($theirs);                                     // "go": gdb is attached
    $ok = 0;
    for ($i = 24000; $i < 27000; $i++) {
        $ok += apcu_store("k$i", value($i)) && apcu_fetch("k$i") === value($i) ? 1 : 0;
    }
    fwrite($theirs, sprintf("late stores: %d/3000 read back\n", $ok));
    posix_seteuid(0);
    posix_setegid(0);
    exit(0);
}
fclose($theirs);
/* Expunges are read by root: a tenant reads none (figures of the whole
 * segment that other users' stores move, php/info.c). */
echo trim(fgets($mine)), ', expunges: ', expunges(), "\n";
$before = expunges();

/* gdb: the estimate is made stale (when = 0: as after a clear), so the
 * next store that must evict surveys (sc_fair_refresh); right after that
 * survey the estimate is made stale again, as if the process had waited
 * more than SC_FAIR_FRESH seconds for a CPU before it looked again. */
$cmd = tempnam(sys_get_temp_dir(), 'scgdb');
file_put_contents($cmd, implode("\n", [
    'set var php_sc_shared_cache.seg.hdr->fair.when = 0',
    'break sc_fair_refresh',
    'echo READY\n',
    'continue',
    'finish',
    'set var php_sc_shared_cache.seg.hdr->fair.when = 0',
    'echo STALE\n',
    'detach',
    '',
]));
$gdb = proc_open("env -u LD_PRELOAD gdb -p $p -batch -nx -x " . escapeshellarg($cmd) . ' 2>&1', [1 => ['pipe', 'w']], $pipes);
$log = '';
while (($l = fgets($pipes[1])) !== false && trim($l) !== 'READY') {
    $log .= $l;
}
fwrite($mine, "go\n");
$log .= stream_get_contents($pipes[1]);                 // to its end: gdb detached (or failed)
proc_close($gdb);
unlink($cmd);
echo "made stale right after the store's survey: ",
     preg_match('/Breakpoint 1, .*sc_fair_refresh.*^sc_cache_store \(.*^STALE$/ms', $log) ? 'yes' : "no\n$log", "\n";
echo trim(fgets($mine)), ', expunges meanwhile: ', expunges() - $before, "\n";
pcntl_waitpid($p, $st);
echo "user exit: ", pcntl_wifexited($st) ? pcntl_wexitstatus($st) : 'signal ' . pcntl_wtermsig($st), "\n";
?>
--EXPECT--
filled: yes, expunges: 0
made stale right after the store's survey: yes
late stores: 3000/3000 read back, expunges meanwhile: 0
user exit: 0
