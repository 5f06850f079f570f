<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests\Support;

/**
 * A private Redis Cluster on 127.0.0.1: six redis-server processes in
 * cluster mode (free ports whose bus port, +10000, is free too), made three
 * masters with one replica each by `redis-cli --cluster create`. Node
 * timeout 1000 ms, so that a replica takes over about 2 s after its master
 * died; replicas sync at once (no diskless delay) and may always take over
 * (validity factor 0). No persistence.
 */
final class ClusterServers
{
    /** @var array<int, resource> port => process */
    private array $procs = [];
    /** @var list<int> */
    public array $ports = [];
    private string $dir;

    public function __construct(int $nodes = 6)
    {
        $this->dir = sys_get_temp_dir() . '/nearcache-cluster-' . getmypid() . '-' . bin2hex(random_bytes(3));
        @mkdir($this->dir);
        while (count($this->ports) < $nodes) {
            $this->startFreeNode();
        }
        $cmd = array_merge(['redis-cli', '--cluster', 'create'], array_map(static fn ($p) => "127.0.0.1:$p", $this->ports),
            ['--cluster-replicas', '1', '--cluster-yes']);
        $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        if (proc_close($proc) !== 0) {
            throw new \RuntimeException("redis-cli --cluster create failed:\n$out");
        }
        $this->waitConverged();
    }

    private static function free(int $port): bool
    {
        $s = @stream_socket_server("tcp://127.0.0.1:$port", $errno, $errstr);
        if ($s === false) {
            return false;
        }
        fclose($s);
        return true;
    }

    /**
     * Starts a node on a free port whose bus port (+10000) is free too;
     * another port if either was taken meanwhile (the bus connections of
     * the running nodes use ephemeral ports). Returns the port.
     */
    private function startFreeNode(): int
    {
        for ($try = 0; $try < 20; $try++) {
            $p = RedisServer::freePort();
            if ($p >= 55000 || in_array($p, $this->ports, true) || !self::free($p + 10000)) {
                continue;
            }
            if ($this->startNode($p)) {
                $this->ports[] = $p;
                return $p;
            }
        }
        throw new \RuntimeException('no free port pair for a cluster node');
    }

    /** Starts the node on $port; false if its port or bus port was taken. */
    private function startNode(int $port): bool
    {
        $d = "{$this->dir}/$port";
        @mkdir($d);
        $bin = getenv('REDIS_SERVER') ?: 'redis-server';
        $cmd = [$bin, '--port', (string) $port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
            '--cluster-enabled', 'yes', '--cluster-config-file', "$d/nodes.conf", '--cluster-node-timeout', '1000',
            '--repl-diskless-sync-delay', '0', '--cluster-replica-validity-factor', '0',
            '--dir', $d, '--logfile', "$d/redis.log", '--daemonize', 'no'];
        $this->procs[$port] = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $deadline = microtime(true) + 10;
        while (microtime(true) < $deadline) {
            if (!proc_get_status($this->procs[$port])['running']) {
                $log = (string) @file_get_contents("$d/redis.log");
                proc_close($this->procs[$port]);
                unset($this->procs[$port]);
                if (str_contains($log, 'Address already in use')) {
                    @unlink("$d/redis.log");
                    @unlink("$d/nodes.conf");
                    @rmdir($d);
                    return false;
                }
                throw new \RuntimeException("redis-server exited on port $port: $log");
            }
            try {
                $r = new \Redis();
                if (@$r->connect('127.0.0.1', $port, 0.2) && $r->ping()) {
                    $r->close();
                    return true;
                }
            } catch (\RedisException) {
            }
            usleep(20000);
        }
        throw new \RuntimeException("redis-server did not start on port $port: " . @file_get_contents("$d/redis.log"));
    }

    /** "127.0.0.1:PORT" of every node started (dead ones too). */
    public function seeds(): array
    {
        return array_map(static fn ($p) => "127.0.0.1:$p", $this->ports);
    }

