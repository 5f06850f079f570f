<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use PHPUnit\Framework\TestCase;
use Shardcache\NearCache;
use Shardcache\NearCacheTests\Support\RedisServer;

/**
 * A stalled Redis (SIGSTOPped redis-server: connected, silent) costs a get()
 * the configured read timeout, also after NearCache reconnected.
 */
final class ReconnectTimeoutTest extends TestCase
{
    private const READ_TIMEOUT = 0.3;
    private const BOUND_S = 2.0;       // READ_TIMEOUT plus a generous margin

    private static ?RedisServer $redis = null;

    public static function setUpBeforeClass(): void
    {
        self::$redis = new RedisServer();
    }

    public static function tearDownAfterClass(): void
    {
        self::$redis = null;
    }

    public function testReadTimeoutSurvivesAReconnect(): void
    {
        // Without a read timeout of their own, connections wait this long (PHP's
        // default is 60 s): longer than the bound, short enough for a failing run.
        $old = ini_set('default_socket_timeout', '5');
        try {
            $r = new \Redis();
            $r->connect('127.0.0.1', self::$redis->port, 1.0);
            $r->setOption(\Redis::OPT_READ_TIMEOUT, self::READ_TIMEOUT);
            $c = new NearCache($r, 'rto', ['reconnect_ms' => 0]);
            $this->assertTrue($c->set('k', 'v'));
            $this->assertSame('v', $c->get('k'));

            // The first stall: the original connection times out, NearCache
            // marks it failed.
            $this->assertLessThan(self::BOUND_S, $this->stalledGet($c), 'first connection');

            // Redis is back: NearCache reconnects (reconnect_ms 0) and reads.
            $this->assertSame('v', $c->get('k'), 'reconnected');

            // The second stall, on the new connection.
            $this->assertLessThan(self::BOUND_S, $this->stalledGet($c), 'after the reconnect');
            $this->assertSame('v', $c->get('k'), 'reconnected again');
            $this->assertEqualsWithDelta(self::READ_TIMEOUT, $r->getReadTimeout(), 0.001, 'the \\Redis keeps its read timeout');
        } finally {
            ini_set('default_socket_timeout', (string) $old);
            self::$redis->resume();
        }
    }

    /** get() while Redis is stopped: returns the default; the seconds it took. */
    private function stalledGet(NearCache $c): float
    {
        self::$redis->pause();
        try {
            $t = microtime(true);
            $v = $c->get('k', 'default');
            $took = microtime(true) - $t;
        } finally {
            self::$redis->resume();
        }
        $this->assertSame('default', $v, 'no value while Redis is stalled');
        return $took;
    }
}
