<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use Cache\IntegrationTests\SimpleCacheTest;
use Shardcache\NearCache;
use Shardcache\NearCacheTests\Support\ClusterServers;
use Shardcache\NearCacheTests\Support\ForkedSync;

/**
 * The PSR-16 integration suite against NearCache over a \RedisCluster (a
 * private 3 + 3 node cluster) with a ClusterSync forked from this process,
 * and the operations beyond PSR-16 (add, increment, remember, extendLease)
 * on the cluster.
 */
final class Psr16ClusterTest extends SimpleCacheTest
{
    private const NS = 'psr16c';
    private static ?ClusterServers $cluster = null;
    private static ?ForkedSync $sync = null;

    public static function setUpBeforeClass(): void
    {
        self::$cluster = new ClusterServers();
        self::$sync = new ForkedSync('cluster:' . implode(',', self::$cluster->seeds()), self::NS);
        if (!ForkedSync::waitUsable(new NearCache(self::$cluster->client(), self::NS))) {
            throw new \RuntimeException('the cluster sync never became healthy');
        }
    }

    public static function tearDownAfterClass(): void
    {
        self::$sync?->stop();
        self::$sync = null;
        self::$cluster = null;
    }

    public function createSimpleCache()
    {
        // The suite stores stdClass objects.
        return new NearCache(self::$cluster->client(), self::NS, ['allowed_classes' => [\stdClass::class]]);
    }

    /** Redis commands of one name executed by all masters. */
    private static function calls(string $cmd): int
    {
        $n = 0;
        foreach (array_keys(self::$cluster->waitConverged()) as $port) {
            $s = self::$cluster->node($port)->info('commandstats');
            if (isset($s["cmdstat_$cmd"]) && preg_match('/calls=(\d+)/', $s["cmdstat_$cmd"], $m)) {
                $n += (int) $m[1];
            }
        }
        return $n;
    }

    /** Local hits make no Redis call (the reads that fill are one EVAL per key). */
    public function testLocalLayerIsInUse(): void
    {
        $this->cache->set('local', 'v');
        $gets = [];
        for ($attempt = 1; $attempt <= 5; $attempt++) {
            $this->assertTrue(ForkedSync::waitUsable($this->cache), 'the sync is healthy');
            $this->assertSame('v', $this->cache->get('local'));
            $before = self::calls('eval');
            for ($i = 0; $i < 100; $i++) {
                $this->assertSame('v', $this->cache->get('local'));
            }
            $gets[] = self::calls('eval') - $before;
            if (end($gets) === 0) {
                break;
            }
        }
        $this->assertSame(0, end($gets), '100 local hits made no Redis call (EVALs per attempt: ' . implode(', ', $gets) . ')');
    }

    public function testAddIncrementRememberOnTheCluster(): void
    {
        $c = $this->cache;
        $this->assertTrue($c->add('a', 'first', 60));
        $this->assertFalse($c->add('a', 'second', 60));
        $this->assertSame('first', $c->get('a'));
        $this->assertSame(1, $c->increment('n'));
        $this->assertSame(11, $c->increment('n', 10));
        $this->assertSame(11, $c->get('n'));
        $calls = 0;
        $f = function () use ($c, &$calls) {
            $calls++;
            $this->assertTrue($c->extendLease('r'), 'the lease is held during the computation');
            return ['x' => 1];
        };
        $this->assertSame(['x' => 1], $c->remember('r', 60, $f));
        $this->assertSame(['x' => 1], $c->remember('r', 60, $f));
        $this->assertSame(1, $calls);
        $this->assertFalse($c->extendLease('r'), 'released after');
        $this->assertTrue($c->setMultiple(['m1' => 1, 'm2' => [2], 'm3' => 'three']));
        $this->assertSame(['m1' => 1, 'm2' => [2], 'm3' => 'three', 'm4' => null], $c->getMultiple(['m1', 'm2', 'm3', 'm4']));
        $this->assertTrue($c->clear());
        $this->assertSame(['m1' => null, 'a' => null], $c->getMultiple(['m1', 'a']));
    }
}
