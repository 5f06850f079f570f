<?php
// One simulated "host" for the NearCache tests: this process owns a shardcache
// segment (anonymous: created at startup, shared with the children it forks),
// forks its sync process and worker processes, and executes commands read as
// JSON lines on stdin, answering one JSON line each on stdout.
//
//   php -n -d extension=shardcache.so -d apc.enable_cli=1 ... host.php REDIS_PORT NAMESPACE
//   ... host.php cluster:HOST:PORT,HOST:PORT... NAMESPACE    (a Redis Cluster: its seeds;
//                                  the connections are \RedisCluster, the sync a ClusterSync)
//
// Commands ({"op": ...}):
//   sync-start                     fork the sync process (Shardcache\NearCache\Sync)
//   sync-kill / sync-stop          SIGKILL / SIGTERM it and reap it
//   sync-pause / sync-resume       SIGSTOP / SIGCONT it (a hung sync)
//   state                          {"gen","hb"}: the sync's published state
//   reconnect                      drop this process's connections (new ones at the next use)
//   wait-local {"usable":bool, "timeout_ms"}   until the local layer is (not) usable
//   wait-heartbeat {"after_ms"}    until the sync published a heartbeat sent after
//                                  after_ms (hrtime ms): every write Redis executed
//                                  before after_ms has been applied here
//   get {"key"}                    {"value", "redis_reads"} (redis_reads: Redis
//                                  reads this call made; 0 = local hit)
//   set {"key","value","wait"?}    {"ok", "done_ns"}: hrtime when set() returned;
//                                  with wait (a cluster): then WAIT 1 wait ms on the
//                                  key's master; done_ns after it, "replicated": its answer
//   delete {"key"}
//   await {"key","old","new","timeout_ms"}  get() in a loop until it returns new;
//                                  every value read must be old or new, and none
//                                  old after the first new; {"seen_ns","reads","bad"}
//   stress-read {"key","workers","ms"}  forked workers get() in a loop; for each
//                                  value read (JSON), the latest heartbeat (ms) read
//                                  just before a get() that returned it
//   race-read {"key"}              fork a worker whose get() stops right after its
//                                  Redis read; answers when it is stopped there
//   race-release                   let that worker install its copy; its result
//   remember-workers {"key","workers","ttl","compute_ms","start_at_ms","counter",
//                  "beta"?,"options"?,"extend_every_ms"?}  forked workers wait until start_at_ms (hrtime
//                                  ms), then remember(); the callback INCRs the Redis
//                                  key counter, takes compute_ms (extending its lease
//                                  every extend_every_ms), returns "v:PID";
//                                  {"results": [{"value","computed","ms"}]}
//   remember-hold {"key","counter","options"}  fork a worker whose remember()
//                                  callback INCRs counter, then blocks for good;
//                                  answers {"pid"} once it is computing
//   kill-pid {"pid"}               SIGKILL and reap it
//   remember-gate {"name","key","source","ttl"?,"beta"? (a number or "INF"),"options"?}  fork a worker whose
//                                  remember() callback reads the Redis key source,
//                                  reports it and blocks until remember-release;
//                                  returns "price=" . source. Answers {"computing":
//                                  true, "source"} once the callback read it ({"computing":
//                                  false, "value"} if remember() returned without computing)
//   remember-release {"name"}      unblock that callback; {"value"} remember() returned
//   remember {"key","source","options"?}  remember() here, the callback returns
//                                  "price=" . the Redis key source; {"value","computed"}
//   remember-loop {"key","n","ttl","compute_ms","beta","counter"}  remember() n
//                                  times here; {"pttls": PTTL of the key at each
//                                  computation (-2: missing), "values"}
//   quit
declare(strict_types=1);

require __DIR__ . '/vendor/autoload.php';

use Shardcache\NearCache;
use Shardcache\NearCache\ClusterSync;
use Shardcache\NearCache\Sync;

[, $port, $ns] = $argv;
$seeds = str_starts_with($port, 'cluster:') ? explode(',', substr($port, 8)) : null;
$port = (int) $port;

/** NearCache that counts Redis reads and can stop between a Redis read and the install. */
final class ProbedNearCache extends NearCache
{
    public int $redisReads = 0;
    /** @var null|callable(array):void */
    public $pause = null;

    protected function afterRedisRead(array $keys): void
    {
        $this->redisReads++;
        if ($this->pause !== null) {
            ($this->pause)($keys);
        }
    }
}

function out(array $a): void
{
    fwrite(STDOUT, json_encode($a) . "\n");
}

function connect(int $port): Redis|RedisCluster
{
    global $seeds;
    if ($seeds !== null) {
        return new RedisCluster(null, $seeds, 1.0, 1.0);
    }
    $r = new Redis();
    $r->connect('127.0.0.1', $port, 1.0);
    $r->setOption(Redis::OPT_READ_TIMEOUT, 1.0);
    return $r;
}