    public function node(int $port): \Redis
    {
        $r = new \Redis();
        $r->connect('127.0.0.1', $port, 1.0, null, 0, 1.0);
        return $r;
    }

    public function client(): \RedisCluster
    {
        return new \RedisCluster(null, $this->seeds(), 1.0, 1.0);
    }

    /** @return list<int> the ports of the running nodes */
    public function alive(): array
    {
        return array_keys($this->procs);
    }

    /**
     * The slot map every running node agrees on: port of each master =>
     * its slot ranges, once all of them answer the same full map and report
     * cluster_state:ok (at most $seconds), else an exception.
     *
     * @return array<int, list<array{0:int,1:int}>>
     */
    public function waitConverged(float $seconds = 20): array
    {
        $deadline = microtime(true) + $seconds;
        $why = '';
        do {
            $maps = [];
            try {
                foreach ($this->alive() as $p) {
                    $r = $this->node($p);
                    $info = (string) $r->rawCommand('CLUSTER', 'INFO');
                    if (!str_contains($info, 'cluster_state:ok')) {
                        throw new \RuntimeException("$p: not ok");
                    }
                    $m = [];
                    $n = 0;
                    foreach ($r->rawCommand('CLUSTER', 'SLOTS') as $row) {
                        $m[(int) $row[2][1]][] = [(int) $row[0], (int) $row[1]];
                        $n += $row[1] - $row[0] + 1;
                    }
                    $r->close();
                    ksort($m);
                    foreach ($m as &$rg) {
                        sort($rg);
                    }
                    unset($rg);
                    if ($n !== 16384) {
                        throw new \RuntimeException("$p: $n slots");
                    }
                    $maps[$p] = $m;
                }
                if (count(array_unique(array_map('serialize', $maps))) === 1) {
                    foreach ($this->alive() as $p) {
                        $repl = (string) $this->node($p)->rawCommand('INFO', 'replication');
                        if (str_contains($repl, 'role:slave') && !str_contains($repl, 'master_link_status:up')) {
                            throw new \RuntimeException("$p: replica not in sync");
                        }
                    }
                    return reset($maps);
                }
                $why = 'nodes disagree';
            } catch (\Throwable $e) {
                $why = $e->getMessage();
            }
            usleep(20000);
        } while (microtime(true) < $deadline);
        throw new \RuntimeException("the cluster did not converge: $why");
    }

    /**
     * Waits (at most $seconds) until the running nodes agree on a full slot
     * map without the master on $port (a replica took its slots over).
     *
     * @return array<int, list<array{0:int,1:int}>>
     */
    public function waitFailover(int $port, float $seconds = 20): array
    {
        $deadline = microtime(true) + $seconds;
        do {
            try {
                $m = $this->waitConverged(0.5);
                if (!isset($m[$port])) {
                    return $m;
                }
            } catch (\RuntimeException) {
            }
            usleep(50000);
        } while (microtime(true) < $deadline);
        throw new \RuntimeException("no replica took over from $port within $seconds s");
    }

    /**
     * Starts one more node, empty, and joins it to the cluster as a master
     * without slots (CLUSTER MEET); returns its port once every running node
     * knows it.
     */
    public function addNode(): int
    {
        $p = $this->startFreeNode();
        self::ok($this->node($p)->rawCommand('CLUSTER', 'MEET', '127.0.0.1', (string) $this->alive()[0]), 'CLUSTER MEET');
        $id = $this->id($p);
        $deadline = microtime(true) + 20;
        do {
            $known = 0;
            foreach ($this->alive() as $q) {
                $nodes = (string) $this->node($q)->rawCommand('CLUSTER', 'NODES');
                $known += preg_match('/^' . $id . ' \S+ (myself,)?master - \d+ \d+ \d+ connected/m', $nodes);
            }
            if ($known === count($this->alive())) {
                $this->waitConverged();     // the new node too: state ok, the same slot map
                return $p;
            }
            usleep(20000);
        } while (microtime(true) < $deadline);
        throw new \RuntimeException("node $p did not join the cluster");
    }

