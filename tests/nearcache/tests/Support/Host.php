<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests\Support;

/** Drives one host.php process (a simulated host with its own segment). */
final class Host
{
    /** @var resource */
    private $proc;
    /** @var array<int, resource> */
    private array $pipes = [];

    /**
     * @param int|string $redisPort a port, or "cluster:HOST:PORT,..." (host.php)
     * @param list<string> $phpArgs extra PHP options (e.g. -d shardcache.segment=...)
     */
    public function __construct(int|string $redisPort, string $namespace, array $phpArgs = [])
    {
        $cmd = array_merge([PHP_BINARY], Php::args(), $phpArgs, [dirname(__DIR__, 2) . '/host.php', (string) $redisPort, $namespace]);
        $this->proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], $this->pipes);
        if (!is_resource($this->proc)) {
            throw new \RuntimeException('cannot start host.php');
        }
    }

    /** Sends a command and returns its answer. */
    public function __invoke(string $op, array $args = []): array
    {
        $this->send($op, $args);
        return $this->receive($op);
    }

    /** Sends a command without waiting for its answer (then receive()). */
    public function send(string $op, array $args = []): void
    {
        fwrite($this->pipes[0], json_encode(['op' => $op] + $args) . "\n");
    }

    public function receive(string $op = 'command'): array
    {
        $line = fgets($this->pipes[1]);
        if ($line === false) {
            throw new \RuntimeException("host.php died during $op");
        }
        $r = json_decode($line, true);
        if (isset($r['error'])) {
            throw new \RuntimeException("host.php $op: {$r['error']}");
        }
        return $r;
    }

    public function close(): void
    {
        if (is_resource($this->proc)) {
            try {
                $this('quit');
            } catch (\Throwable) {
            }
            fclose($this->pipes[0]);
            fclose($this->pipes[1]);
            proc_close($this->proc);
        }
    }

    public function __destruct()
    {
        $this->close();
    }
}
