<?php

declare(strict_types=1);

namespace Shardcache\NearCache\Symfony;

use Psr\Cache\CacheItemInterface;
use Psr\Cache\CacheItemPoolInterface;
use Shardcache\NearCache;
use Symfony\Contracts\Cache\CacheInterface;
use Symfony\Contracts\Cache\ItemInterface;

/**
 * A PSR-6 pool and Symfony cache (symfony/cache-contracts) over NearCache:
 * get($key, $callback, $beta) is NearCache::remember(), so a missing value is
 * computed once for the whole site and recomputed early (XFetch, $beta).
 * Tags are not supported (tag() throws). Deferred items are committed on
 * commit(), on the next read of the pool, and on destruction.
 */
final class NearCacheAdapter implements CacheItemPoolInterface, CacheInterface
{
    private const RESERVED = '{}()/\@:';

    /** @var array<string,CacheItem> */
    private array $deferred = [];
    private object $miss;

    /** @param int $defaultLifetime seconds an item lives without its own expiry (0: no expiry) */
    public function __construct(private NearCache $cache, private int $defaultLifetime = 0)
    {
        $this->miss = new \stdClass();
    }

    public function getNearCache(): NearCache
    {
        return $this->cache;
    }

    public function getItem(string $key): CacheItemInterface
    {
        self::checkKey($key);
        $this->commit();
        $v = $this->cache->get($key, $this->miss);
        return $v === $this->miss ? new CacheItem($key) : new CacheItem($key, $v, true);
    }

    /** @return iterable<string,CacheItemInterface> */
    public function getItems(array $keys = []): iterable
    {
        foreach ($keys as $k) {
            self::checkKey($k);
        }
        $this->commit();
        $out = [];
        if ($keys) {
            foreach ($this->cache->getMultiple($keys, $this->miss) as $k => $v) {
                $out[$k] = $v === $this->miss ? new CacheItem($k) : new CacheItem($k, $v, true);
            }
        }
        return $out;
    }

    public function hasItem(string $key): bool
    {
        self::checkKey($key);
        $this->commit();
        return $this->cache->has($key);
    }

    public function clear(): bool
    {
        $this->deferred = [];
        return $this->cache->clear();
    }

    public function deleteItem(string $key): bool
    {
        self::checkKey($key);
        unset($this->deferred[$key]);
        return $this->cache->delete($key);
    }

    public function deleteItems(array $keys): bool
    {
        foreach ($keys as $k) {
            self::checkKey($k);
        }
        foreach ($keys as $k) {
            unset($this->deferred[$k]);
        }
        return $this->cache->deleteMultiple(array_values($keys));
    }

    public function save(CacheItemInterface $item): bool
    {
        if (!$item instanceof CacheItem) {
            return false;
        }
        $ttl = $item->ttl($this->defaultLifetime);
        if ($ttl === 0) {
            $this->cache->delete($item->getKey());     // already expired: not stored
            return true;
        }
        return $this->cache->set($item->getKey(), $item->get(), $ttl);
    }

    public function saveDeferred(CacheItemInterface $item): bool
    {
        if (!$item instanceof CacheItem) {
            return false;
        }
        $this->deferred[$item->getKey()] = clone $item;
        return true;
    }

    public function commit(): bool
    {
        $ok = true;
        $items = $this->deferred;
        $this->deferred = [];
        foreach ($items as $item) {
            $ok = $this->save($item) && $ok;
        }
        return $ok;
    }

    /**
     * Symfony's CacheInterface: the value of $key, computed by
     * $callback(ItemInterface $item, bool &$save) when missing, once for the
     * whole site (NearCache::remember()); $beta as there (null: 1.0, INF:
     * recompute now). The item's expiry set by the callback is the value's
     * TTL (else the default lifetime). $metadata: expiry and ctime.
     */
    public function get(string $key, callable $callback, ?float $beta = null, ?array &$metadata = null): mixed
    {
        self::checkKey($key);
        if ($beta !== null && !($beta >= 0)) {
            throw new InvalidArgumentException(sprintf('Argument "$beta" provided to "%s::get()" must be a positive number, %f given.', self::class, $beta));
        }
        $this->commit();
        $value = $this->cache->remember($key, $this->defaultLifetime > 0 ? $this->defaultLifetime : null, function (&$ttl, &$save) use ($key, $callback) {
            $item = new CacheItem($key);
            $value = $callback($item, $save);
            $ttl = $item->ttl($this->defaultLifetime);
            return $value;
        }, $beta ?? 1.0, $m);
        $metadata = [];
        if ($m['expiry'] !== null) {
            $metadata[ItemInterface::METADATA_EXPIRY] = $m['expiry'];
        }
        if ($m['ctime'] > 0) {
            $metadata[ItemInterface::METADATA_CTIME] = $m['ctime'];
        }
        return $value;
    }

    public function delete(string $key): bool
    {
        return $this->deleteItem($key);
    }

    public function __destruct()
    {
        $this->commit();
    }

    private static function checkKey(mixed $key): void
    {
        if (!is_string($key) || $key === '' || strpbrk($key, self::RESERVED) !== false) {
            throw new InvalidArgumentException('invalid cache key' . (is_string($key) ? " \"$key\"" : ' of type ' . get_debug_type($key)));
        }
    }
}
