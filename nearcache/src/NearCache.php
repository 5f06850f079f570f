<?php

declare(strict_types=1);

namespace Shardcache;

use Psr\SimpleCache\CacheInterface;
use Shardcache\NearCache\InvalidArgumentException;
use Shardcache\NearCache\Layout;

/**
 * PSR-16 cache: a shared Redis, with the host's shardcache segment as a
 * near-cache in front of it that every worker of the host shares.
 *
 * get():   a valid local copy is returned without touching Redis; otherwise
 *          Redis is read (GET + PTTL in one round trip, in one MULTI with the
 *          database token when a copy is to be made) and the local copy
 *          filled, tagged with the key's epoch read BEFORE the Redis read,
 *          if the token is the one of the local generation (see Sync).
 * writes:  Redis first (each also deletes the key's remember() lease in the
 *          same command or script: a computation that began before the write
 *          does not store after it), then the key's local epoch is deleted,
 *          which kills any local copy, including one that a concurrent
 *          reader is about to install from an older Redis read (see
 *          Layout). The written value
 *          is not installed locally: the host's own sync process receives the
 *          invalidation of this very write a moment later, and two writers of
 *          one host could install in the opposite order of their Redis writes;
 *          the next get() fills the local copy from Redis instead.
 * the local layer is used only while the host's sync process (bin/shardcache-sync)
 *          proved within max_lag_ms that it receives Redis's invalidations
 *          (the heartbeat in Layout); otherwise every call goes to Redis.
 * Redis errors are never thrown: get() then returns the local copy while the
 *          local layer is usable, else $default; writes return false.
 *
 * Values are encoded once; the same bytes are stored in Redis and in the
 * local copy. A string is stored as it is (other clients read it as written);
 * every other value, and a string that begins with the tag, is TAG .
 * serialize(value). A Redis value without the tag (written by another client)
 * is returned exactly as written, whatever it looks like ("i:0;" stays a
 * string); a tagged one is unserialize()d with allowed_classes (default:
 * false: objects come back as __PHP_Incomplete_Class, no class is ever
 * instantiated from Redis unless allowed).
 *
 * The \Redis object must be connected, and must not have a serializer,
 * compression or key prefix set (NearCache owns the byte format and the keys).
 *
 * Redis Cluster: give a \RedisCluster instead (same conditions). Every
 * operation is then made of commands on one key each (a GET and its PTTL
 * are one EVAL on the key's node), since phpredis has no pipeline over a
 * cluster; phpredis follows MOVED/ASK and refreshes its slot map itself, so
 * NearCache never reconnects a \RedisCluster. The host's sync must be a
 * ClusterSync (bin/shardcache-sync --cluster=...): it tracks every master.
 */
class NearCache implements CacheInterface
{
    private const NO_EXPIRY = "\0\0\0\0\0\0\0\0";
    /**
     * Begins every payload that is not a plain string: NUL, 0xFF (never in
     * UTF-8 text, nor at the start of a serialize() string), "NC1". A foreign
     * value can only be mistaken for NearCache's if it starts with these bytes.
     */
    private const TAG = "\0\xffNC1";
    /**
     * Begins a value stored by remember(): META . pack('N', computation ms)
     * . the value's bytes as above. get() returns the value alone.
     */
    private const META = "\0\xffNCM";
    /** What TAG and META share: a plain string beginning with it is stored tagged. */
    private const TAG_HEAD = "\0\xffNC";
    /** Longest TTL set in Redis, in s (2^32 s: 136 years); longer ones are clamped to it. */
    private const MAX_TTL_S = 1 << 32;

    private \Redis|\RedisCluster $redis;
    private bool $cluster;     // $redis is a \RedisCluster
    private string $rprefix;   // "ns:" in Redis
    private string $lprefix;   // "nc:ns:" in the segment
    private string $stateKey;
    private string $tokenKey;  // "ns:@db" in Redis
    private string $ns;
    private int $maxLagMs;
    private int $localTtl;     // cap on a local copy's life in s, 0: none
    private bool $local;       // the segment is there at all
    /** @var bool|list<string> unserialize()'s allowed_classes for tagged payloads */
    private bool|array $allowedClasses;
    private bool $legacyValues; // also unserialize() untagged values (format before the tag)
    private int $reconnectMs;  // least time between two reconnect attempts
    private int $downSince = 0; // hrtime ms of the last Redis failure, 0: connected
    private int $leaseMs;      // remember(): life of a computation lease
    private int $leaseWaitMs;  // remember(): longest wait for another's computation
    // The last state read from the segment, unpacked (per process).
    private string $stateRaw = '';
    private int $stateGen = 0;
    private int $stateHb = 0;
    private string $stateToken = '';   // the database token of $stateGen
    private string $vprefix = '';   // "nc:ns:GEN:v:" of $stateGen
    /** @var array{0:string|false|null,1:string,2:int,3:float,4:mixed,5:int,6:float} how to reconnect */
    private array $conn;

