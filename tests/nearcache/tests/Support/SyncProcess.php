<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests\Support;

/** bin/shardcache-sync as a process of its own (named segments). */
final class SyncProcess
{
    /** @var resource|null */
    private $proc = null;

    /**
     * @param int|string $redisPort a port, or "cluster:HOST:PORT,..." (--cluster=)
     * @param list<string> $phpArgs extra PHP options (-d shardcache.segment=...)
     */
    public function __construct(private int|string $redisPort, private string $namespace, private array $phpArgs)
    {
        $this->start();
    }

    public function start(): void
    {
        $cmd = array_merge([PHP_BINARY], Php::args(), $this->phpArgs, [
            dirname(__DIR__, 4) . '/nearcache/bin/shardcache-sync',
            '--namespace=' . $this->namespace,
            is_string($this->redisPort) ? '--cluster=' . substr($this->redisPort, 8) : '--port=' . $this->redisPort,
            '--interval-ms=20', '--dead-after-ms=300', '--timeout=0.5', '--quiet',
        ]);
        $this->proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => STDERR, 2 => STDERR], $pipes);
    }

    /** SIGKILL (true) or SIGTERM (false), then reap. Returns the exit status. */
    public function stop(bool $kill): int
    {
        if ($this->proc === null) {
            return -1;
        }
        proc_terminate($this->proc, $kill ? SIGKILL : SIGTERM);
        $deadline = microtime(true) + 10;
        do {
            $st = proc_get_status($this->proc);
        } while ($st['running'] && microtime(true) < $deadline && usleep(5000) === null);
        proc_close($this->proc);
        $this->proc = null;
        return $st['running'] ? -1 : ($st['signaled'] ? 128 + $st['termsig'] : $st['exitcode']);
    }

    public function __destruct()
    {
        $this->stop(false);
    }
}
