<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use PHPUnit\Framework\TestCase;
use Shardcache\NearCache;
use Shardcache\NearCacheTests\Support\CountingRedis;
use Shardcache\NearCacheTests\Support\ForkedSync;
use Shardcache\NearCacheTests\Support\RedisServer;

/**
 * TTLs: a local copy never outlives the Redis key it was read from (PTTL 0:
 * the key's last millisecond).
 */
final class ExpiryTest extends TestCase
{
    private const NS = 'exp';

    private static ?RedisServer $redis = null;
    private static ?ForkedSync $sync = null;

    public static function setUpBeforeClass(): void
    {
        self::$redis = new RedisServer();
        self::$sync = new ForkedSync(self::$redis->port, self::NS);
    }

    public static function tearDownAfterClass(): void
    {
        self::$sync?->stop();
        self::$sync = null;
        self::$redis = null;
    }

    private static function nowMs(): int
    {
        return intdiv(hrtime(true), 1000000);
    }

    /**
     * A value read in its key's last millisecond (GET returns it, PTTL 0) must
     * not be served locally once that millisecond is over: the next get() reads
     * Redis. It used to be stored with "no expiry" (0) and served for ever
     * after the key expired (with no invalidation when nobody touches the
     * expired key: DEBUG SET-ACTIVE-EXPIRE 0).
     */
    public function testValueReadWithPttlZeroIsNotServedAfterItsLastMillisecond(): void
    {
        $admin = self::$redis->client();
        $admin->rawCommand('DEBUG', 'SET-ACTIVE-EXPIRE', '0');
        try {
            $r = CountingRedis::connectTo(self::$redis->port);
            // A long max_lag_ms: the local layer stays usable through the test
            // even if the sync's heartbeat is late on a loaded machine.
            $c = new NearCache($r, self::NS, ['max_lag_ms' => 60000]);
            $this->assertTrue(ForkedSync::waitUsable($c), 'the sync is healthy');
            $gen = $c->localGeneration();
            $this->assertTrue($c->set('last', 'v', 60));
            $this->assertTrue(ForkedSync::waitCovered(self::NS), 'the invalidation of the write was applied');

            $r->lastMillisecond = true;
            $r->gets = 0;
            $this->assertSame('v', $c->get('last'));
            $readAt = self::nowMs();
            $this->assertSame(1, $r->gets, 'read from Redis');
            $r->lastMillisecond = false;
            $this->assertSame($gen, $c->localGeneration(), 'the local layer was usable all along');

            // Wait (bounded) until the key's last millisecond is surely over.
            $deadline = $readAt + 1000;
            while (self::nowMs() <= $readAt + 2 && self::nowMs() < $deadline) {
                usleep(500);
            }
            $r->gets = 0;
            $this->assertSame('v', $c->get('last'));
            $this->assertSame(1, $r->gets, 'no local copy outlives the key: the value was read from Redis again');

            // A key without expiry (PTTL -1) is kept locally, as before.
            $this->assertTrue($c->set('forever', 'f'));
            $this->assertTrue(ForkedSync::waitCovered(self::NS), 'the invalidation of the write was applied');
            $this->assertSame('f', $c->get('forever'));
            $r->gets = 0;
            $this->assertSame('f', $c->get('forever'));
            $this->assertSame(0, $r->gets, 'PTTL -1: a local hit');
        } finally {
            $admin->rawCommand('DEBUG', 'SET-ACTIVE-EXPIRE', '1');
        }
    }
}
