<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use Cache\IntegrationTests\SimpleCacheTest;
use Shardcache\NearCache;
use Shardcache\NearCacheTests\Support\RedisServer;

/**
 * The PSR-16 integration suite against NearCache with no sync process for
 * its namespace: the local layer is bypassed and every call goes to Redis.
 */
final class Psr16RedisOnlyTest extends SimpleCacheTest
{
    private static ?RedisServer $redis = null;

    public static function setUpBeforeClass(): void
    {
        self::$redis = new RedisServer();
    }

    public static function tearDownAfterClass(): void
    {
        self::$redis = null;
    }

    public function createSimpleCache()
    {
        // The suite stores stdClass objects.
        return new NearCache(self::$redis->client(), 'psr16ro', ['allowed_classes' => [\stdClass::class]]);
    }

    public function testLocalLayerIsBypassed(): void
    {
        $this->assertNull($this->cache->localGeneration());
        $this->cache->set('k', 'v');
        $this->assertSame('v', $this->cache->get('k'));
        $this->assertSame(0, iterator_count(new \APCUIterator('/^nc:psr16ro:/')), 'nothing was stored locally');
    }
}
