<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests\Support;

/** A private redis-server on 127.0.0.1 and a free port, no persistence. */
final class RedisServer
{
    /** @var resource|null */
    private $proc = null;
    public int $port;
    private string $dir;

    public function __construct()
    {
        $this->dir = sys_get_temp_dir() . '/nearcache-redis-' . getmypid() . '-' . bin2hex(random_bytes(3));
        @mkdir($this->dir);
        $this->port = self::freePort();
        $this->start();
    }

    public static function freePort(): int
    {
        $s = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
        $name = stream_socket_get_name($s, false);
        fclose($s);
        return (int) substr($name, strrpos($name, ':') + 1);
    }

    /** Starts the server (again) on $this->port and waits until it answers. */
    public function start(): void
    {
        $bin = getenv('REDIS_SERVER') ?: 'redis-server';
        $cmd = [$bin, '--port', (string) $this->port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
            '--dir', $this->dir, '--logfile', $this->dir . '/redis.log', '--daemonize', 'no'];
        $this->proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $deadline = microtime(true) + 10;
        while (microtime(true) < $deadline) {
            try {
                $r = new \Redis();
                if (@$r->connect('127.0.0.1', $this->port, 0.2) && $r->ping()) {
                    $r->close();
                    return;
                }
            } catch (\RedisException) {
            }
            usleep(20000);
        }
        throw new \RuntimeException("redis-server did not start on port {$this->port}: " . @file_get_contents($this->dir . '/redis.log'));
    }

    /** SIGSTOP (a hung server: connections stay open, nothing answers); returns once it is stopped. */
    public function pause(): void
    {
        $pid = $this->pid();
        posix_kill($pid, SIGSTOP);
        $deadline = microtime(true) + 5;
        while (self::state($pid) !== 'T' && microtime(true) < $deadline) {
            usleep(1000);
        }
        if (self::state($pid) !== 'T') {
            throw new \RuntimeException("redis-server $pid did not stop");
        }
    }

    public function resume(): void
    {
        posix_kill($this->pid(), SIGCONT);
    }

    private function pid(): int
    {
        if ($this->proc === null) {
            throw new \RuntimeException('redis-server is not running');
        }
        return proc_get_status($this->proc)['pid'];
    }

    /** The state letter of /proc/PID/stat (R, S, T, ...). */
    private static function state(int $pid): string
    {
        $s = (string) @file_get_contents("/proc/$pid/stat");
        $p = strrpos($s, ')');
        return $p === false ? '' : substr($s, $p + 2, 1);
    }

    public function kill(): void
    {
        if ($this->proc !== null) {
            proc_terminate($this->proc, SIGKILL);
            proc_close($this->proc);
            $this->proc = null;
        }
    }

    public function client(): \Redis
    {
        $r = new \Redis();
        $r->connect('127.0.0.1', $this->port, 1.0);
        return $r;
    }

    public function __destruct()
    {
        $this->kill();
        @array_map('unlink', glob($this->dir . '/*') ?: []);
        @rmdir($this->dir);
    }
}
