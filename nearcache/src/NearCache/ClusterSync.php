<?php

declare(strict_types=1);

namespace Shardcache\NearCache;

/**
 * The invalidation process of one host and one namespace in front of a Redis
 * Cluster (bin/shardcache-sync --cluster runs it): Sync, once per master.
 *
 * Connections: the slot map is read (CLUSTER NODES) from the first seed
 * that answers; then, per master, a RESP2 pub/sub connection (PubSubReader)
 * subscribed to __redis__:invalidate and a phpredis control connection that
 * turned on CLIENT TRACKING ... REDIRECT <that pub/sub id> BCAST PREFIX "ns:".
 * Each master publishes, in its order of execution, every modified key under
 * the prefix that it holds (writes from any client, expiries, evictions, the
 * keys a MIGRATE moves out or in; null for a flush).
 *
 * Heartbeat: every interval_ms each control connection SETs
 * "ns:@hb:SID:{TAG}:T" (T: hrtime ms just before sending), TAG a hash tag
 * whose slot that master owns. When it comes back from a master, every
 * write that master executed before T has been applied. The state's
 * heartbeat is the least T over the masters: every write to any master
 * before it is applied. Readers use the local layer only while now - T <=
 * their max lag, as with one Redis.
 *
 * Topology: with every heartbeat, each master is asked for its slot map
 * (CLUSTER NODES). When any answer differs from the map subscribed to (a
 * slot moved, a replica promoted after its master died, a node given
 * slots or removed), or a connection fails, the state's heartbeat becomes
 * 0 (readers bypass the local layer at once) and everything is subscribed
 * again from the seeds. While a master reports a slot MIGRATING or
 * IMPORTING, the state's heartbeat stays 0 too: the slot's keys may then
 * be written (after an ASK redirection) on a node that owns no slot yet
 * and is not tracked; when the move is over, everything is subscribed
 * again;
 * when the first heartbeat has come back from every master, the generation
 * is increased before it is stored: a copy made before may have missed an
 * invalidation (a write on a master not yet tracked, or one a promoted
 * replica never received) and is unreachable from then on. A write on a
 * master that neither the map subscribed to nor any master's answer names
 * yet is not seen: the map is read every interval_ms, so such a window
 * lasts as long as the cluster's own gossip takes to name the new owner.
 *
 * A cluster has one database: no SWAPDB, no database token (the state's
 * token is "cluster": readers install copies while a ClusterSync runs).
 */
final class ClusterSync
{
    public const TOKEN = 'cluster';

    private string $ns;
    private string $prefix;
    private string $lprefix;
    private string $stateKey;
    private string $hbPrefix;
    private int $gen;
    private int $hbMs = 0;
    private bool $stop = false;
    /** @var callable(string):void */
    private $log;
    /** @var list<array{0:string,1:int}> */
    private array $seeds;

    /** Counters for tests and the log. */
    public int $invalidatedKeys = 0;
    public int $connects = 0;
    public int $topologyChanges = 0;

    /**
     * @param list<string> $seeds "host:port" of cluster nodes (any of them)
     * @param array{interval_ms?:int, dead_after_ms?:int, timeout?:float, auth?:mixed, log?:callable} $options
     */
    public function __construct(array $seeds, string $namespace, private array $options = [])
    {
        Layout::checkNamespace($namespace);
        if (!function_exists('shardcache_enabled') || !\shardcache_enabled()) {
            throw new \RuntimeException('shardcache is not enabled in this process (CLI: apc.enable_cli=1)');
        }
        $this->seeds = [];
        foreach ($seeds as $s) {
            $p = strrpos($s, ':');
            if ($p === false || (int) substr($s, $p + 1) <= 0) {
                throw new \InvalidArgumentException("invalid cluster seed '$s' (host:port)");
            }
            $this->seeds[] = [substr($s, 0, $p), (int) substr($s, $p + 1)];
        }
        if (!$this->seeds) {
            throw new \InvalidArgumentException('ClusterSync needs at least one seed node');
        }
        $this->ns = $namespace;
        $this->prefix = Layout::redisPrefix($namespace);
        $this->lprefix = Layout::localPrefix($namespace);
        $this->stateKey = Layout::stateKey($namespace);
        $this->hbPrefix = Layout::heartbeatPrefix($namespace, bin2hex(random_bytes(6)));
        $this->log = $options['log'] ?? static function (string $m): void {
        };
        $st = Layout::readState($namespace);
        $this->gen = $st !== null ? $st[0] : random_int(1, PHP_INT_MAX >> 1);
    }

