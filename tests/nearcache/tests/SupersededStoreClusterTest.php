<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use Shardcache\NearCache;
use Shardcache\NearCache\Layout;
use Shardcache\NearCacheTests\Support\ClusterServers;
use Shardcache\NearCacheTests\Support\SupersededStoreCases;

/**
 * SupersededStoreCases against a private Redis Cluster (3 masters, 3
 * replicas; ClusterSync on every host), where the conditional store is one
 * Lua script over a key and its lease: both must be in one slot.
 */
final class SupersededStoreClusterTest extends SupersededStoreCases
{
    private static ?ClusterServers $cluster = null;

    protected static function startRedis(): int|string
    {
        self::$cluster = new ClusterServers();
        return 'cluster:' . implode(',', self::$cluster->seeds());
    }

    protected static function stopRedis(): void
    {
        self::$cluster = null;
    }

    protected static function client(): \RedisCluster
    {
        return self::$cluster->client();
    }

    /**
     * While the key's slot migrates, a command on a key and its lease gets
     * TRYAGAIN when only one of them is on the node: a delete() then deletes
     * them one by one (the lease first), the computation's store, which
     * cannot be split, stores nothing (and releases the lease), and set()
     * deletes the lease, then sets the value.
     */
    public function testWritesAndStoresWhileTheSlotMigrates(): void
    {
        $r = static::client();
        $slot = self::$cluster->slot(self::NS . ':m1');
        $from = self::$cluster->masterOf($slot);
        $to = current(array_diff(array_keys(self::$cluster->waitConverged()), [$from]));
        $r->set('src:m1', '100');
        $this->assertSame('100', $this->gate(self::$a, 'g', 'm1'));
        $steps = self::$cluster->migrateSteps($slot, $from, $to);
        $this->assertSame('migrating', $steps->current());
        $r->set('src:m1', '120');
        $this->assertTrue((self::$b)('delete', ['key' => 'm1'])['ok']);
        $this->release(self::$a, 'g', 'price=100');
        $this->assertSame(false, $r->get(self::NS . ':m1'), 'the computation stored nothing');
        $c = new NearCache($r, self::NS);
        $this->assertTrue($c->set('m1', 'price=125'));     // missing: set on the importing node
        $this->assertTrue($c->set('m1', 'price=130'));     // there, its lease not
        $this->assertSame('price=130', $c->get('m1'));
        while ($steps->valid()) {
            $steps->next();
        }
        $this->assertEverywhere('m1', 'price=130');
    }

    public function testLeaseIsInTheSlotOfItsKey(): void
    {
        foreach (['d1', 'price', 'a%3Ab', str_repeat('k', 200)] as $key) {
            $this->assertSame(self::$cluster->slot(self::NS . ":$key"), self::$cluster->slot(Layout::leaseKey(self::NS, $key)), $key);
        }
    }
}