    /** The node id of the node on $port. */
    public function id(int $port): string
    {
        return (string) $this->node($port)->rawCommand('CLUSTER', 'MYID');
    }

    /** The slot of a key. */
    public function slot(string $key): int
    {
        return (int) $this->node($this->alive()[0])->rawCommand('CLUSTER', 'KEYSLOT', $key);
    }

    /** The port of the master that owns $slot (as the running nodes agree). */
    public function masterOf(int $slot): int
    {
        foreach ($this->waitConverged() as $port => $ranges) {
            foreach ($ranges as [$a, $b]) {
                if ($slot >= $a && $slot <= $b) {
                    return $port;
                }
            }
        }
        throw new \RuntimeException("slot $slot has no master");
    }

    /**
     * Moves $slot from master $from to master $to as redis-cli --cluster
     * reshard does, one step per call of the generator (so that the caller
     * writes in between): IMPORTING/MIGRATING, MIGRATE of the keys (until
     * none is left), SETSLOT NODE on every master.
     */
    public function migrateSteps(int $slot, int $from, int $to): \Generator
    {
        $src = $this->node($from);
        $dst = $this->node($to);
        $srcId = $this->id($from);
        $dstId = $this->id($to);
        self::ok($dst->rawCommand('CLUSTER', 'SETSLOT', (string) $slot, 'IMPORTING', $srcId), 'IMPORTING ' . $dst->getLastError());
        self::ok($src->rawCommand('CLUSTER', 'SETSLOT', (string) $slot, 'MIGRATING', $dstId), 'MIGRATING');
        yield 'migrating';
        do {
            $keys = $src->rawCommand('CLUSTER', 'GETKEYSINSLOT', (string) $slot, '100');
            if ($keys) {
                self::ok($src->rawCommand('MIGRATE', '127.0.0.1', (string) $to, '', '0', '5000', 'KEYS', ...$keys), 'MIGRATE: ' . $src->getLastError());
            }
        } while ($keys);
        yield 'keys moved';
        self::ok($dst->rawCommand('CLUSTER', 'SETSLOT', (string) $slot, 'NODE', $dstId), 'SETSLOT NODE (destination)');
        self::ok($src->rawCommand('CLUSTER', 'SETSLOT', (string) $slot, 'NODE', $dstId), 'SETSLOT NODE (source)');
        foreach (array_keys($this->waitConvergedLoose()) as $p) {
            if ($p !== $from && $p !== $to) {
                $this->node($p)->rawCommand('CLUSTER', 'SETSLOT', (string) $slot, 'NODE', $dstId);
            }
        }
        yield 'done';
    }

    /** The masters as the first running node sees them (no agreement needed). */
    private function waitConvergedLoose(): array
    {
        $m = [];
        foreach ($this->node($this->alive()[0])->rawCommand('CLUSTER', 'SLOTS') as $row) {
            $m[(int) $row[2][1]] = true;
        }
        return $m;
    }

    private static function ok(mixed $r, string $what): void
    {
        if ($r !== true && $r !== 'OK') {
            throw new \RuntimeException("$what failed: " . var_export($r, true));
        }
    }

    /** SIGKILL the node on $port. */
    public function kill(int $port): void
    {
        if (isset($this->procs[$port])) {
            proc_terminate($this->procs[$port], SIGKILL);
            proc_close($this->procs[$port]);
            unset($this->procs[$port]);
        }
    }

    public function __destruct()
    {
        foreach (array_keys($this->procs) as $p) {
            $this->kill($p);
        }
        foreach (glob($this->dir . '/*/*') ?: [] as $f) {
            @unlink($f);
        }
        foreach (glob($this->dir . '/*') ?: [] as $d) {
            @rmdir($d);
        }
        @rmdir($this->dir);
    }
}
