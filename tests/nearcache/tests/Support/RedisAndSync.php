<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests\Support;

use Shardcache\NearCache;

/**
 * A test class's private redis-server and the sync process of one
 * namespace, forked from the PHPUnit process (it shares this process's
 * segment): started in setUpBeforeClass, stopped in tearDownAfterClass.
 */
trait RedisAndSync
{
    private static ?RedisServer $redis = null;
    private static ?ForkedSync $sync = null;

    /** $healthy: wait until a NearCache of $namespace may use the local layer. */
    private static function startRedisAndSync(string $namespace, bool $healthy = false): void
    {
        self::$redis = new RedisServer();
        self::$sync = new ForkedSync(self::$redis->port, $namespace);
        if ($healthy && !ForkedSync::waitUsable(new NearCache(self::$redis->client(), $namespace))) {
            throw new \RuntimeException('the sync process never became healthy');
        }
    }

    private static function stopRedisAndSync(): void
    {
        self::$sync?->stop();
        self::$sync = null;
        self::$redis = null;
    }
}
