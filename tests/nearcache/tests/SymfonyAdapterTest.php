<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use Cache\IntegrationTests\CachePoolTest;
use Shardcache\NearCache;
use Shardcache\NearCache\Symfony\NearCacheAdapter;
use Shardcache\NearCacheTests\Support\RedisAndSync;
use Symfony\Contracts\Cache\ItemInterface;

/**
 * The PSR-6 integration suite (cache/integration-tests, Debian's
 * php-cache-integration-tests) against the Symfony adapter, with the local
 * layer in use (this process's segment, a forked sync), and Symfony's
 * CacheInterface::get() contract (callback item, $save, beta, metadata).
 */
final class SymfonyAdapterTest extends CachePoolTest
{
    use RedisAndSync;

    public static function setUpBeforeClass(): void
    {
        self::startRedisAndSync('psr6', true);
    }

    public static function tearDownAfterClass(): void
    {
        self::stopRedisAndSync();
    }

    public function createCachePool()
    {
        // The suite stores objects (stdClass and its own test classes).
        return new NearCacheAdapter(new NearCache(self::$redis->client(), 'psr6', ['allowed_classes' => true]));
    }

    /**
     * The suite predates psr/cache 2.0, whose methods take string keys: a key
     * of another type is then PHP's TypeError (or, from a caller without
     * strict_types, coerced: true is "1", a valid key), as for every PSR-6
     * 2.0+ pool. The string keys stay; the others are checked below.
     */
    public static function invalidKeys()
    {
        return array_values(array_filter(parent::invalidKeys(), static fn (array $k) => is_string($k[0])));
    }

    public function testNonStringKeysAreTypeErrors(): void
    {
        foreach ([true, null, 2, 2.5, new \stdClass(), ['array']] as $key) {
            foreach (['getItem', 'hasItem', 'deleteItem'] as $m) {
                try {
                    $this->cache->$m($key);
                    $this->fail("$m() took a key of type " . get_debug_type($key));
                } catch (\TypeError) {
                    $this->addToAssertionCount(1);
                }
            }
        }
    }

    public function testContractGetComputesOnceAndStores(): void
    {
        $calls = 0;
        $cb = function (ItemInterface $item, bool &$save) use (&$calls) {
            $calls++;
            $this->assertSame('contract', $item->getKey());
            $this->assertFalse($item->isHit());
            $item->expiresAfter(30);
            return ['n' => $calls];
        };
        $this->assertSame(['n' => 1], $this->cache->get('contract', $cb, null, $meta));
        $this->assertSame(['n' => 1], $this->cache->get('contract', $cb, 0.0, $meta));
        $this->assertSame(1, $calls);
        $this->assertEqualsWithDelta(microtime(true) + 30, $meta[ItemInterface::METADATA_EXPIRY], 1.5);
        $this->assertArrayHasKey(ItemInterface::METADATA_CTIME, $meta);
        $pttl = self::$redis->client()->pttl('psr6:contract');
        $this->assertGreaterThan(28000, $pttl);
        $this->assertLessThanOrEqual(30000, $pttl);
        // The stored value is a PSR-6 hit too.
        $this->assertSame(['n' => 1], $this->cache->getItem('contract')->get());
        // beta INF: recomputed now.
        $this->assertSame(['n' => 2], $this->cache->get('contract', $cb, INF));
    }

    public function testContractSaveFalseAndNegativeBeta(): void
    {
        $this->assertSame('x', $this->cache->get('nosave', function (ItemInterface $item, bool &$save) {
            $save = false;
            return 'x';
        }));
        $this->assertFalse($this->cache->hasItem('nosave'));
        $this->assertTrue($this->cache->delete('nosave'));
        $this->expectException(\Psr\Cache\InvalidArgumentException::class);
        $this->cache->get('k', fn () => 1, -1.0);
    }

    public function testTagsAreRefused(): void
    {
        $this->expectException(\Psr\Cache\CacheException::class);
        $this->cache->get('tagged', fn (ItemInterface $item) => $item->tag('t'));
    }
}
