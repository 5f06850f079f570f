<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use PHPUnit\Framework\TestCase;
use Shardcache\NearCache;
use Shardcache\NearCache\InvalidArgumentException;
use Shardcache\NearCacheTests\Support\CountingRedis;
use Shardcache\NearCacheTests\Support\ForkedSync;
use Shardcache\NearCacheTests\Support\RedisAndSync;

/**
 * TTLs: a local copy never outlives the Redis key it was read from (PTTL 0:
 * the key's last millisecond), and set()/setMultiple() take every TTL that
 * PSR-16 allows (huge ints, DateInterval, zero and negative: delete).
 */
final class ExpiryTest extends TestCase
{
    private const NS = 'exp';

    use RedisAndSync;

    public static function setUpBeforeClass(): void
    {
        self::startRedisAndSync(self::NS);
    }

    public static function tearDownAfterClass(): void
    {
        self::stopRedisAndSync();
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

    /** @return array<string, array{0:mixed}> */
    public static function hugeTtls(): array
    {
        return [
            'PHP_INT_MAX' => [PHP_INT_MAX],
            'PHP_INT_MAX / 1000 + 1' => [intdiv(PHP_INT_MAX, 1000) + 1],
            '10^12 s' => [1000000000000],
            'P9999Y' => [new \DateInterval('P9999Y')],
        ];
    }

    /**
     * "Forever" TTLs are accepted (clamped), by set() and setMultiple(); they
     * used to throw TypeError (an int overflowing to float), which PSR-16
     * does not allow.
     *
     * @dataProvider hugeTtls
     */
    public function testHugeTtlIsAccepted(mixed $ttl): void
    {
        $c = new NearCache(self::$redis->client(), self::NS);
        $admin = self::$redis->client();
        $this->assertTrue($c->set('huge', 'h', $ttl));
        $this->assertSame('h', $c->get('huge'));
        $pttl = $admin->pttl(self::NS . ':huge');
        $this->assertTrue($pttl === -1 || $pttl > 86400 * 1000 * 365 * 10, "a huge TTL (PTTL $pttl)");
        $this->assertTrue($c->setMultiple(['huge1' => 1, 'huge2' => 2], $ttl));
        $this->assertSame(['huge1' => 1, 'huge2' => 2], $c->getMultiple(['huge1', 'huge2']));
        $pttl = $admin->pttl(self::NS . ':huge2');
        $this->assertTrue($pttl === -1 || $pttl > 86400 * 1000 * 365 * 10, "a huge TTL (PTTL $pttl)");
    }

    /** @return array<string, array{0:mixed}> */
    public static function expiredTtls(): array
    {
        $past = new \DateInterval('PT10S');
        $past->invert = 1;
        return [
            '0' => [0],
            '-1' => [-1],
            'PHP_INT_MIN' => [PHP_INT_MIN],
            'PT0S' => [new \DateInterval('PT0S')],
            '-PT10S' => [$past],
        ];
    }

    /**
     * A TTL of zero or less deletes (PSR-16), by set() and setMultiple().
     *
     * @dataProvider expiredTtls
     */
    public function testExpiredTtlDeletes(mixed $ttl): void
    {
        $c = new NearCache(self::$redis->client(), self::NS);
        $this->assertTrue($c->setMultiple(['gone' => 'x', 'gone1' => 'y', 'gone2' => 'z']));
        $this->assertTrue($c->set('gone', 'w', $ttl));
        $this->assertFalse($c->has('gone'));
        $this->assertTrue($c->setMultiple(['gone1' => 'w', 'gone2' => 'w'], $ttl));
        $this->assertFalse($c->has('gone1'));
        $this->assertFalse($c->has('gone2'));
    }

    public function testInvalidTtlThrowsPsrException(): void
    {
        $c = new NearCache(self::$redis->client(), self::NS);
        foreach (['1', 1.5, [], new \stdClass()] as $ttl) {
            try {
                $c->set('bad', 'v', $ttl);
                $this->fail('no exception for TTL ' . get_debug_type($ttl));
            } catch (InvalidArgumentException $e) {
                $this->assertInstanceOf(\Psr\SimpleCache\InvalidArgumentException::class, $e);
            }
        }
    }
}
