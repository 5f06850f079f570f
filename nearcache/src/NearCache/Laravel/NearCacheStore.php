<?php

declare(strict_types=1);

namespace Shardcache\NearCache\Laravel;

use Illuminate\Contracts\Cache\Store;
use Shardcache\NearCache;

/**
 * A Laravel cache store (Illuminate\Contracts\Cache\Store) over NearCache.
 * Laravel keys may hold characters that PSR-16 reserves ("user:1"): those,
 * and "%", are stored %XX-escaped (injective; a key without them is stored as
 * it is). Values and TTLs as NearCache; increment()/decrement() and add()
 * are atomic in Redis (NearCache::increment(), NearCache::add()). remember() here is NearCache::remember():
 * one computation for the whole site (Laravel's Repository::remember() is
 * get-then-put, once per process).
 */
final class NearCacheStore implements Store
{
    public function __construct(private NearCache $cache)
    {
    }

    public function getNearCache(): NearCache
    {
        return $this->cache;
    }

    public function get($key)
    {
        return $this->cache->get(self::k($key));
    }

    public function many(array $keys)
    {
        $out = [];
        $vals = $this->cache->getMultiple(array_map(self::k(...), $keys));
        foreach ($keys as $k) {
            $out[$k] = $vals[self::k($k)] ?? null;
        }
        return $out;
    }

    public function put($key, $value, $seconds)
    {
        return $this->cache->set(self::k($key), $value, max(1, (int) $seconds));
    }

    public function putMany(array $values, $seconds)
    {
        $enc = [];
        foreach ($values as $k => $v) {
            $enc[self::k((string) $k)] = $v;
        }
        return $this->cache->setMultiple($enc, max(1, (int) $seconds));
    }

    /**
     * Stores the value only if the key holds none, atomically in Redis (one
     * SET NX with the TTL: of racing add()s on every host exactly one
     * returns true). Laravel's Repository::add() calls it when given a TTL;
     * without a TTL, Laravel itself does get-then-put(), which is not atomic:
     * call the store's add() with $seconds = null for a key without expiry.
     */
    public function add($key, $value, $seconds)
    {
        return $this->cache->add(self::k($key), $value, $seconds === null ? null : max(1, (int) $seconds));
    }

    public function increment($key, $value = 1)
    {
        return $this->cache->increment(self::k($key), (int) $value);
    }

    public function decrement($key, $value = 1)
    {
        return $this->cache->increment(self::k($key), -(int) $value);
    }

    public function forever($key, $value)
    {
        return $this->cache->set(self::k($key), $value);
    }

    public function forget($key)
    {
        return $this->cache->delete(self::k($key));
    }

    public function flush()
    {
        return $this->cache->clear();
    }

    public function getPrefix()
    {
        return $this->cache->getNamespace() . ':';
    }

    /**
     * NearCache::remember() (one computation for the whole site, XFetch with
     * $beta); $ttl in seconds (null: forever).
     */
    public function remember(string $key, ?int $ttl, callable $callback, float $beta = 1.0): mixed
    {
        return $this->cache->remember(self::k($key), $ttl, $callback, $beta);
    }

    /** The NearCache key of a Laravel key. */
    private static function k(mixed $key): string
    {
        $key = (string) $key;
        if ($key === '') {
            return '%';
        }
        return strpbrk($key, '%{}()/\@:') === false ? $key : strtr($key, [
            '%' => '%25', '{' => '%7B', '}' => '%7D', '(' => '%28', ')' => '%29',
            '/' => '%2F', '\\' => '%5C', '@' => '%40', ':' => '%3A',
        ]);
    }
}
