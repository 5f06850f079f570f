--TEST--
Zero-copy: memory held by a killed holder comes back through its liveness slot
--DESCRIPTION--
Memory retired while a live process holds a value stays retired (a clear
keeps it). Once the holder is killed (SIGKILL), its epoch is released
through its liveness slot and the memory comes back, by a clear and by
ordinary reclamation.
--SKIPIF--
<?php
if (!function_exists('shardcache_info')) die('skip shardcache only');
if (!function_exists('pcntl_fork') || !function_exists('exec')) die('skip pcntl or exec not available');
if (!function_exists('stream_socket_pair')) die('skip no socket pairs');
if (getenv('SHARDCACHE_VALGRIND') && !getenv('SHARDCACHE_VALGRIND_FORK')) die('skip under valgrind: memcheck cannot see writes made by other processes to shared memory');
?>
--INI--
apc.enable_cli=1
apc.shm_size=16M
shardcache.zero_copy=1
--FILE--
<?php
function zc() { return shardcache_info()['zero_copy']; }
function value(int $v): array { return ['v' => $v, 'rows' => array_fill(0, 50, str_repeat(chr(65 + $v % 26), 80))]; }

/* Round 1: a holder is killed, then a clear. Round 2: a holder is killed,
 * then retirements go on until a scan has run. */
foreach ([1, 2] as $round) {
    apcu_store('a', value(0));
    [$mine, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    stream_set_timeout($mine, 3600);     /* valgrind runs are slow: no 60 s default timeout */
    stream_set_timeout($theirs, 3600);
    $pid = pcntl_fork();
    if ($pid === 0) {
        fclose($mine);
        $held = apcu_fetch('a');
        fwrite($theirs, $held === value(0) ? 'R' : 'X');
        fread($theirs, 1);   /* never answered: killed while holding */
        exit(0);
    }
    fclose($theirs);
    echo "round $round: holder ready: ", fread($mine, 1), "\n";
    /* A short string (copying) over the held array: the array's entry is
     * unlinked while the holder is inside, so it is retired. */
    apcu_store('a', 'short');
    $z = zc();
    echo "  retired after an overwrite: ", $z['retired_bytes'] > 0 ? 'yes' : 'no', "\n";
    if ($round === 1) {
        apcu_clear_cache();
        echo "  clear while held keeps it: ", zc()['retired_bytes'] > 0 ? 'yes' : 'no', "\n";
    }
    exec('kill -KILL ' . $pid);
    pcntl_waitpid($pid, $st);
    echo "  holder killed: ", pcntl_wifsignaled($st) && pcntl_wtermsig($st) === SIGKILL ? 'yes' : 'no', "\n";
    if ($round === 1) {
        apcu_clear_cache();
        echo "  after a clear: retired bytes ", zc()['retired_bytes'], "\n";
    } else {
        /* 300 overwrites of the key: with the holder gone, the first one
         * that unlinks a zero-copy entry finds nobody inside and frees
         * what was retired; a holder still counted would keep it (its
         * epoch is older than every retirement). */
        $before = zc()['reclaimed'];
        for ($i = 1; $i <= 300; $i++) {
            apcu_store('a', value($i));
        }
        $z = zc();
        echo "  reclaimed by overwrites: ", $z['reclaimed'] - $before > 0 ? 'yes' : 'no', "\n";
        var_dump(apcu_fetch('a') === value(300));
    }
}
?>
--EXPECT--
round 1: holder ready: R
  retired after an overwrite: yes
  clear while held keeps it: yes
  holder killed: yes
  after a clear: retired bytes 0
round 2: holder ready: R
  retired after an overwrite: yes
  holder killed: yes
  reclaimed by overwrites: yes
bool(true)