/** A child must not run this process's shutdown (PHPUnit, sockets): it ends by SIGKILL. */
function child_exit(): never
{
    posix_kill(posix_getpid(), SIGKILL);
    exit(0);
}

$cache = null;
function cache(): ProbedNearCache
{
    global $cache, $port, $ns;
    if ($cache === null) {
        $cache = new ProbedNearCache(connect($port), $ns, ['reconnect_ms' => 50]);
    }
    return $cache;
}

$syncPid = 0;
$waiter = null;     // set's WAIT connection
$race = null;       // [pid, toChild, fromChild]
$gates = [];        // remember-gate: name => [pid, socket]

while (($line = fgets(STDIN)) !== false) {
    $cmd = json_decode($line, true);
    $op = $cmd['op'] ?? '';
    try {
        switch ($op) {
            case 'sync-start':
                $pid = pcntl_fork();
                if ($pid === 0) {
                    fclose(STDIN);
                    // As the systemd unit does (Nice=-5): on a loaded test machine
                    // a starved sync would make the local layer unusable.
                    @proc_nice(-5);
                    $opts = ['interval_ms' => 20, 'dead_after_ms' => 300, 'timeout' => 0.5];
                    if (getenv('NEARCACHE_SYNC_LOG')) {     // debugging: the sync's log on stderr
                        $opts['log'] = static fn (string $m) => fwrite(STDERR, sprintf("%.3f %d %s\n", microtime(true), getmypid(), $m));
                    }
                    $sync = $seeds !== null ? new ClusterSync($seeds, $ns, $opts) : new Sync('127.0.0.1', $port, $ns, $opts);
                    pcntl_async_signals(true);
                    pcntl_signal(SIGTERM, static fn () => $sync->stop());
                    $sync->run();
                    child_exit();
                }
                $syncPid = $pid;
                out(['pid' => $pid]);
                break;
            case 'sync-kill':
            case 'sync-stop':
                posix_kill($syncPid, $op === 'sync-kill' ? SIGKILL : SIGTERM);
                pcntl_waitpid($syncPid, $st);
                $syncPid = 0;
                out(['ok' => true]);
                break;
            case 'sync-pause':
            case 'sync-resume':
                posix_kill($syncPid, $op === 'sync-pause' ? SIGSTOP : SIGCONT);
                out(['ok' => true]);
                break;
            case 'state':
                $st = Shardcache\NearCache\Layout::readState($ns);
                out(['gen' => $st[0] ?? null, 'hb' => $st[1] ?? null]);
                break;
            case 'reconnect':
                // New connections (a \RedisCluster maps the slots afresh).
                $cache = null;
                $waiter = null;
                out(['ok' => true]);
                break;
            case 'wait-local':
                $deadline = hrtime(true) + $cmd['timeout_ms'] * 1000000;
                while ((cache()->localGeneration() !== null) !== $cmd['usable'] && hrtime(true) < $deadline) {
                    usleep(1000);
                }
                out(['ok' => (cache()->localGeneration() !== null) === $cmd['usable']]);
                break;
            case 'wait-heartbeat':
                $deadline = hrtime(true) + ($cmd['timeout_ms'] ?? 5000) * 1000000;
                do {
                    $st = Shardcache\NearCache\Layout::readState($ns);
                    $ok = $st !== null && $st[1] >= $cmd['after_ms'];
                } while (!$ok && hrtime(true) < $deadline && usleep(500) === null);
                out(['ok' => $ok]);
                break;
            case 'get':
                $before = cache()->redisReads;
                $v = cache()->get($cmd['key'], $cmd['default'] ?? null);
                out(['value' => $v, 'redis_reads' => cache()->redisReads - $before]);
                break;
            case 'set':
                $ok = cache()->set($cmd['key'], $cmd['value'], $cmd['ttl'] ?? null);
                if (isset($cmd['wait'])) {
                    $waiter ??= connect($port);
                    try {
                        $n = $ok ? $waiter->rawCommand($ns . ':' . $cmd['key'], 'WAIT', '1', (string) $cmd['wait']) : 0;
                    } catch (Throwable) {
                        $n = 0;
                    }
                    out(['ok' => $ok, 'done_ns' => hrtime(true), 'replicated' => $n]);
                    break;
                }
                out(['ok' => $ok, 'done_ns' => hrtime(true)]);
                break;
            case 'delete':
                out(['ok' => cache()->delete($cmd['key'])]);
                break;
            case 'await':
                $c = cache();
                $deadline = hrtime(true) + $cmd['timeout_ms'] * 1000000;
                $reads = 0;
                $bad = [];
                $seen = 0;
                $extra = 0;
                while (true) {
                    $v = $c->get($cmd['key']);
                    $now = hrtime(true);
                    $reads++;
                    if ($seen === 0) {
                        if ($v === $cmd['new']) {
                            $seen = $now;
                        } elseif ($v !== $cmd['old']) {
                            $bad[] = $v;
                        }
                    } elseif ($v !== $cmd['new']) {
                        $bad[] = $v;      // old again after new: stale
                    }
                    // After the first new value, 50 more reads must all be new.
                    if ($seen !== 0 && ++$extra > 50) {
                        break;
                    }
                    if ($now > $deadline || count($bad) > 10) {
                        break;
                    }
                }
                out(['seen_ns' => $seen, 'reads' => $reads, 'bad' => $bad]);
                break;
            case 'stress-read':
                // Workers read one key in a loop; per value read, the latest
                // heartbeat seen just before a read that returned it.
                $socks = [];
                $pids = [];
                for ($w = 0; $w < $cmd['workers']; $w++) {
                    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
                    $pid = pcntl_fork();
                    if ($pid === 0) {
                        fclose(STDIN);
                        $c = new ProbedNearCache(connect($port), $ns);
                        $maxHb = [];
                        $reads = 0;
                        $deadline = hrtime(true) + $cmd['ms'] * 1000000;
                        while (hrtime(true) < $deadline) {
                            $st = Shardcache\NearCache\Layout::readState($ns);
                            $hb = $st === null ? 0 : $st[1];
                            $v = $c->get($cmd['key']);
                            $k = json_encode($v);
                            $maxHb[$k] = max($maxHb[$k] ?? 0, $hb);
                            $reads++;
                        }
                        fwrite($pair[1], json_encode(['max_hb' => $maxHb, 'reads' => $reads, 'redis_reads' => $c->redisReads]) . "\n");
                        child_exit();
                    }
                    $pids[] = $pid;
                    $socks[] = $pair[0];
                }
                $res = ['max_hb' => [], 'reads' => 0, 'redis_reads' => 0];
                foreach ($socks as $i => $sock) {
                    $r = json_decode((string) fgets($sock), true);
                    pcntl_waitpid($pids[$i], $st);
                    foreach ($r['max_hb'] as $k => $hb) {
                        $res['max_hb'][$k] = max($res['max_hb'][$k] ?? 0, $hb);
                    }
                    $res['reads'] += $r['reads'];
                    $res['redis_reads'] += $r['redis_reads'];
                }
                out($res);
                break;
            case 'race-read':
                $toChild = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
                $pid = pcntl_fork();
                if ($pid === 0) {
                    fclose(STDIN);
                    $c = new ProbedNearCache(connect($port), $ns);
                    $sock = $toChild[1];
                    $c->pause = static function (array $keys) use ($sock): void {
                        fwrite($sock, "R\n");          // stopped after the Redis read
                        fgets($sock);                  // until the test releases it
                    };
                    $v = $c->get($cmd['key']);
                    fwrite($sock, json_encode(['value' => $v, 'redis_reads' => $c->redisReads]) . "\n");
                    child_exit();
                }
                $line = fgets($toChild[0]);
                $race = [$pid, $toChild[0]];
                out(['stopped' => $line === "R\n"]);
                break;
            case 'race-release':
                [$pid, $sock] = $race;
                fwrite($sock, "go\n");
                $res = json_decode((string) fgets($sock), true);
                pcntl_waitpid($pid, $st);
                $race = null;
                out($res ?? ['error' => 'worker gave no result']);
                break;
            case 'remember-workers':
                $socks = [];
                $pids = [];
                for ($w = 0; $w < $cmd['workers']; $w++) {
                    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
                    $pid = pcntl_fork();
                    if ($pid === 0) {
                        fclose(STDIN);
                        $c = new ProbedNearCache(connect($port), $ns, $cmd['options'] ?? []);
                        $counter = connect($port);
                        while (intdiv(hrtime(true), 1000000) < $cmd['start_at_ms']) {
                            usleep(200);
                        }
                        $t0 = hrtime(true);
                        $computed = false;
                        $v = $c->remember($cmd['key'], $cmd['ttl'], static function () use ($c, $counter, $cmd, &$computed) {
                            $computed = true;
                            $counter->incr($cmd['counter']);
                            // The computation's cost; with extend_every_ms, the lease is
                            // extended at that pace (its safe points).
                            $step = $cmd['extend_every_ms'] ?? $cmd['compute_ms'];
                            for ($left = $cmd['compute_ms']; $left > 0; $left -= $step) {
                                usleep(1000 * min($step, $left));
                                if (isset($cmd['extend_every_ms']) && !$c->extendLease($cmd['key'])) {
                                    throw new RuntimeException('lease lost');
                                }
                            }
                            return 'v:' . getmypid();
                        }, (float) ($cmd['beta'] ?? 1.0));
                        fwrite($pair[1], json_encode(['value' => $v, 'computed' => $computed,
                            'ms' => (hrtime(true) - $t0) / 1e6]) . "\n");
                        child_exit();
                    }
                    $pids[] = $pid;
                    $socks[] = $pair[0];
                }
                $results = [];
                foreach ($socks as $i => $sock) {
                    $results[] = json_decode((string) fgets($sock), true);
                    pcntl_waitpid($pids[$i], $st);
                }
                out(['results' => $results]);
                break;
            case 'remember-hold':
                $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
                $pid = pcntl_fork();
                if ($pid === 0) {
                    fclose(STDIN);
                    $c = new ProbedNearCache(connect($port), $ns, $cmd['options'] ?? []);
                    $counter = connect($port);
                    $c->remember($cmd['key'], 60, static function () use ($counter, $cmd, $pair) {
                        $counter->incr($cmd['counter']);
                        fwrite($pair[1], "C\n");
                        fgets($pair[1]);            // never answered: killed here
                        return 'holder';
                    });
                    child_exit();
                }
                out(['pid' => $pid, 'computing' => fgets($pair[0]) === "C\n"]);
                break;
            case 'kill-pid':
                posix_kill($cmd['pid'], SIGKILL);
                pcntl_waitpid($cmd['pid'], $st);
                out(['ok' => true]);
                break;
            case 'remember-gate':
                $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
                $pid = pcntl_fork();
                if ($pid === 0) {
                    fclose(STDIN);
                    $c = new ProbedNearCache(connect($port), $ns, $cmd['options'] ?? []);
                    $src = connect($port);
                    $sock = $pair[1];
                    $v = $c->remember($cmd['key'], $cmd['ttl'] ?? null, static function () use ($src, $cmd, $sock) {
                        $s = $src->get($cmd['source']);
                        fwrite($sock, json_encode(['source' => $s]) . "\n");
                        fgets($sock);                  // until remember-release
                        return 'price=' . $s;
                    }, ($cmd['beta'] ?? 1.0) === 'INF' ? INF : (float) ($cmd['beta'] ?? 1.0));
                    fwrite($sock, json_encode(['value' => $v]) . "\n");
                    child_exit();
                }
                $r = json_decode((string) fgets($pair[0]), true);
                if (is_array($r) && array_key_exists('source', $r)) {
                    $gates[$cmd['name']] = [$pid, $pair[0]];
                    out(['computing' => true, 'source' => $r['source']]);
                } else {
                    pcntl_waitpid($pid, $st);
                    out(['computing' => false, 'value' => $r['value'] ?? null]);
                }
                break;
            case 'remember-release':
                [$pid, $sock] = $gates[$cmd['name']];
                unset($gates[$cmd['name']]);
                fwrite($sock, "go\n");
                $r = json_decode((string) fgets($sock), true);
                pcntl_waitpid($pid, $st);
                out(is_array($r) ? $r : ['error' => 'worker gave no result']);
                break;
            case 'remember':
                $c = new ProbedNearCache(connect($port), $ns, $cmd['options'] ?? []);
                $src = connect($port);
                $computed = false;
                $v = $c->remember($cmd['key'], $cmd['ttl'] ?? null, static function () use ($src, $cmd, &$computed) {
                    $computed = true;
                    return 'price=' . $src->get($cmd['source']);
                });
                out(['value' => $v, 'computed' => $computed]);
                break;
            case 'remember-loop':
                $c = cache();
                $probe = connect($port);
                $pttls = [];
                $values = [];
                for ($i = 0; $i < $cmd['n']; $i++) {
                    $values[] = $c->remember($cmd['key'], $cmd['ttl'], static function () use ($probe, $cmd, $ns, &$pttls, $i) {
                        $pttls[] = $probe->pttl($ns . ':' . $cmd['key']);
                        $probe->incr($cmd['counter']);
                        usleep(1000 * $cmd['compute_ms']);
                        return "v$i";
                    }, (float) $cmd['beta']);
                }
                out(['pttls' => $pttls, 'values' => $values, 'redis_reads' => $c->redisReads]);
                break;
            case 'quit':
                if ($syncPid) {
                    posix_kill($syncPid, SIGTERM);
                    pcntl_waitpid($syncPid, $st);
                }
                out(['ok' => true]);
                exit(0);
            default:
                out(['error' => "unknown op $op"]);
        }
    } catch (Throwable $e) {
        out(['error' => get_class($e) . ': ' . $e->getMessage()]);
    }
}
if ($syncPid) {
    posix_kill($syncPid, SIGTERM);
    pcntl_waitpid($syncPid, $st);
}
