<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use PHPUnit\Framework\TestCase;
use Shardcache\NearCache;
use Shardcache\NearCache\Layout;
use Shardcache\NearCacheTests\Support\CountingRedis;
use Shardcache\NearCacheTests\Support\Host;
use Shardcache\NearCacheTests\Support\RedisServer;

/**
 * SWAPDB exchanges two databases without any tracking invalidation: the
 * local copies taken from the database swapped away must not be served once
 * a heartbeat of the sync covers the swap.
 */
final class SwapDbTest extends TestCase
{
    private const NS = 'swap';

    private static ?RedisServer $redis = null;
    private static ?Host $h = null;

    public static function setUpBeforeClass(): void
    {
        self::$redis = new RedisServer();
        self::$h = new Host(self::$redis->port, self::NS);
        (self::$h)('sync-start');
        self::assertTrue((self::$h)('wait-local', ['usable' => true, 'timeout_ms' => 5000])['ok'], 'sync healthy');
    }

    public static function tearDownAfterClass(): void
    {
        self::$h?->close();
        self::$h = null;
        self::$redis = null;
    }

    private function covered(Host $h): void
    {
        $t = intdiv(hrtime(true), 1000000) + 1;
        $this->assertTrue($h('wait-heartbeat', ['after_ms' => $t, 'timeout_ms' => 5000])['ok'], 'heartbeat covers the write');
    }

    public function testSwapDbIsSeenAfterTheNextHeartbeat(): void
    {
        $h = self::$h;
        $admin = self::$redis->client();
        $admin->select(1);
        $admin->set(self::NS . ':k', 'one');
        $admin->select(0);
        $admin->set(self::NS . ':k', 'zero');
        $this->covered($h);
        $this->assertSame(['value' => 'zero', 'redis_reads' => 1], $h('get', ['key' => 'k']));
        $this->assertSame(['value' => 'zero', 'redis_reads' => 0], $h('get', ['key' => 'k']));

        $this->assertTrue($admin->rawCommand('SWAPDB', '0', '1'));
        $this->covered($h);
        $this->assertSame(['value' => 'one', 'redis_reads' => 1], $h('get', ['key' => 'k']), 'the swapped-in value');
        $this->assertSame(['value' => 'one', 'redis_reads' => 0], $h('get', ['key' => 'k']), 'cached again');

        $this->assertTrue($admin->rawCommand('SWAPDB', '0', '1'));
        $this->covered($h);
        $this->assertSame(['value' => 'zero', 'redis_reads' => 1], $h('get', ['key' => 'k']), 'swapped back');
        $this->assertSame(['value' => 'zero', 'redis_reads' => 0], $h('get', ['key' => 'k']));
    }

    /**
     * Two SWAPDBs between two heartbeats (swap, a reader fills, swap back):
     * the sync sees the same token before and after, so the reader must not
     * install what it read from the other database. Forced: no sync runs for
     * this namespace; the test writes the state a sync would have written
     * (generation 7 with the token of database 0, heartbeat now) and keeps
     * it through both swaps, as a sync that saw neither would.
     */
    public function testFillBetweenTwoSwapsIsNotInstalled(): void
    {
        $ns = 'swapfake';
        $admin = self::$redis->client();
        $admin->select(1);
        $admin->set($ns . ':k', 'one');
        $admin->set(Layout::tokenKey($ns), 'token-of-db-1');
        $admin->select(0);
        $admin->set($ns . ':k', 'zero');
        $admin->set(Layout::tokenKey($ns), 'token-of-db-0');
        $state = static fn () => \shardcache_store(Layout::stateKey($ns),
            Layout::packState(7, intdiv(hrtime(true), 1000000), 'token-of-db-0'));
        $this->assertTrue($state());
        $r = CountingRedis::connectTo(self::$redis->port);
        $c = new NearCache($r, $ns, ['max_lag_ms' => 60000]);
        $this->assertSame(7, $c->localGeneration());
        $this->assertSame('zero', $c->get('k'));
        $r->gets = 0;
        $this->assertSame('zero', $c->get('k'), 'installed: the token is the state\'s');
        $this->assertSame(0, $r->gets);

        $this->assertTrue($c->delete('k2'));
        $admin->select(1);
        $admin->set($ns . ':k2', 'one2');
        $admin->select(0);
        $admin->set($ns . ':k2', 'zero2');
        $this->assertTrue($admin->rawCommand('SWAPDB', '0', '1'));
        $this->assertSame('one2', $c->get('k2'), 'read from the swapped-in database');
        $this->assertTrue($admin->rawCommand('SWAPDB', '0', '1'));
        $this->assertTrue($state());
        $r->gets = 0;
        $this->assertSame('zero2', $c->get('k2'), 'the copy from the other database was not installed');
        $this->assertSame(1, $r->gets);
        $r->gets = 0;
        $this->assertSame('zero2', $c->get('k2'));
        $this->assertSame(0, $r->gets, 'installed now');

        // No token in Redis (FLUSHDB, or no sync ever ran): nothing installed.
        $admin->del(Layout::tokenKey($ns));
        $this->assertTrue($c->delete('k3'));
        $admin->set($ns . ':k3', 'v3');
        $this->assertSame('v3', $c->get('k3'));
        $r->gets = 0;
        $this->assertSame('v3', $c->get('k3'));
        $this->assertSame(1, $r->gets, 'not installed without a token');
        \shardcache_delete(Layout::stateKey($ns));
    }
}