    /** Makes run() return at its next wake-up (signal handlers call it). */
    public function stop(): void
    {
        $this->stop = true;
    }

    /** Runs until stop(); never throws for Redis trouble (it resubscribes). */
    public function run(): void
    {
        $backoff = 50;
        while (!$this->stop) {
            $nodes = [];
            try {
                $nodes = $this->connect();
                $backoff = 50;
                $this->loop($nodes);
            } catch (\Throwable $e) {
                ($this->log)('sync ' . $this->ns . ': ' . $e->getMessage());
            } finally {
                $this->publish(0);                // bypass the local layer now
                foreach ($nodes as $n) {
                    $n['pub']->close();
                    try {
                        $n['ctl']->close();
                    } catch (\Throwable) {
                    }
                }
            }
            $until = Layout::nowMs() + $backoff;
            while (!$this->stop && Layout::nowMs() < $until) {
                usleep(10000);
            }
            $backoff = min(1000, $backoff * 2);
        }
    }

    /** A phpredis connection to one node, authenticated. */
    private function node(string $host, int $port): \Redis
    {
        $timeout = (float) ($this->options['timeout'] ?? 1.0);
        $r = new \Redis();
        if (!@$r->connect($host, $port, $timeout, null, 0, $timeout)) {
            throw new \RuntimeException("connect $host:$port failed");
        }
        $r->setOption(\Redis::OPT_READ_TIMEOUT, $timeout);
        if (isset($this->options['auth'])) {
            $r->auth($this->options['auth']);
        }
        return $r;
    }

    /**
     * The masters that own slots in a CLUSTER NODES reply: "host:port" =>
     * sorted list of "start-end" ranges; null if the slots are not all
     * covered. $migrating: the answering node has a slot MIGRATING or
     * IMPORTING (the "[slot->-id]" / "[slot-<-id]" entries of its own line).
     *
     * @return array<string,list<string>>|null
     */
    private static function masters(mixed $nodes, ?bool &$migrating = null): ?array
    {
        $migrating = false;
        if (!is_string($nodes)) {
            return null;
        }
        $out = [];
        $covered = 0;
        foreach (explode("\n", trim($nodes)) as $line) {
            $f = explode(' ', trim($line));
            if (count($f) < 8) {
                continue;
            }
            $flags = explode(',', $f[2]);
            foreach (array_slice($f, 8) as $slot) {
                if ($slot === '') {
                    continue;
                }
                if ($slot[0] === '[') {
                    $migrating = $migrating || in_array('myself', $flags, true);
                    continue;
                }
                if (!in_array('master', $flags, true)) {
                    continue;
                }
                [$a, $b] = str_contains($slot, '-') ? array_map('intval', explode('-', $slot, 2)) : [(int) $slot, (int) $slot];
                $out[explode('@', $f[1], 2)[0]][] = "$a-$b";
                $covered += $b - $a + 1;
            }
        }
        if ($covered !== 16384) {
            return null;
        }
        ksort($out);
        foreach ($out as &$ranges) {
            sort($ranges);
        }
        return $out;
    }

    /** @return array<string,list<string>> the slot map read from the first seed that answers with a full one */
    private function topology(): array
    {
        $why = [];
        foreach ($this->seeds as [$host, $port]) {
            try {
                $r = $this->node($host, $port);
                $m = self::masters($r->rawCommand('CLUSTER', 'NODES'));
                $r->close();
                if ($m !== null) {
                    return $m;
                }
                $why[] = "$host:$port: slots not all covered";
            } catch (\Throwable $e) {
                $why[] = "$host:$port: " . $e->getMessage();
            }
        }
        throw new \RuntimeException('no seed node gave a full slot map (' . implode('; ', $why) . ')');
    }

