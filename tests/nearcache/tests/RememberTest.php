<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use PHPUnit\Framework\TestCase;
use Shardcache\NearCache;
use Shardcache\NearCache\Layout;
use Shardcache\NearCacheTests\Support\Host;
use Shardcache\NearCacheTests\Support\RedisServer;

/**
 * NearCache::remember(): one computation for the whole site (a lease in
 * Redis, waiters woken through their host's sync), a dead holder's lease
 * expires, and XFetch early recomputation. Three simulated hosts (host.php,
 * each with its own segment and sync) in front of one private redis-server.
 * Workers start together at a moment on the shared monotonic clock; nothing
 * sleeps to order events (the callbacks' usleep() is the computation's cost).
 */
final class RememberTest extends TestCase
{
    private const NS = 'rem';

    private static ?RedisServer $redis = null;
    /** @var list<Host> */
    private static array $hosts = [];

    public static function setUpBeforeClass(): void
    {
        self::$redis = new RedisServer();
        for ($i = 0; $i < 3; $i++) {
            self::$hosts[] = $h = new Host(self::$redis->port, self::NS);
            $h('sync-start');
        }
        foreach (self::$hosts as $h) {
            self::assertTrue($h('wait-local', ['usable' => true, 'timeout_ms' => 5000])['ok'], 'sync healthy');
        }
    }

    public static function tearDownAfterClass(): void
    {
        foreach (self::$hosts as $h) {
            $h->close();
        }
        self::$hosts = [];
        self::$redis = null;
    }

    private static function nowMs(): int
    {
        return intdiv(hrtime(true), 1000000);
    }

    /**
     * Every host forks $workers workers that call remember($key) together.
     *
     * @return list<array{value:string,computed:bool,ms:float}>
     */
    private function stampede(string $key, string $counter, int $workers, int $computeMs, array $options = [], ?int $extendEveryMs = null): array
    {
        $start = self::nowMs() + 300;     // after every host forked its workers
        foreach (self::$hosts as $h) {
            $h->send('remember-workers', ['key' => $key, 'workers' => $workers, 'ttl' => 60,
                'compute_ms' => $computeMs, 'start_at_ms' => $start, 'counter' => $counter, 'options' => $options]
                + ($extendEveryMs === null ? [] : ['extend_every_ms' => $extendEveryMs]));
        }
        $all = [];
        foreach (self::$hosts as $h) {
            array_push($all, ...$h->receive('remember-workers')['results']);
        }
        return $all;
    }

    public function testColdKeyIsComputedOnceForAllHosts(): void
    {
        $r = self::$redis->client();
        $rounds = [];
        for ($round = 0; $round < 3; $round++) {
            $res = $this->stampede("cold$round", "count:cold$round", 4, 200, ['lease_ms' => 5000, 'lease_wait_ms' => 20000]);
            $this->assertCount(12, $res);
            $values = array_unique(array_column($res, 'value'));
            $this->assertCount(1, $values, 'every worker of every host got the one computed value');
            $this->assertSame(1, (int) $r->get("count:cold$round"), 'one computation for 3 hosts x 4 workers');
            $this->assertSame(1, count(array_filter(array_column($res, 'computed'))));
            $rounds[] = $res;
        }
        // A warm key: no computation at all.
        $res = $this->stampede('cold0', 'count:cold0', 4, 200);
        $this->assertSame(1, (int) $r->get('count:cold0'));
        $this->assertCount(1, array_unique(array_column($res, 'value')));
    }

    /**
     * A computation four times longer than the lease: without extendLease()
     * the lease expires under it and a waiter computes too (the documented
     * limit); with extendLease() at the callback's safe points (every 50 ms
     * here) the holder keeps its lease and the key is computed once.
     */
    public function testLongComputationKeepsItsLeaseOnlyWhenExtended(): void
    {
        $r = self::$redis->client();
        $opts = ['lease_ms' => 200, 'lease_wait_ms' => 20000];
        $res = $this->stampede('long1', 'count:long1', 2, 800, $opts);
        $this->assertCount(6, $res);
        $this->assertGreaterThan(1, (int) $r->get('count:long1'), 'not extended: the lease expired under the computation');
        $res = $this->stampede('long2', 'count:long2', 2, 800, $opts, 50);
        $this->assertCount(6, $res);
        $this->assertCount(1, array_unique(array_column($res, 'value')));
        $this->assertSame(1, (int) $r->get('count:long2'), 'extended: computed once');
        $this->assertFalse((bool) $r->exists(Layout::leaseKey(self::NS, 'long2')), 'the lease was released');
        $this->assertFalse((new NearCache($r, self::NS))->extendLease('long2'), 'no lease held outside remember()');
    }