    /**
     *   allowed_classes: the classes whose objects are instantiated when a
     *               value is read (unserialize()'s option): false (default):
     *               none, an object comes back as __PHP_Incomplete_Class;
     *               true: all; or a list of class names;
     *   legacy_values: read values without the tag as the format before it
     *               did (unserialize() them, with allowed_classes; a foreign
     *               "i:0;" is then 0 again), and write every value tagged,
     *               for the time old values are still in Redis (default false).
     *
     * @param array{max_lag_ms?:int, local_ttl?:int, reconnect_ms?:int, read_timeout?:float, allowed_classes?:bool|list<string>, legacy_values?:bool, lease_ms?:int, lease_wait_ms?:int} $options
     *   max_lag_ms: how old the sync's last heartbeat may be for the local layer
     *               to be used (default 500): the staleness bound of a local hit;
     *   local_ttl:  longest life of a local copy in seconds (default 0: as long
     *               as the Redis key lives);
     *   reconnect_ms: after a Redis error (phpredis does not reconnect by
     *               itself) the connection is opened again, with the \Redis
     *               object's own host, port, timeout, auth and database, at
     *               most once per this many ms (default 1000); in between,
     *               calls fail at once instead of waiting for a connect timeout.
     *               Every reconnect passes the connect timeout and the read
     *               timeout that the \Redis object had when given here;
     *   read_timeout: seconds a Redis reply may take (set on the \Redis object
     *               now and after every reconnect); default: the object's own
     *               (OPT_READ_TIMEOUT; 0: PHP's default_socket_timeout).
     *               A \RedisCluster takes its timeouts in its constructor:
     *               this option and reconnect_ms do not apply to it;
     *   lease_ms:   remember(): how long a computation lease lives in Redis
     *               (default 5000): a holder that dies (or computes longer
     *               without calling extendLease()) lets another process
     *               compute after this time;
     *   lease_wait_ms: remember(): the longest a caller waits for the value
     *               that another process computes (default 2 * lease_ms);
     *               then it computes the value itself.
     */
    public function __construct(\Redis|\RedisCluster $redis, string $namespace, array $options = [])
    {
        Layout::checkNamespace($namespace);
        $this->cluster = $redis instanceof \RedisCluster;
        foreach ([\Redis::OPT_SERIALIZER, \Redis::OPT_COMPRESSION] as $opt) {
            if ((int) $redis->getOption($opt) !== 0) {
                throw new \LogicException('NearCache needs a \Redis without serializer and compression');
            }
        }
        if ((string) $redis->getOption(\Redis::OPT_PREFIX) !== '') {
            throw new \LogicException('NearCache needs a \Redis without OPT_PREFIX');
        }
        $this->redis = $redis;
        $this->ns = $namespace;
        $this->rprefix = Layout::redisPrefix($namespace);
        $this->lprefix = Layout::localPrefix($namespace);
        $this->stateKey = Layout::stateKey($namespace);
        $this->tokenKey = Layout::tokenKey($namespace);
        $this->maxLagMs = max(0, (int) ($options['max_lag_ms'] ?? 500));
        $this->localTtl = max(0, (int) ($options['local_ttl'] ?? 0));
        $this->reconnectMs = max(0, (int) ($options['reconnect_ms'] ?? 1000));
        $this->leaseMs = max(1, (int) ($options['lease_ms'] ?? 5000));
        $this->leaseWaitMs = max(0, (int) ($options['lease_wait_ms'] ?? 2 * $this->leaseMs));
        $allowed = $options['allowed_classes'] ?? false;
        if (!is_bool($allowed) && !(is_array($allowed) && array_filter($allowed, 'is_string') === $allowed)) {
            throw new \LogicException('NearCache option allowed_classes must be a bool or a list of class names');
        }
        $this->allowedClasses = is_array($allowed) ? array_values($allowed) : $allowed;
        $this->legacyValues = (bool) ($options['legacy_values'] ?? false);
        if (isset($options['read_timeout']) && !$this->cluster) {
            $redis->setOption(\Redis::OPT_READ_TIMEOUT, (float) $options['read_timeout']);
        }
        // phpredis forgets these once the connection failed, and a new
        // connect() without a read timeout waits default_socket_timeout for
        // a reply: keep them now.
        $this->conn = $this->cluster ? [null, '', 0, 0.0, null, 0, 0.0]
            : [$redis->getPersistentID(), (string) $redis->getHost(), (int) $redis->getPort(),
                (float) $redis->getTimeout(), $redis->getAuth(), (int) $redis->getDBNum(),
                (float) ($options['read_timeout'] ?? $redis->getReadTimeout())];
        $this->local = function_exists('shardcache_enabled') && \shardcache_enabled();
    }

    public function getNamespace(): string
    {
        return $this->ns;
    }

    /**
     * The generation of the local layer if it may be used now (the sync
     * process applied invalidations up to at most max_lag_ms ago), else null.
     */
    public function localGeneration(): ?int
    {
        return $this->usableGeneration($now);
    }

    /** localGeneration(), and the hrtime ms it checked the heartbeat against. */
    private function usableGeneration(?int &$now): ?int
    {
        $now = intdiv(hrtime(true), 1000000);
        if (!$this->local) {
            return null;
        }
        $s = \shardcache_fetch($this->stateKey);
        if ($s !== $this->stateRaw) {           // changes every heartbeat (50 ms)
            if (!is_string($s) || strlen($s) < 16) {
                return null;
            }
            $u = unpack('q2', $s);
            $this->stateRaw = $s;
            $this->stateGen = $u[1];
            $this->stateHb = $u[2];
            $this->stateToken = substr($s, 16);
            $this->vprefix = $this->lprefix . $u[1] . ':v:';
        }
        if ($this->stateHb <= 0 || $now - $this->stateHb > $this->maxLagMs) {
            return null;
        }
        return $this->stateGen;
    }

    public function get($key, $default = null): mixed
    {
        $this->checkKey($key);
        $gen = $this->usableGeneration($now);
        if ($gen !== null) {
            $hit = $this->localGet($gen, $now, $key, $found);
            if ($found) {
                return $hit;
            }
        }
        $r = $this->fetchRemote([$key], $gen);
        return $r === null || !array_key_exists($key, $r) ? $default : $r[$key];
    }

    public function set($key, $value, $ttl = null): bool
    {
        $this->checkKey($key);
        $ms = $this->ttlMs($ttl);
        if ($ms !== null && $ms <= 0) {
            return $this->delete($key);
        }
        $payload = $this->encode($value);
        if ($payload === null) {
            return false;       // e.g. a Closure
        }
        $ok = false;
        if ($r = $this->redis()) {
            try {
                $ok = $this->evalWithLease($r, self::SET_LUA, $key, [$payload, $ms === null ? '' : (string) $ms]) === 1;
            } catch (\RedisException|\RedisClusterException) {
                $this->failed();
            }
        }
        $this->dropLocal([$key]);   // also after a failure: Redis may hold either value
        return $ok;
    }

    /** SET KEYS[1] ARGV[1] (PX ARGV[2] unless ''), and DEL the lease KEYS[2] (if given). */
    private const SET_LUA = "if KEYS[2] then redis.call('del', KEYS[2]) end "
        . "if ARGV[2] == '' then redis.call('set', KEYS[1], ARGV[1]) else redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) end return 1";

