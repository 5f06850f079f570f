<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use Cache\IntegrationTests\SimpleCacheTest;
use Shardcache\NearCache;
use Shardcache\NearCacheTests\Support\RedisAndSync;

/**
 * The PSR-16 integration suite (cache/integration-tests) against NearCache,
 * with the local layer in use: this PHPUnit process owns the shardcache
 * segment and forks the sync process, which shares it.
 */
final class Psr16Test extends SimpleCacheTest
{
    use RedisAndSync;

    public static function setUpBeforeClass(): void
    {
        self::startRedisAndSync('psr16', true);
    }

    public static function tearDownAfterClass(): void
    {
        self::stopRedisAndSync();
    }

    public function createSimpleCache()
    {
        // The suite stores stdClass objects.
        return new NearCache(self::$redis->client(), 'psr16', ['allowed_classes' => [\stdClass::class]]);
    }

    /** The suite's get()s must have gone through the local layer, not around it. */
    public function testLocalLayerIsInUse(): void
    {
        $this->cache->set('local', 'v');
        $r = self::$redis->client();
        // Local hits must not reach Redis: the server counts its GETs. On a
        // loaded machine the sync's heartbeat can be late, and the layer is
        // then bypassed for a moment, as it must be: up to 5 attempts of 100
        // gets, one of which must make no Redis GET at all.
        $gets = [];
        for ($attempt = 1; $attempt <= 5; $attempt++) {
            $deadline = microtime(true) + 5;
            while ($this->cache->localGeneration() === null && microtime(true) < $deadline) {
                usleep(1000);
            }
            $this->assertNotNull($this->cache->localGeneration(), 'the sync is healthy');
            $this->assertSame('v', $this->cache->get('local'));     // at most one Redis read, local fill
            $before = self::getCalls($r);
            for ($i = 0; $i < 100; $i++) {
                $this->assertSame('v', $this->cache->get('local'));
            }
            $gets[] = self::getCalls($r) - $before;
            if (end($gets) === 0) {
                break;
            }
        }
        $this->assertSame(0, end($gets), '100 local hits made no Redis GET (Redis GETs per attempt: ' . implode(', ', $gets) . ')');
    }

    private static function getCalls(\Redis $r): int
    {
        $s = $r->info('commandstats');
        if (!isset($s['cmdstat_get'])) {
            return 0;
        }
        preg_match('/calls=(\d+)/', $s['cmdstat_get'], $m);
        return (int) $m[1];
    }
}
