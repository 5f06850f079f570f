<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests\Support;

use Shardcache\NearCache;
use Shardcache\NearCache\Layout;
use Shardcache\NearCache\ClusterSync;
use Shardcache\NearCache\Sync;

/** A Sync process forked from the PHPUnit process: it shares this process's (anonymous) segment. */
final class ForkedSync
{
    private int $pid;

    /** @param int|string $redisPort a port, or "cluster:HOST:PORT,..." (a ClusterSync) */
    public function __construct(int|string $redisPort, string $namespace)
    {
        $pid = pcntl_fork();
        if ($pid === 0) {
            @proc_nice(-5);
            $sync = is_string($redisPort)
                ? new ClusterSync(explode(',', substr($redisPort, 8)), $namespace, ['interval_ms' => 20])
                : new Sync('127.0.0.1', $redisPort, $namespace, ['interval_ms' => 20]);
            pcntl_async_signals(true);
            pcntl_signal(SIGTERM, static fn () => $sync->stop());
            $sync->run();
            posix_kill(posix_getpid(), SIGKILL);   // never run PHPUnit's shutdown in the child
        }
        $this->pid = $pid;
    }

    /** Waits (at most $seconds) until $cache may use the local layer. */
    public static function waitUsable(NearCache $cache, float $seconds = 10): bool
    {
        $deadline = microtime(true) + $seconds;
        while ($cache->localGeneration() === null && microtime(true) < $deadline) {
            usleep(1000);
        }
        return $cache->localGeneration() !== null;
    }

    /**
     * Waits (at most $seconds) until the sync of $namespace published a
     * heartbeat sent after now: every write that returned before now has been
     * applied to the local layer (its invalidation cannot arrive later).
     */
    public static function waitCovered(string $namespace, float $seconds = 10): bool
    {
        $t = intdiv(hrtime(true), 1000000) + 1;
        $deadline = microtime(true) + $seconds;
        do {
            $st = Layout::readState($namespace);
            $ok = $st !== null && $st[1] >= $t;
        } while (!$ok && microtime(true) < $deadline && usleep(500) === null);
        return $ok;
    }

    public function stop(): void
    {
        if ($this->pid > 0) {
            posix_kill($this->pid, SIGTERM);
            pcntl_waitpid($this->pid, $st);
            $this->pid = 0;
        }
    }

    public function __destruct()
    {
        $this->stop();
    }
}