    /** The Redis key of $key's remember() lease (in $key's Redis Cluster slot). */
    private function leaseKey(string $key): string
    {
        return Layout::leaseKey($this->ns, $key);
    }

    /**
     * Runs $script with KEYS $key's value key and its lease, ARGV $args; its
     * reply. A Redis Cluster refuses a command on two keys of a slot being
     * migrated while only one of them is on the node (TRYAGAIN): then the
     * lease is deleted first (a computation holding it cannot store any
     * more) and the script runs on the value key alone; or, for remember()'s
     * store of the lease $token (which cannot be split), the lease is
     * released and nothing is stored (0).
     *
     * @param list<string> $args
     */
    private function evalWithLease(\Redis|\RedisCluster $r, string $script, string $key, array $args, ?string $token = null): mixed
    {
        $keys = [$this->rprefix . $key, $this->leaseKey($key)];
        if (!$this->cluster) {
            return $r->eval($script, [...$keys, ...$args], 2);
        }
        $r->clearLastError();
        $res = $r->eval($script, [...$keys, ...$args], 2);
        if (!$this->tryAgain($r, $res)) {
            return $res;
        }
        if ($token !== null) {
            $r->eval(self::RELEASE_LUA, [$keys[1], $token], 1);
            return 0;
        }
        return $r->del($keys[1]) === false ? false : $r->eval($script, [$keys[0], ...$args], 1);
    }

    /** A Redis Cluster's TRYAGAIN (see evalWithLease()) for the command that returned $res. */
    private function tryAgain(\Redis|\RedisCluster $r, mixed $res): bool
    {
        return $res === false && $this->cluster && str_starts_with((string) $r->getLastError(), 'TRYAGAIN');
    }

    public function delete($key): bool
    {
        $this->checkKey($key);
        return $this->deleteKeys([$key]);
    }

    public function clear(): bool
    {
        $ok = true;
        $it = null;
        if (!($r = $this->redis())) {
            return false;
        }
        try {
            foreach ($this->cluster ? $r->_masters() : [null] as $node) {
                $it = null;
                do {
                    $keys = $node === null ? $r->scan($it, $this->rprefix . '*', 1000) : $r->scan($it, $node, $this->rprefix . '*', 1000);
                    if ($keys === false) {
                        break;
                    }
                    $user = [];
                    $gone = [];
                    foreach ($keys as $rk) {
                        $k = substr($rk, strlen($this->rprefix));
                        if (!str_contains($k, '@')) {   // not a sync heartbeat
                            $user[] = $k;
                            array_push($gone, $this->leaseKey($k), $rk);
                        } elseif (str_starts_with($k, '@l:')) {
                            $gone[] = $rk;      // a computation of a missing key
                        }
                    }
                    if ($gone) {
                        $this->cluster && $r->clearLastError();
                        if ($this->tryAgain($r, $r->unlink($gone))) {
                            foreach ($gone as $rk) {     // each lease before its key
                                $r->unlink($rk);
                            }
                        }
                    }
                    if ($user) {
                        $this->dropLocal($user);
                    }
                } while ($it > 0);
            }
        } catch (\RedisException|\RedisClusterException) {
            $this->failed();
            $ok = false;
        }
        return $ok;
    }

    public function getMultiple($keys, $default = null): iterable
    {
        $keys = $this->keyList($keys);
        $out = [];
        $gen = $this->usableGeneration($now);
        $missing = [];
        foreach ($keys as $k) {
            $out[$k] = $default;
            if ($gen !== null) {
                $v = $this->localGet($gen, $now, $k, $found);
                if ($found) {
                    $out[$k] = $v;
                    continue;
                }
            }
            $missing[] = $k;
        }
        if ($missing) {
            $r = $this->fetchRemote(array_values(array_unique($missing)), $gen);
            foreach ($r ?? [] as $k => $v) {
                $out[$k] = $v;
            }
        }
        return $out;
    }

    public function setMultiple($values, $ttl = null): bool
    {
        if (!is_iterable($values)) {
            throw new InvalidArgumentException('setMultiple() needs an iterable');
        }
        $ms = $this->ttlMs($ttl);
        $pairs = [];
        foreach ($values as $k => $v) {
            if (is_int($k)) {
                $k = (string) $k;
            }
            $this->checkKey($k);
            $pairs[$k] = $v;
        }
        if ($ms !== null && $ms <= 0) {
            return $this->deleteKeys(array_keys($pairs));
        }
        if (!$pairs) {
            return true;
        }
        $payloads = [];
        foreach ($pairs as $k => $v) {
            $payloads[$k] = $this->encode($v);
            if ($payloads[$k] === null) {
                return false;   // e.g. a Closure; nothing written
            }
        }
        $ok = true;
        try {
            if (!($r = $this->redis())) {
                throw new \RedisException('down');
            }
            if ($this->cluster) {
                $res = [];      // one SET_LUA per key (each on its own node)
                foreach ($payloads as $k => $payload) {
                    $res[] = $this->evalWithLease($r, self::SET_LUA, (string) $k, [$payload, $ms === null ? '' : (string) $ms]) === 1;
                }
            } else {
                // The leases die before the values are written: a computation
                // holding one then cannot store any more.
                $p = $r->multi(\Redis::PIPELINE);
                $p->del(array_map(fn ($k) => $this->leaseKey((string) $k), array_keys($payloads)));
                foreach ($payloads as $k => $payload) {
                    $ms === null ? $p->set($this->rprefix . $k, $payload) : $p->set($this->rprefix . $k, $payload, ['px' => $ms]);
                }
                $res = $p->exec();
                if (is_array($res)) {
                    array_shift($res);  // the DEL's count
                }
            }
            if (!is_array($res)) {
                $ok = false;
            } else {
                foreach ($res as $r) {
                    $ok = $ok && $r === true;
                }
            }
        } catch (\Throwable) {
            $ok = false;
            $this->failed();
        }
        $this->dropLocal(array_map('strval', array_keys($pairs)));
        return $ok;
    }

