<?php

declare(strict_types=1);

namespace Shardcache\NearCache;

/**
 * The invalidation process of one host and one namespace (bin/shardcache-sync
 * runs it). It must run in a process that maps the host's shardcache segment.
 *
 * Connections: a RESP2 pub/sub connection (PubSubReader) subscribed to
 * __redis__:invalidate, and a phpredis control connection that turned on
 * CLIENT TRACKING ... REDIRECT <pub/sub id> BCAST PREFIX "ns:". Redis then
 * publishes, in the order of execution, every modified key under the prefix
 * (writes from any client, expiries, evictions; null for a flush).
 *
 * Heartbeat: every interval_ms the control connection SETs "ns:@hb:SID:T"
 * (T: hrtime ms just before sending). When its invalidation comes back, every
 * write that Redis executed before that SET has been delivered before it and
 * applied, so the sync stores T as the state's heartbeat. Readers use the
 * local layer only while now - T <= their max lag. The heartbeat also proves
 * both connections work end to end: Redis tells a RESP2 client nothing when
 * the tracking connection dies, and nothing reaches the pub/sub one then.
 *
 * Database token: Redis tells no tracking client about SWAPDB. Each
 * heartbeat SET is sent in one MULTI with SET ns:@db <random> NX and GET
 * ns:@db, so the token read is the one of the database that the heartbeat
 * was executed in. When the heartbeat comes back with another token than the
 * last one, the database under the keys was exchanged: a new generation,
 * stored with the heartbeat and the new token. Readers install a copy only
 * when the token they read in one MULTI with the value is the state's, so no
 * copy from a swapped-in database outlives the heartbeat after the swap, even
 * if a second SWAPDB swapped the first one back before that heartbeat.
 *
 * Generation: when the first heartbeat comes back after (re)subscribing,
 * after a flush and after a token change, the generation is increased before
 * the heartbeat is stored: every local copy made before (possibly under
 * missed invalidations) is unreachable at once, whatever the number of keys.
 * On a connection error, on no heartbeat for dead_after_ms, and on stop, the
 * state's heartbeat becomes 0 (readers bypass the local layer at once) and
 * the sync reconnects.
 */
final class Sync
{
    private string $ns;
    private string $prefix;
    private string $lprefix;
    private string $stateKey;
    private string $hbPrefix;
    private int $gen;
    private int $hbMs = 0;         // heartbeat currently published in the state
    private string $tokenKey;
    private string $token = '';    // database token of the generation ('' unknown)
    /** @var array<int,string> heartbeat send time => database token read with it */
    private array $hbTokens = [];
    private bool $stop = false;
    /** @var callable(string):void */
    private $log;

    /** Counters for tests and the log. */
    public int $invalidatedKeys = 0;
    public int $connects = 0;

    /**
     * @param array{interval_ms?:int, dead_after_ms?:int, timeout?:float, auth?:mixed, db?:int, log?:callable} $options
     */
    public function __construct(
        private string $host,
        private int $port,
        string $namespace,
        private array $options = [],
    ) {
        Layout::checkNamespace($namespace);
        if (!function_exists('shardcache_enabled') || !\shardcache_enabled()) {
            throw new \RuntimeException('shardcache is not enabled in this process (CLI: apc.enable_cli=1)');
        }
        $this->ns = $namespace;
        $this->prefix = Layout::redisPrefix($namespace);
        $this->lprefix = Layout::localPrefix($namespace);
        $this->stateKey = Layout::stateKey($namespace);
        $this->hbPrefix = Layout::heartbeatPrefix($namespace, bin2hex(random_bytes(6)));
        $this->tokenKey = Layout::tokenKey($namespace);
        $this->log = $options['log'] ?? static function (string $m): void {
        };
        // Keep counting from the generation in the segment (a restarted sync);
        // if there is none (new or evicted), a random one: never a used one.
        $st = Layout::readState($namespace);
        $this->gen = $st !== null ? $st[0] : random_int(1, PHP_INT_MAX >> 1);
    }

    /** Makes run() return at its next wake-up (signal handlers call it). */
    public function stop(): void
    {
        $this->stop = true;
    }

    /** Runs until stop(); never throws for Redis trouble (it reconnects). */
    public function run(): void
    {
        $backoff = 50;
        while (!$this->stop) {
            $pub = null;
            $ctl = null;
            try {
                [$pub, $ctl] = $this->connect();
                $backoff = 50;
                $this->loop($pub, $ctl);
            } catch (\Throwable $e) {
                ($this->log)('sync ' . $this->ns . ': ' . $e->getMessage());
            } finally {
                $this->publish(0);                // bypass the local layer now
                $pub?->close();
                try {
                    $ctl?->close();
                } catch (\Throwable) {
                }
            }
            $until = Layout::nowMs() + $backoff;
            while (!$this->stop && Layout::nowMs() < $until) {
                usleep(10000);
            }
            $backoff = min(1000, $backoff * 2);
        }
    }