    /**
     * Subscribes to every master.
     *
     * @return list<array{addr:string, pub:PubSubReader, ctl:\Redis, tag:string, ranges:list<string>}>
     */
    private function connect(): array
    {
        $timeout = (float) ($this->options['timeout'] ?? 1.0);
        $tms = (int) (1000 * $timeout);
        $map = $this->topology();
        $nodes = [];
        try {
            foreach ($map as $addr => $ranges) {
                $p = strrpos($addr, ':');
                [$host, $port] = [substr($addr, 0, $p), (int) substr($addr, $p + 1)];
                $pub = new PubSubReader($host, $port, $timeout);
                $nodes[] = ['addr' => $addr, 'pub' => $pub, 'ctl' => null, 'tag' => '', 'ranges' => $ranges];
                $ctl = $this->node($host, $port);
                $nodes[count($nodes) - 1]['ctl'] = $ctl;
                if (isset($this->options['auth'])) {
                    $r = $pub->call(array_merge(['AUTH'], array_values((array) $this->options['auth'])), $tms);
                    if ($r instanceof RedisError) {
                        throw new \RuntimeException("$addr: AUTH: " . $r->message);
                    }
                }
                $id = $pub->call(['CLIENT', 'ID'], $tms);
                if (!is_int($id)) {
                    throw new \RuntimeException("$addr: CLIENT ID failed");
                }
                $r = $pub->call(['SUBSCRIBE', Layout::INVALIDATE_CHANNEL], $tms);
                if (!is_array($r) || ($r[0] ?? null) !== 'subscribe') {
                    throw new \RuntimeException("$addr: SUBSCRIBE failed");
                }
                $ok = $ctl->rawCommand('CLIENT', 'TRACKING', 'on', 'REDIRECT', (string) $id, 'BCAST', 'PREFIX', $this->prefix);
                if ($ok !== true && $ok !== 'OK') {
                    throw new \RuntimeException("$addr: CLIENT TRACKING failed: " . var_export($ok, true));
                }
                $nodes[count($nodes) - 1]['tag'] = $this->tagFor($ctl, $ranges);
            }
        } catch (\Throwable $e) {
            foreach ($nodes as $n) {
                $n['pub']->close();
                try {
                    $n['ctl']?->close();
                } catch (\Throwable) {
                }
            }
            throw $e;
        }
        $this->connects++;
        ($this->log)("sync {$this->ns}: subscribed to " . count($nodes) . ' masters (' . implode(', ', array_keys($map)) . ')');
        return $nodes;
    }

    /** A hash tag whose slot is in $ranges (the master's own slots): its heartbeat key lives there. */
    private function tagFor(\Redis $ctl, array $ranges): string
    {
        for ($i = 0; $i < 100000; $i++) {
            $slot = $ctl->rawCommand('CLUSTER', 'KEYSLOT', "h$i");
            foreach ($ranges as $rg) {
                [$a, $b] = array_map('intval', explode('-', $rg));
                if (is_int($slot) && $slot >= $a && $slot <= $b) {
                    return "h$i";
                }
            }
        }
        throw new \RuntimeException('no hash tag found for ' . implode(',', $ranges));
    }

