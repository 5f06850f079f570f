<?php

declare(strict_types=1);

namespace Shardcache\NearCache;

/**
 * The names and formats that NearCache (the readers and writers) and Sync (the
 * one invalidating process per host) share, in Redis and in the host's
 * shardcache segment. Namespace "ns":
 *
 * Redis
 *   ns:KEY                 the value of KEY: serialize()d PHP value
 *   ns:@hb:SID:TMS         heartbeat keys of the sync process SID (TMS: its
 *                          hrtime in ms when it sent the SET); PSR-16 keys
 *                          cannot hold '@', so these never meet user keys.
 *                          On a Redis Cluster: ns:@hb:SID:{TAG}:TMS, TAG a
 *                          hash tag of a slot of the master it is sent to
 *   ns:@db                 the database's token: 16 random hex digits, made
 *                          (SET NX) by the first sync that finds none. It
 *                          travels with the database's keys, so a SWAPDB
 *                          (which Redis reports to no tracking client) or a
 *                          FLUSHDB shows as a token change. Every sync reads
 *                          it atomically with each heartbeat SET; readers read
 *                          it atomically with the values they cache. Not
 *                          on a Redis Cluster (one database, no SWAPDB):
 *                          there the state's TOKEN is "cluster".
 *   ns:@l:{ns:KEY}         remember()'s computation lease of KEY: a random
 *                          token, SET NX PX lease_ms by the process that
 *                          computes KEY. Its hash tag is the value key ns:KEY,
 *                          so both are in one Redis Cluster slot (one Lua
 *                          script may use both). The holder stores the value
 *                          and deletes the lease in one script, only while
 *                          the lease still holds its token; every write of
 *                          KEY (set, delete, add, increment, clear) deletes
 *                          the lease in the same command or script (or just
 *                          before its SET), so a computation that started
 *                          before a write never stores after it.
 *
 * Local segment (shardcache_* functions)
 *   nc:ns:@state           pack('q2', GEN, HBMS) . TOKEN; written by Sync only.
 *                          GEN names the generation of local values; HBMS is
 *                          the send time (hrtime, ms) of the last heartbeat
 *                          whose invalidation Sync has received and applied, 0
 *                          while Sync is disconnected or stopped. Readers use
 *                          the local layer only while now - HBMS <= max lag.
 *                          TOKEN is the database token read with the heartbeats
 *                          of GEN (a new token: a new generation); a reader
 *                          installs a copy under GEN only if the token it read
 *                          with the value is TOKEN ('' while unknown: none).
 *   nc:ns:e:KEY            epoch of KEY: 8 random bytes, created
 *                          by a reader (shardcache_add) when absent, deleted by
 *                          Sync when Redis reports KEY modified and by a writer
 *                          after its Redis write. Never reused (random), so a
 *                          value tagged with an epoch is dead once the epoch
 *                          key changed or vanished (delete, TTL, eviction).
 *   nc:ns:l:KEY            wake marker of remember()'s waiters for KEY: 8
 *                          random bytes (shardcache_add by a waiter), deleted
 *                          by Sync when Redis reports ns:@l:{ns:KEY} modified
 *                          (taken, released, expired). Waiters also watch
 *                          the epoch, which Sync deletes when KEY is written.
 *   nc:ns:GEN:v:KEY        EPOCH . pack('q', EXPMS) . payload: the local copy,
 *                          valid only while the epoch key still holds EPOCH,
 *                          the generation is GEN and hrtime ms < EXPMS (0: none).
 *
 * @internal
 */
final class Layout
{
    public const INVALIDATE_CHANNEL = '__redis__:invalidate';

    public static function checkNamespace(string $ns): void
    {
        if (!preg_match('/^[A-Za-z0-9_.-]{1,64}$/D', $ns)) {
            throw new \InvalidArgumentException("invalid near-cache namespace '$ns' (1-64 of A-Z a-z 0-9 _ . -)");
        }
    }

    /** The Redis key prefix of a namespace (also the CLIENT TRACKING BCAST prefix). */
    public static function redisPrefix(string $ns): string
    {
        return $ns . ':';
    }

    /** The local key prefix of a namespace. */
    public static function localPrefix(string $ns): string
    {
        return 'nc:' . $ns . ':';
    }

    public static function stateKey(string $ns): string
    {
        return 'nc:' . $ns . ':@state';
    }

    /** The Redis key of the database token of a namespace. */
    public static function tokenKey(string $ns): string
    {
        return $ns . ':@db';
    }

    /** The Redis key of KEY's computation lease (NearCache::remember()). */
    public static function leaseKey(string $ns, string $key): string
    {
        return $ns . ':@l:{' . $ns . ':' . $key . '}';
    }

    /**
     * KEY of a lease key given without its "ns:" (as "@l:{ns:KEY}"); the
     * part after "@l:" as it is for any other form.
     */
    public static function leasedKey(string $ns, string $rest): string
    {
        $k = substr($rest, 3);
        $head = '{' . $ns . ':';
        return str_starts_with($k, $head) && str_ends_with($k, '}') ? substr($k, strlen($head), -1) : $k;
    }

    /** The state's bytes (see nc:ns:@state). */
    public static function packState(int $gen, int $hbMs, string $token): string
    {
        return pack('q2', $gen, $hbMs) . $token;
    }

    /** Heartbeat key prefix of one sync process (then the ms send time). */
    public static function heartbeatPrefix(string $ns, string $sid): string
    {
        return $ns . ':@hb:' . $sid . ':';
    }

    /** hrtime in ms: CLOCK_MONOTONIC, the same clock for every process of a host. */
    public static function nowMs(): int
    {
        return intdiv(hrtime(true), 1000000);
    }

    /** @return array{0:int,1:int,2:string}|null [generation, heartbeat ms, database token] */
    public static function readState(string $ns): ?array
    {
        $s = \shardcache_fetch(self::stateKey($ns));
        if (!is_string($s) || strlen($s) < 16) {
            return null;
        }
        $u = unpack('q2', $s);
        return [$u[1], $u[2], substr($s, 16)];
    }
}