    /** @return array{0:PubSubReader,1:\Redis} */
    private function connect(): array
    {
        $timeout = (float) ($this->options['timeout'] ?? 1.0);
        $pub = new PubSubReader($this->host, $this->port, $timeout);
        try {
            $ctl = new \Redis();
            $ctl->connect($this->host, $this->port, $timeout, null, 0, $timeout);
            $ctl->setOption(\Redis::OPT_READ_TIMEOUT, $timeout);
            if (isset($this->options['auth'])) {
                $ctl->auth($this->options['auth']);
                $a = (array) $this->options['auth'];
                $r = $pub->call(array_merge(['AUTH'], array_values($a)), (int) (1000 * $timeout));
                if ($r instanceof RedisError) {
                    throw new \RuntimeException('AUTH: ' . $r->message);
                }
            }
            // Invalidations are global (not per database); db only matters
            // for the heartbeat SET, which must hit the users' database.
            if (isset($this->options['db'])) {
                $ctl->select((int) $this->options['db']);
            }
            $id = $pub->call(['CLIENT', 'ID'], (int) (1000 * $timeout));
            if (!is_int($id)) {
                throw new \RuntimeException('CLIENT ID failed');
            }
            $r = $pub->call(['SUBSCRIBE', Layout::INVALIDATE_CHANNEL], (int) (1000 * $timeout));
            if (!is_array($r) || ($r[0] ?? null) !== 'subscribe') {
                throw new \RuntimeException('SUBSCRIBE failed');
            }
            // Tracking starts after the subscription is in place, so the first
            // invalidation can only follow the subscribe confirmation.
            $ok = $ctl->rawCommand('CLIENT', 'TRACKING', 'on', 'REDIRECT', (string) $id, 'BCAST', 'PREFIX', $this->prefix);
            if ($ok !== true && $ok !== 'OK') {
                throw new \RuntimeException('CLIENT TRACKING failed: ' . var_export($ok, true));
            }
        } catch (\Throwable $e) {
            $pub->close();
            throw $e;
        }
        $this->connects++;
        ($this->log)("sync {$this->ns}: subscribed to {$this->host}:{$this->port} (pub/sub client $id)");
        return [$pub, $ctl];
    }

    private function loop(PubSubReader $pub, \Redis $ctl): void
    {
        $interval = max(1, (int) ($this->options['interval_ms'] ?? 50));
        $deadAfter = max(2 * $interval, (int) ($this->options['dead_after_ms'] ?? 1000));
        $healthy = false;
        $lastBack = Layout::nowMs();      // when the last own heartbeat came back
        $nextHb = 0;
        $this->hbTokens = [];
        while (!$this->stop) {
            $now = Layout::nowMs();
            if ($now >= $nextHb) {
                $this->heartbeat($ctl, $now, 2 * $deadAfter);
                $nextHb = $now + $interval;
            }
            if ($now - $lastBack > $deadAfter) {
                throw new \RuntimeException("no heartbeat came back for {$deadAfter} ms");
            }
            foreach ($pub->read(max(0, $nextHb - Layout::nowMs())) as $msg) {
                if (!is_array($msg) || ($msg[0] ?? null) !== 'message' || ($msg[1] ?? null) !== Layout::INVALIDATE_CHANNEL) {
                    continue;
                }
                $keys = $msg[2] ?? null;
                if ($keys === null) {
                    // FLUSHALL / FLUSHDB: every key is invalid.
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
                        $t = (int) substr($rk, strlen($this->hbPrefix));
                        $token = $this->hbTokens[$t] ?? null;
                        foreach ($this->hbTokens as $sent => $unused) {
                            if ($sent > $t) {
                                break;
                            }
                            unset($this->hbTokens[$sent]);
                        }
                        if ($token !== null && ($t > $this->hbMs || !$healthy)) {
                            if (!$healthy) {
                                // First proof of a working subscription: what
                                // was cached before it may have missed
                                // invalidations.
                                $this->gen++;
                                $healthy = true;
                                ($this->log)("sync {$this->ns}: invalidations flowing, local layer on (generation {$this->gen})");
                            } elseif ($token !== $this->token) {
                                // SWAPDB (or the token key lost): the keys
                                // cached so far came from another database.
                                $this->gen++;
                                ($this->log)("sync {$this->ns}: database token changed, new generation {$this->gen}");
                            }
                            $this->token = $token;
                            $lastBack = Layout::nowMs();
                            $this->publish(max($t, $this->hbMs));
                        }
                        continue;
                    }
                    $k = substr($rk, strlen($this->prefix));
                    if (str_contains($k, '@')) {
                        if (str_starts_with($k, '@l:')) {
                            // A remember() lease taken, released or expired:
                            // wake this host's waiters for the key.
                            \shardcache_delete($this->lprefix . 'l:' . Layout::leasedKey($this->ns, $k));
                        }
                        continue;               // another host's heartbeat, the token
                    }
                    \shardcache_delete($this->lprefix . 'e:' . $k);
                    \shardcache_delete($this->lprefix . $this->gen . ':v:' . $k);   // memory only
                    $this->invalidatedKeys++;
                }
            }
        }
    }

    /**
     * Sends the heartbeat SET stamped $now, in one MULTI with the database
     * token's SET NX and GET, and notes the token read for that heartbeat.
     */
    private function heartbeat(\Redis $ctl, int $now, int $ttlMs): void
    {
        $ctl->multi(\Redis::PIPELINE);
        $ctl->multi();
        $ctl->set($this->hbPrefix . $now, '1', ['px' => $ttlMs]);   // only its invalidation matters
        $ctl->set($this->tokenKey, bin2hex(random_bytes(8)), ['nx']);
        $ctl->get($this->tokenKey);
        $ctl->exec();
        $res = $ctl->exec();
        $token = is_array($res) && is_array($res[0] ?? null) ? ($res[0][2] ?? null) : null;
        if (!is_string($token) || $token === '') {
            throw new \RuntimeException('heartbeat failed: ' . json_encode($res));
        }
        $this->hbTokens[$now] = $token;
    }

    /** Stores the state (current generation, heartbeat $hbMs; 0: bypass). */
    private function publish(int $hbMs): void
    {
        $this->hbMs = $hbMs;
        if (!\shardcache_store($this->stateKey, Layout::packState($this->gen, $hbMs, $this->token))) {
            // Never leave an older, healthy-looking state behind.
            \shardcache_delete($this->stateKey);
        }
    }
}