    public function deleteMultiple($keys): bool
    {
        return $this->deleteKeys($this->keyList($keys));
    }

    public function has($key): bool
    {
        $this->checkKey($key);
        $gen = $this->usableGeneration($now);
        if ($gen !== null) {
            $this->localGet($gen, $now, $key, $found);
            if ($found) {
                return true;
            }
        }
        if (!($r = $this->redis())) {
            return false;
        }
        try {
            return (bool) $r->exists($this->rprefix . $key);
        } catch (\RedisException|\RedisClusterException) {
            $this->failed();
            return false;
        }
    }

    /**
     * The value of $key; when it is missing, $callback computes it, once for
     * every host of the site: the caller that wins a short lease in Redis
     * (SET ns:@l:{ns:KEY} NX PX lease_ms) computes and stores it; the others
     * wait (at most lease_wait_ms, then compute themselves, and do not store)
     * until the key or the lease is written, deleted or expires, and read it
     * then. A waiter does not poll Redis while the host's local layer is usable: it arms two
     * local markers (the key's epoch and nc:ns:l:KEY), which the host's sync
     * deletes when Redis reports the key or its lease modified, and watches
     * them in the segment (checks 0.5 ms apart, then up to 8 ms); otherwise
     * it asks Redis every 25 ms. A lease that its holder never releases
     * (the process died) expires after lease_ms. A lease is not renewed by
     * itself (PHP cannot interrupt the callback safely): a computation that
     * runs longer than lease_ms lets a waiter take the lease and compute
     * too, unless the callback calls extendLease($key) at its own safe
     * points, or lease_ms is set above the longest computation.
     *
     * A superseded computation does not store: the value is stored by one
     * Lua script only if the lease still holds this computation's token
     * (and the lease is deleted with it), and every write of the key
     * (set(), delete(), add(), increment(), clear(), the *Multiple() ones)
     * deletes its lease in the same command or script (setMultiple() on one
     * Redis: a DEL just before its SETs). So after a write (e.g. "update
     * the source, then delete the key") no computation that began before it
     * stores its older result, and a computation whose lease expired stores
     * nothing (a newer holder may have stored already). The callback's value
     * is still returned to its own caller.
     *
     * Probabilistic early recomputation (XFetch, as Symfony's cache
     * contracts): the value is stored with the time its computation took
     * (ctime); a read recomputes it before it expires with probability
     * growing as the time left shrinks: when left <= ctime * beta * -ln(rand).
     * beta 0: never early; INF: recompute now. An early recomputation needs
     * the lease; a caller that does not get it returns the current value.
     *
     * $callback is called with ($ttl, $save), both by reference (as far as it
     * declares parameters): it may change the TTL (PSR-16 TTL: null, int
     * seconds, \DateInterval) or set $save = false (the value is returned,
     * not stored). An exception from it releases the lease and propagates.
     * Redis down: the value is computed here (and not stored).
     *
     * @param null|int|\DateInterval $ttl
     * @param callable(mixed&, bool&):mixed $callback
     * @param array<string,mixed>|null $metadata set to ['expiry' => unix
     *               time (float) or null, 'ctime' => computation ms] of the
     *               value returned (Symfony's ItemInterface::METADATA_*)
     */
    public function remember(string $key, $ttl, callable $callback, float $beta = 1.0, ?array &$metadata = null): mixed
    {
        $this->checkKey($key);
        $this->ttlMs($ttl);                    // throws for an invalid TTL
        if (!($beta >= 0)) {
            throw new InvalidArgumentException('remember(): beta must be a float >= 0, INF included');
        }
        $metadata = ['expiry' => null, 'ctime' => 0];
        $leaseKey = $this->leaseKey($key);
        $deadline = intdiv(hrtime(true), 1000000) + $this->leaseWaitMs;
        while (true) {
            $gen = $this->usableGeneration($now);
            $found = false;
            $value = null;
            $ctime = 0;
            $left = null;
            if ($gen !== null) {
                $value = $this->localGet($gen, $now, $key, $found, $ctime, $left);
            }
            if (!$found) {
                $r = $this->fetchRemote([$key], $gen, $meta);
                if ($r === null) {
                    return $this->compute($key, $ttl, $callback, null, $metadata);     // Redis down
                }
                if (array_key_exists($key, $r)) {
                    $found = true;
                    $value = $r[$key];
                    [$ctime, $left] = $meta[$key];
                }
            }
            if ($found) {
                if (!self::early($beta, $ctime, $left)) {
                    $metadata = ['expiry' => $left === null ? null : microtime(true) + $left / 1000, 'ctime' => $ctime];
                    return $value;
                }
                $token = bin2hex(random_bytes(8));
                $got = false;
                if ($rc = $this->redis()) {
                    try {
                        $got = $rc->set($leaseKey, $token, ['nx', 'px' => $this->leaseMs]) === true;
                    } catch (\RedisException|\RedisClusterException) {
                        $this->failed();
                    }
                }
                if (!$got) {
                    // Being recomputed elsewhere (or Redis failed): this one.
                    $metadata = ['expiry' => $left === null ? null : microtime(true) + $left / 1000, 'ctime' => $ctime];
                    return $value;
                }
                return $this->compute($key, $ttl, $callback, $token, $metadata);
            }
            if (intdiv(hrtime(true), 1000000) >= $deadline) {
                return $this->compute($key, $ttl, $callback, null, $metadata);      // waited enough
            }
            // Missing. Arm the wake markers before Redis is asked, so that any
            // write after the answer deletes them.
            $marks = null;
            if ($gen !== null) {
                $e = $this->epoch($key);
                $lk = $this->lprefix . 'l:' . $key;
                \shardcache_add($lk, random_bytes(8));
                $l = \shardcache_fetch($lk);
                if ($e !== null && is_string($l)) {
                    $marks = [$this->lprefix . 'e:' . $key => $e, $lk => $l];
                }
            }
            // One round trip: the lease, how long it lives, and the value
            // again (stored since the read above?).
            $token = bin2hex(random_bytes(8));
            try {
                if (!($rc = $this->redis())) {
                    return $this->compute($key, $ttl, $callback, null, $metadata);
                }
                if ($this->cluster) {
                    // The lease and the value live on different nodes: the
                    // same three commands, in the same order, one by one.
                    $res = [$rc->set($leaseKey, $token, ['nx', 'px' => $this->leaseMs]), $rc->pttl($leaseKey), $rc->get($this->rprefix . $key)];
                } else {
                    $p = $rc->multi(\Redis::PIPELINE);
                    $p->set($leaseKey, $token, ['nx', 'px' => $this->leaseMs]);
                    $p->pttl($leaseKey);
                    $p->get($this->rprefix . $key);
                    $res = $p->exec();
                }
            } catch (\Throwable) {
                $this->failed();
                return $this->compute($key, $ttl, $callback, null, $metadata);
            }
            if (!is_array($res) || count($res) !== 3) {
                return $this->compute($key, $ttl, $callback, null, $metadata);
            }
            [$got, $leftLease, $payload] = $res;
            if (is_string($payload)) {
                if ($got === true) {
                    $this->release($leaseKey, $token);
                }
                continue;   // stored meanwhile: read it (and fill the local copy)
            }
            if ($got === true) {
                return $this->compute($key, $ttl, $callback, $token, $metadata);
            }
            $this->waitFor($marks, $gen, min($deadline, intdiv(hrtime(true), 1000000) + max(1, is_int($leftLease) && $leftLease > 0 ? $leftLease : 1)));
        }
    }