    /** @param list<array{addr:string, pub:PubSubReader, ctl:\Redis, tag:string, ranges:list<string>}> $nodes */
    private function loop(array $nodes): void
    {
        $interval = max(1, (int) ($this->options['interval_ms'] ?? 50));
        $deadAfter = max(2 * $interval, (int) ($this->options['dead_after_ms'] ?? 1000));
        $subscribed = [];
        foreach ($nodes as $n) {
            $subscribed[$n['addr']] = $n['ranges'];
        }
        ksort($subscribed);
        $healthy = false;
        $start = Layout::nowMs();
        $back = array_fill(0, count($nodes), 0);        // per master: last heartbeat T back
        $lastBack = array_fill(0, count($nodes), $start);
        $firstSent = 0;                                   // first heartbeat of this subscription
        $nextHb = 0;
        $readers = array_column($nodes, 'pub');
        $migrating = false;
        while (!$this->stop) {
            $now = Layout::nowMs();
            if ($now >= $nextHb) {
                $mig = false;
                foreach ($nodes as $i => $n) {
                    // The master's slot map, then its heartbeat (sent after
                    // the map was read: a heartbeat back means no topology
                    // change that this master knew of when it was sent).
                    $m = self::masters($n['ctl']->rawCommand('CLUSTER', 'NODES'), $nodeMig);
                    if ($m !== $subscribed) {
                        $this->topologyChanges++;
                        throw new \RuntimeException("the slot map changed (seen by {$n['addr']}): subscribing again");
                    }
                    $mig = $mig || $nodeMig;
                }
                if ($mig && !$migrating) {
                    // A slot is moving: its keys may be written (ASK) on a
                    // node this sync does not track. No local copy is used
                    // until the move is over and every master is tracked.
                    $migrating = true;
                    $this->publish(0);
                    ($this->log)("sync {$this->ns}: a slot is migrating, local layer off");
                } elseif (!$mig && $migrating) {
                    $this->topologyChanges++;
                    throw new \RuntimeException('the slot migration ended: subscribing again');
                }
                foreach ($nodes as $i => $n) {
                    $ok = $n['ctl']->set($this->hbPrefix . '{' . $n['tag'] . '}:' . $now, '1', ['px' => 2 * $deadAfter]);
                    if ($ok !== true) {
                        throw new \RuntimeException("{$n['addr']}: heartbeat SET failed: " . (string) $n['ctl']->getLastError());
                    }
                }
                $firstSent = $firstSent ?: $now;
                $nextHb = $now + $interval;
            }
            foreach ($lastBack as $i => $t) {
                if (Layout::nowMs() - $t > $deadAfter) {
                    throw new \RuntimeException("no heartbeat came back from {$nodes[$i]['addr']} for {$deadAfter} ms");
                }
            }
            $advanced = false;
            foreach (PubSubReader::readAny($readers, max(0, $nextHb - Layout::nowMs())) as $i => $msgs) {
                foreach ($msgs as $msg) {
                    if (!is_array($msg) || ($msg[0] ?? null) !== 'message' || ($msg[1] ?? null) !== Layout::INVALIDATE_CHANNEL) {
                        continue;
                    }
                    $keys = $msg[2] ?? null;
                    if ($keys === null) {
                        // FLUSHALL / FLUSHDB on this master: its keys are invalid.
                        $this->gen++;
                        if ($healthy) {
                            $this->publish($this->hbMs);
                        }
                        continue;
                    }
                    foreach ((array) $keys as $rk) {
                        if (!is_string($rk) || !str_starts_with($rk, $this->prefix)) {
                            continue;
                        }
                        if (str_starts_with($rk, $this->hbPrefix)) {
                            $t = (int) substr($rk, strrpos($rk, ':') + 1);
                            if ($t >= $firstSent && $t > $back[$i]) {
                                $back[$i] = $t;
                                $lastBack[$i] = Layout::nowMs();
                                $advanced = true;
                            }
                            continue;
                        }
                        $k = substr($rk, strlen($this->prefix));
                        if (str_contains($k, '@')) {
                            if (str_starts_with($k, '@l:')) {
                                \shardcache_delete($this->lprefix . 'l:' . Layout::leasedKey($this->ns, $k));
                            }
                            continue;
                        }
                        \shardcache_delete($this->lprefix . 'e:' . $k);
                        \shardcache_delete($this->lprefix . $this->gen . ':v:' . $k);   // memory only
                        $this->invalidatedKeys++;
                    }
                }
            }
            if ($advanced && min($back) > 0 && !$migrating) {
                if (!$healthy) {
                    // Every master proved its subscription: what was cached
                    // before may have missed invalidations.
                    $this->gen++;
                    $healthy = true;
                    ($this->log)("sync {$this->ns}: invalidations flowing from every master, local layer on (generation {$this->gen})");
                }
                $hb = min($back);
                if ($hb > $this->hbMs) {
                    $this->publish($hb);
                }
            }
        }
    }

    /** Stores the state (current generation, heartbeat $hbMs; 0: bypass). */
    private function publish(int $hbMs): void
    {
        $this->hbMs = $hbMs;
        if (!\shardcache_store($this->stateKey, Layout::packState($this->gen, $hbMs, self::TOKEN))) {
            \shardcache_delete($this->stateKey);
        }
    }
}
