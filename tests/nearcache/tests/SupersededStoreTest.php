<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use Shardcache\NearCacheTests\Support\RedisServer;
use Shardcache\NearCacheTests\Support\SupersededStoreCases;

/** SupersededStoreCases against one private redis-server. */
final class SupersededStoreTest extends SupersededStoreCases
{
    private static ?RedisServer $redis = null;

    protected static function startRedis(): int|string
    {
        self::$redis = new RedisServer();
        return self::$redis->port;
    }

    protected static function stopRedis(): void
    {
        self::$redis = null;
    }

    protected static function client(): \Redis
    {
        return self::$redis->client();
    }
}