    /**
     * Adds $by to the integer value of $key (created as 0 when missing; its
     * TTL is kept), atomically in Redis; returns the new value, or false if
     * the value is not an integer (NearCache's int, or a foreign decimal
     * string) or Redis failed. The result is stored as an int.
     */
    public function increment(string $key, int $by = 1): int|false
    {
        $this->checkKey($key);
        $n = false;
        if ($r = $this->redis()) {
            try {
                $n = $this->evalWithLease($r, self::INCR_LUA, $key, [(string) $by, self::TAG]);
            } catch (\RedisException|\RedisClusterException) {
                $this->failed();
            }
        }
        $this->dropLocal([$key]);
        return is_int($n) ? $n : false;
    }

    /**
     * Stores $value under $key only if Redis holds no value for it (one SET
     * NX with the TTL, and the key's lease deleted if it stored, in one
     * script: atomic for every worker of every host; exactly one of racing
     * add()s returns true). Returns true if this call stored it;
     * false if the key exists, the TTL is <= 0, the value cannot be
     * serialized or Redis failed. The local copy is dropped as by set().
     *
     * @param null|int|\DateInterval $ttl
     */
    public function add(string $key, mixed $value, $ttl = null): bool
    {
        $this->checkKey($key);
        $ms = $this->ttlMs($ttl);
        if ($ms !== null && $ms <= 0) {
            return false;
        }
        $payload = $this->encode($value);
        if ($payload === null) {
            return false;
        }
        $ok = false;
        if ($r = $this->redis()) {
            try {
                $ok = $this->evalWithLease($r, self::ADD_LUA, $key, [$payload, $ms === null ? '' : (string) $ms]) === 1;
            } catch (\RedisException|\RedisClusterException) {
                $this->failed();
            }
        }
        if ($ok) {
            $this->dropLocal([$key]);
        }
        return $ok;
    }

    /** SET KEYS[1] ARGV[1] NX (PX ARGV[2] unless ''); if it did, DEL the lease KEYS[2] (if given). */
    private const ADD_LUA = "local ok if ARGV[2] == '' then ok = redis.call('set', KEYS[1], ARGV[1], 'nx') "
        . "else ok = redis.call('set', KEYS[1], ARGV[1], 'nx', 'px', ARGV[2]) end "
        . "if not ok then return 0 end if KEYS[2] then redis.call('del', KEYS[2]) end return 1";

    /**
     * Called from within remember()'s callback for $key: extends this
     * process's computation lease to $ms from now (default lease_ms), if it
     * still holds it. A computation longer than the lease lets another
     * process start computing the same key; a callback that may run long
     * calls this at its own safe points (between two steps). Returns false
     * when no lease of this process for $key is held any more (it expired
     * and another process may be computing, or a write of the key ended it:
     * this computation's value will not be stored) or Redis failed.
     */
    public function extendLease(string $key, ?int $ms = null): bool
    {
        $token = $this->held[$key] ?? null;
        if ($token === null || !($r = $this->redis())) {
            return false;
        }
        try {
            return $r->eval(self::EXTEND_LUA, [$this->leaseKey($key), $token, (string) max(1, $ms ?? $this->leaseMs)], 1) === 1;
        } catch (\RedisException|\RedisClusterException) {
            $this->failed();
            return false;
        }
    }

    /** PEXPIREs the lease key if it still holds ARGV[1]. */
    private const EXTEND_LUA = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0";

    /** @var array<string,string> key => token of the leases held by computations running in this process */
    private array $held = [];