    public function testKilledHolderLosesItsLeaseAfterItsTtl(): void
    {
        $r = self::$redis->client();
        $leaseMs = 1000;
        $opts = ['lease_ms' => $leaseMs, 'lease_wait_ms' => 20000];
        [$a] = self::$hosts;
        $t0 = self::nowMs();
        $hold = $a('remember-hold', ['key' => 'dead', 'counter' => 'count:dead', 'options' => $opts]);
        $this->assertTrue($hold['computing']);
        $this->assertSame(1, (int) $r->get('count:dead'));
        $a('kill-pid', ['pid' => $hold['pid']]);     // dies holding the lease
        $this->assertGreaterThan(0, $r->pttl(Layout::leaseKey(self::NS, 'dead')), 'the dead holder\'s lease is still there');
        $res = $this->stampede('dead', 'count:dead', 2, 100, $opts);
        $done = self::nowMs();
        $this->assertCount(6, $res);
        $this->assertCount(1, array_unique(array_column($res, 'value')));
        $this->assertNotSame('holder', $res[0]['value']);
        $this->assertSame(2, (int) $r->get('count:dead'), 'the holder\'s, then exactly one more');
        $this->assertGreaterThanOrEqual($leaseMs, $done - $t0, 'nobody computed before the lease expired');
        $this->assertFalse((bool) $r->exists(Layout::leaseKey(self::NS, 'dead')), 'the lease was released');
    }

    public function testEarlyRecomputationOnlyWithBeta(): void
    {
        $r = self::$redis->client();
        [$a] = self::$hosts;
        // beta 0: computed once (missing), never again before expiry.
        $res = $a('remember-loop', ['key' => 'xf0', 'n' => 100, 'ttl' => 60, 'compute_ms' => 20, 'beta' => 0, 'counter' => 'count:xf0']);
        $this->assertSame([-2], $res['pttls']);
        $this->assertSame(array_fill(0, 100, 'v0'), $res['values']);
        // The miss, the read after the store, and at most one more if the
        // sync applies the store's own invalidation after that read's copy.
        $this->assertLessThanOrEqual(3, $res['redis_reads'], 'the rest were local hits');
        // beta large: ctime (>= 20 ms) * beta far above the 60 s TTL, so reads
        // recompute while the value is still there (PTTL > 0).
        $res = $a('remember-loop', ['key' => 'xf1', 'n' => 20, 'ttl' => 60, 'compute_ms' => 20, 'beta' => 1e6, 'counter' => 'count:xf1']);
        $this->assertSame(-2, $res['pttls'][0]);
        $this->assertGreaterThanOrEqual(10, count($res['pttls']));
        foreach (array_slice($res['pttls'], 1) as $pttl) {
            $this->assertGreaterThan(0, $pttl, 'recomputed before expiry');
        }
        $this->assertSame('v0', $res['values'][0]);
        $this->assertNotSame('v0', $res['values'][19]);
    }

    public function testRememberWithoutSyncAndCallbackArguments(): void
    {
        // This process has no sync: Redis only, same protocol.
        $c = new NearCache(self::$redis->client(), self::NS, ['lease_ms' => 500]);
        $calls = 0;
        $v = $c->remember('nosync', 60, function (&$ttl, &$save) use (&$calls) {
            $calls++;
            $ttl = 5;
            return ['a' => 1];
        }, 1.0, $meta);
        $this->assertSame(['a' => 1], $v);
        $this->assertSame(['a' => 1], $c->get('nosync'), 'get() returns the value without its metadata');
        $this->assertSame(['a' => 1], $c->remember('nosync', 60, fn () => 'other', 0.0, $meta2));
        $this->assertSame(1, $calls);
        $pttl = self::$redis->client()->pttl(self::NS . ':nosync');
        $this->assertGreaterThan(0, $pttl);
        $this->assertLessThanOrEqual(5000, $pttl, 'the callback changed the TTL');
        $this->assertEqualsWithDelta(microtime(true) + 5, $meta2['expiry'], 1.0);
        // $save = false: returned, not stored; the lease is released.
        $this->assertSame('x', $c->remember('nosave', 60, function ($ttl, &$save) {
            $save = false;
            return 'x';
        }));
        $this->assertFalse((bool) self::$redis->client()->exists(self::NS . ':nosave', Layout::leaseKey(self::NS, 'nosave')));
        // An exception releases the lease at once.
        try {
            $c->remember('throws', 60, function () {
                throw new \DomainException('no');
            });
            $this->fail('no exception');
        } catch (\DomainException) {
        }
        $this->assertFalse((bool) self::$redis->client()->exists(Layout::leaseKey(self::NS, 'throws')));
        // An internal function as callback (called without arguments).
        $this->assertIsInt($c->remember('time', 60, 'time'));
        // A string that looks like the remember() format is stored tagged.
        $c->set('look', "\0\xffNCM\0\0\0\x05abc");
        $this->assertSame("\0\xffNCM\0\0\0\x05abc", $c->get('look'));
        $this->expectException(\Psr\SimpleCache\InvalidArgumentException::class);
        $c->remember('neg', 60, fn () => 1, -1.0);
    }
}