    /**
     * KEYS[1] += ARGV[1] for a value TAG . "i:N;" or "N" (or none: 0), kept
     * exact within 2^53 (Lua numbers), the TTL kept, and the lease KEYS[2]
     * (if given) deleted; false otherwise (nothing written).
     */
    private const INCR_LUA = <<<'LUA'
        local v = redis.call('GET', KEYS[1])
        local n
        if not v then
            n = 0
        elseif string.sub(v, 1, #ARGV[2]) == ARGV[2] then
            n = tonumber(string.match(string.sub(v, #ARGV[2] + 1), '^i:(%-?%d+);$'))
        else
            n = tonumber(string.match(v, '^%-?%d+$'))
        end
        if not n then return false end
        n = n + tonumber(ARGV[1])
        if math.abs(n) > 9007199254740992 then return false end
        redis.call('SET', KEYS[1], ARGV[2] .. 'i:' .. string.format('%d', n) .. ';', 'KEEPTTL')
        if KEYS[2] then redis.call('DEL', KEYS[2]) end
        return n
        LUA;

    /** XFetch: recompute now? $ctime: computation ms; $left: ms to expiry, null: none. */
    private static function early(float $beta, int $ctime, ?int $left): bool
    {
        if (is_infinite($beta)) {
            return true;
        }
        if ($left === null || $ctime <= 0 || $beta == 0.0) {
            return false;
        }
        return $left <= -$ctime * $beta * log(random_int(1, PHP_INT_MAX) / PHP_INT_MAX);
    }

    /**
     * Waits until a marker of $marks changed (the sync saw the key or its
     * lease modified), the generation changed or the layer became unusable,
     * or $untilMs (hrtime ms); without markers, at most 25 ms.
     *
     * @param array<string,string>|null $marks local key => the bytes it held when armed
     */
    private function waitFor(?array $marks, ?int $gen, int $untilMs): void
    {
        $now = intdiv(hrtime(true), 1000000);
        if ($marks === null) {
            usleep(1000 * max(1, min(25, $untilMs - $now)));
            return;
        }
        $sleepUs = 500;
        while ($now < $untilMs) {
            foreach ($marks as $k => $v) {
                if (\shardcache_fetch($k) !== $v) {
                    return;
                }
            }
            if ($this->usableGeneration($now) !== $gen) {
                return;
            }
            usleep(min($sleepUs, 1000 * max(1, $untilMs - $now)));
            $sleepUs = min(8000, 2 * $sleepUs);
            $now = intdiv(hrtime(true), 1000000);
        }
    }

    /**
     * Computes $key's value with $callback, stores it with its computation
     * time if the lease $token is still held (null: none held, never
     * stored; nor when the callback said not to, or the TTL is <= 0) and
     * releases the lease.
     *
     * @param null|int|\DateInterval $ttl
     */
    private function compute(string $key, $ttl, callable $callback, ?string $token, ?array &$metadata): mixed
    {
        $leaseKey = $this->leaseKey($key);
        $save = true;
        $t0 = hrtime(true);
        $outer = $this->held[$key] ?? null;     // a nested remember() of the same key
        if ($token !== null) {
            $this->held[$key] = $token;
        }
        try {
            $n = (new \ReflectionFunction(\Closure::fromCallable($callback)))->getNumberOfParameters();
            $args = [&$ttl, &$save];
            $value = $callback(...array_slice($args, 0, max(0, min(2, $n))));
        } catch (\Throwable $ex) {
            if ($token !== null) {
                $this->release($leaseKey, $token);
            }
            throw $ex;
        } finally {
            if ($outer !== null) {
                $this->held[$key] = $outer;
            } else {
                unset($this->held[$key]);
            }
        }
        $ctime = (int) ceil((hrtime(true) - $t0) / 1e6);
        $ms = $this->ttlMs($ttl);
        $metadata = ['expiry' => $ms === null ? null : microtime(true) + $ms / 1000, 'ctime' => $ctime];
        if ($token === null) {
            return $value;      // no lease: nothing proves that no write came since the callback began
        }
        $body = $save && ($ms === null || $ms > 0) ? $this->encode($value) : null;
        if ($body === null) {
            $this->release($leaseKey, $token);
            return $value;
        }
        $stored = 0;
        if ($rc = $this->redis()) {
            try {
                $payload = self::META . pack('N', min($ctime, 0xffffffff)) . $body;
                $stored = $this->evalWithLease($rc, self::STORE_LUA, $key, [$token, $payload, $ms === null ? '' : (string) $ms], $token);
            } catch (\Throwable) {
                $this->failed();
                $stored = null;     // unknown
            }
        }
        if ($stored !== 0) {
            $this->dropLocal([$key]);
        }
        return $value;
    }

    /**
     * If the lease KEYS[2] still holds ARGV[1]: deletes it and SETs KEYS[1]
     * ARGV[2] (PX ARGV[3] unless ''); returns 1. Otherwise (the lease expired,
     * or a write of the key deleted it) returns 0 and writes nothing.
     */
    private const STORE_LUA = "if redis.call('get', KEYS[2]) ~= ARGV[1] then return 0 end redis.call('del', KEYS[2]) "
        . "if ARGV[3] == '' then redis.call('set', KEYS[1], ARGV[2]) else redis.call('set', KEYS[1], ARGV[2], 'px', ARGV[3]) end return 1";

    /** Deletes the lease key if it still holds $token. */
    private const RELEASE_LUA = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

    private function release(string $leaseKey, string $token): void
    {
        if ($rc = $this->redis()) {
            try {
                $rc->eval(self::RELEASE_LUA, [$leaseKey, $token], 1);
            } catch (\RedisException|\RedisClusterException) {
                $this->failed();
            }
        }
    }

    /**
     * Test seam: called after a Redis read of $keys returned and before the
     * local copies are installed (the window of the near-cache race). Does
     * nothing here; tests override it to stop a reader exactly there.
     *
     * @param list<string> $keys
     */
    protected function afterRedisRead(array $keys): void
    {
    }

    // ---- internals ---------------------------------------------------------

    /**
     * The valid local copy of $key ($found), with its computation ms ($ctime,
     * 0 if not stored by remember()) and the ms it has left ($left, null:
     * no expiry).
     */
    private function localGet(int $gen, int $now, string $key, ?bool &$found, ?int &$ctime = null, ?int &$left = null): mixed
    {
        $found = false;
        $e = \shardcache_fetch($this->lprefix . 'e:' . $key);
        if (!is_string($e)) {
            return null;
        }
        $v = \shardcache_fetch(($gen === $this->stateGen ? $this->vprefix : $this->lprefix . $gen . ':v:') . $key);
        // EPOCH (8 bytes) . EXPMS (8 bytes, all zero: none) . payload
        if (!is_string($v) || strlen($v) < 16 || strncmp($v, $e, 8) !== 0) {
            return null;
        }
        $left = null;
        if (substr_compare($v, self::NO_EXPIRY, 8, 8) !== 0) {
            $left = unpack('q', $v, 8)[1] - $now;
            if ($left <= 0) {
                return null;
            }
        }
        $found = true;
        return $this->decode(substr($v, 16), $ctime);
    }

    /**
     * Reads $keys from Redis; installs local copies when $gen is not null.
     * Returns key => value for the keys Redis holds, or null on a Redis error.
     *
     * $meta: key => [computation ms (0: not from remember()), ms left (null: no expiry)].
     *
     * @param list<string> $keys
     * @return array<string,mixed>|null
     */
    private function fetchRemote(array $keys, ?int $gen, ?array &$meta = null): ?array
    {
        $meta = [];
        $epochs = [];
        $token = '';
        if ($gen !== null) {
            $token = $this->stateToken;     // of $gen: usableGeneration() just read both
            foreach ($keys as $k) {
                $epochs[$k] = $this->epoch($k);    // before the Redis read
            }
        }
        $t0 = intdiv(hrtime(true), 1000000);
        try {
            if (!($r = $this->redis())) {
                return null;
            }
            if ($this->cluster) {
                $res = $this->readCluster($r, $keys);
                if ($token !== NearCache\ClusterSync::TOKEN) {
                    // No state, or one published by a Sync of a single Redis
                    // (it would track one node of the cluster): cache nothing.
                    $epochs = [];
                }
            } else {
                $res = $this->readOne($r, $keys, $gen, $token);
                if ($res === null) {
                    $epochs = [];   // read, but not to be cached
                    $res = $this->lastRead;
                }
            }
        } catch (\Throwable) {
            $this->failed();
            $res = null;
        }
        if (!is_array($res) || count($res) !== 2 * count($keys)) {
            return null;
        }
        $this->afterRedisRead($keys);
        $out = [];
        foreach ($keys as $i => $k) {
            $payload = $res[2 * $i];
            $pttl = $res[2 * $i + 1];
            if (!is_string($payload)) {
                continue;
            }
            $out[$k] = $this->decode($payload, $ctime);
            $meta[$k] = [$ctime, is_int($pttl) && $pttl >= 0 ? $pttl : null];
            $e = $epochs[$k] ?? null;
            // PTTL: -1 no expiry, -2 gone, 0 the key's last millisecond (GET
            // still returned it; Redis rounds the time left down). A copy must
            // expire at $t0 + PTTL at the latest ($t0 is taken before the
            // read), so with 0 there is nothing left to cache.
            if ($e === null || !is_int($pttl) || ($pttl !== -1 && $pttl <= 0)) {
                continue;
            }
            $exp = $pttl > 0 ? $t0 + $pttl : 0;
            if ($this->localTtl > 0 && ($exp === 0 || $exp > $t0 + 1000 * $this->localTtl)) {
                $exp = $t0 + 1000 * $this->localTtl;
            }
            // The segment's own TTL (whole seconds) only frees memory; the
            // exact expiry is $exp, checked on every hit.
            $ttl = $exp === 0 ? 0 : intdiv($exp - $t0 + 999, 1000) + 1;
            \shardcache_store($this->lprefix . $gen . ':v:' . $k, $e . pack('q', $exp) . $payload, $ttl);
        }
        return $out;
    }

    /** @var list<mixed> the replies of a read that returned null (not to be cached) */
    private array $lastRead = [];

    /**
     * GET and PTTL of $keys from one Redis in one round trip: VALUE, PTTL,
     * VALUE, PTTL, ... When a copy is to be made ($gen), one MULTI that also
     * reads the database token; if it is not $token (SWAPDB not yet seen by
     * the sync, or no token known), the replies are in $lastRead and null is
     * returned: give them to the caller, cache nothing.
     *
     * @param list<string> $keys
     * @return list<mixed>|null
     */
    private function readOne(\Redis $r, array $keys, ?int $gen, string $token): ?array
    {
        $p = $r->multi(\Redis::PIPELINE);
        if ($gen !== null) {
            $p->multi();
        }
        foreach ($keys as $k) {
            $p->get($this->rprefix . $k);
            $p->pttl($this->rprefix . $k);
        }
        if ($gen !== null) {
            $p->get($this->tokenKey);
            $p->exec();
        }
        $res = $p->exec();
        if ($gen === null) {
            return is_array($res) ? $res : [];
        }
        $res = is_array($res) && is_array($res[0] ?? null) ? $res[0] : [];
        $rtoken = array_pop($res);
        if ($rtoken !== $token || $token === '') {
            $this->lastRead = $res;
            return null;
        }
        return $res;
    }

    /**
     * The same over a cluster: per key, GET and PTTL in one EVAL on the key's
     * node. A cluster has one database (no SWAPDB): no token to read.
     *
     * @param list<string> $keys
     * @return list<mixed>
     */
    private function readCluster(\RedisCluster $r, array $keys): array
    {
        $res = [];
        foreach ($keys as $k) {
            $gp = $r->eval(self::GET_PTTL_LUA, [$this->rprefix . $k], 1);
            if (!is_array($gp) || count($gp) !== 2) {
                throw new \RuntimeException('GET/PTTL failed');
            }
            array_push($res, $gp[0], $gp[1]);
        }
        return $res;
    }

    /** A key's value (nil) and its PTTL, read at one moment. */
    private const GET_PTTL_LUA = "return {redis.call('GET', KEYS[1]), redis.call('PTTL', KEYS[1])}";

    /** The key's epoch (8 random bytes, never reused), created when absent; null if the segment refuses. */
    private function epoch(string $key): ?string
    {
        $ek = $this->lprefix . 'e:' . $key;
        $e = \shardcache_fetch($ek);
        if (is_string($e) && strlen($e) === 8) {
            return $e;
        }
        \shardcache_add($ek, random_bytes(8));
        $e = \shardcache_fetch($ek);
        return is_string($e) && strlen($e) === 8 ? $e : null;
    }

    /** @param list<string> $keys */
    private function dropLocal(array $keys): void
    {
        if (!$this->local) {
            return;
        }
        $state = Layout::readState($this->ns);
        foreach ($keys as $k) {
            \shardcache_delete($this->lprefix . 'e:' . $k);
            if ($state !== null) {
                \shardcache_delete($this->lprefix . $state[0] . ':v:' . $k);   // memory only
            }
        }
    }

    /** @param list<string> $keys */
    private function deleteKeys(array $keys): bool
    {
        if (!$keys) {
            return true;
        }
        $ok = false;
        if ($r = $this->redis()) {
            try {
                // Each key's lease with it (before it, where a cluster
                // splits the DEL: the same slot, so one command anyway).
                $del = [];
                foreach ($keys as $k) {
                    array_push($del, $this->leaseKey($k), $this->rprefix . $k);
                }
                $this->cluster && $r->clearLastError();
                $ok = $r->del($del);
                if ($this->tryAgain($r, $ok)) {
                    $ok = true;
                    foreach ($del as $rk) {     // each lease before its key
                        $ok = $r->del($rk) !== false && $ok;
                    }
                }
                $ok = $ok !== false;
            } catch (\RedisException|\RedisClusterException) {
                $this->failed();
            }
        }
        $this->dropLocal($keys);
        return $ok;
    }

    /** The connection, opened again after a failure (rate-limited); null while down. */
    private function redis(): \Redis|\RedisCluster|null
    {
        if ($this->downSince === 0 || $this->cluster) {
            return $this->redis;
        }
        $now = intdiv(hrtime(true), 1000000);
        if ($now - $this->downSince < $this->reconnectMs) {
            return null;
        }
        $r = $this->redis;
        try {
            [$pid, $host, $port, $timeout, $auth, $db, $readTimeout] = $this->conn;
            if ($host === '') {
                throw new \RuntimeException('the \Redis object was not connected');
            }
            try {
                $r->close();
            } catch (\Throwable) {
            }
            $ok = is_string($pid) && $pid !== ''
                ? $r->pconnect($host, $port, $timeout, $pid, 0, $readTimeout)
                : $r->connect($host, $port, $timeout, null, 0, $readTimeout);
            if (!$ok) {
                throw new \RedisException('connect failed');
            }
            if ($readTimeout > 0) {
                $r->setOption(\Redis::OPT_READ_TIMEOUT, $readTimeout);
            }
            if ($auth !== null && $auth !== false) {
                $r->auth($auth);
            }
            if ($db) {
                $r->select($db);
            }
        } catch (\Throwable) {
            $this->downSince = $now ?: 1;
            return null;
        }
        $this->downSince = 0;
        return $r;
    }

    private function failed(): void
    {
        if ($this->cluster) {
            return;         // phpredis finds the nodes again by itself
        }
        try {
            $this->redis->discard();     // leave pipeline mode if the error came in it
        } catch (\Throwable) {
        }
        $this->downSince = intdiv(hrtime(true), 1000000) ?: 1;
    }

    /** The bytes stored for $value (see the class comment), or null if it cannot be serialized. */
    private function encode(mixed $value): ?string
    {
        if (is_string($value) && !$this->legacyValues && !str_starts_with($value, self::TAG_HEAD)) {
            return $value;
        }
        try {
            return self::TAG . serialize($value);
        } catch (\Throwable) {
            return null;
        }
    }

    /** The value of $payload; $ctime: the computation ms stored by remember(), else 0. */
    private function decode(string $payload, ?int &$ctime = null): mixed
    {
        $ctime = 0;
        if (str_starts_with($payload, self::META) && strlen($payload) >= strlen(self::META) + 4) {
            $ctime = unpack('N', $payload, strlen(self::META))[1];
            $payload = substr($payload, strlen(self::META) + 4);
        }
        if (!str_starts_with($payload, self::TAG)) {
            return $this->legacyValues ? $this->unserialize($payload, $payload) : $payload;
        }
        return $this->unserialize(substr($payload, strlen(self::TAG)), $payload);
    }

    /** unserialize($s) with allowed_classes; $raw when $s is not a serialized value. */
    private function unserialize(string $s, string $raw): mixed
    {
        if ($s === 'b:0;') {
            return false;
        }
        try {
            $v = @unserialize($s, ['allowed_classes' => $this->allowedClasses]);
        } catch (\Throwable) {
            return $raw;            // e.g. an allowed class whose __unserialize() throws
        }
        return $v === false ? $raw : $v;
    }

    /** @param mixed $key */
    private function checkKey($key): void
    {
        if (!is_string($key) || $key === '' || strpbrk($key, '{}()/\\@:') !== false) {
            throw new InvalidArgumentException('invalid cache key' . (is_string($key) ? " '$key'" : ' of type ' . get_debug_type($key)));
        }
    }

    /** @return list<string> */
    private function keyList($keys): array
    {
        if (!is_iterable($keys)) {
            throw new InvalidArgumentException('keys must be iterable');
        }
        $out = [];
        foreach ($keys as $k) {
            $this->checkKey($k);
            $out[] = $k;
        }
        return $out;
    }

    /**
     * null: no expiry; otherwise milliseconds (<= 0: already expired, delete).
     * PSR-16 allows any int and any DateInterval: a TTL beyond MAX_TTL_S
     * (also PHP_INT_MAX, which would overflow in ms) is clamped to it.
     */
    private function ttlMs($ttl): ?int
    {
        if ($ttl === null) {
            return null;
        }
        if (is_int($ttl)) {
            $s = $ttl;
        } elseif ($ttl instanceof \DateInterval) {
            // Relative to now, as PSR-16 says (a month from now, not from 1970).
            $now = new \DateTimeImmutable('@' . time());
            try {
                $s = $now->add($ttl)->getTimestamp() - $now->getTimestamp();
            } catch (\Throwable) {
                throw new InvalidArgumentException('invalid TTL: a DateInterval out of range');
            }
            if (!is_int($s)) {          // int overflow
                $s = $s > 0 ? PHP_INT_MAX : PHP_INT_MIN;
            }
        } else {
            throw new InvalidArgumentException('invalid TTL of type ' . get_debug_type($ttl));
        }
        return $s <= 0 ? 0 : 1000 * min($s, self::MAX_TTL_S);
    }
}
