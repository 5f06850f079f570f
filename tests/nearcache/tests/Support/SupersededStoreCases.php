<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests\Support;

use Illuminate\Cache\Repository;
use PHPUnit\Framework\TestCase;
use Shardcache\NearCache;
use Shardcache\NearCache\Laravel\NearCacheStore;
use Shardcache\NearCache\Layout;
use Shardcache\NearCache\Symfony\NearCacheAdapter;
use Symfony\Contracts\Cache\ItemInterface;

/**
 * remember() never stores a result that a write superseded: the cache-aside
 * write path ("update the source, then delete the key") or a set() during a
 * computation, and a computation that outlived its lease, finishing before
 * or after the newer one. Two simulated hosts (host.php, each with its own
 * segment and sync); a computation is a forked worker whose callback reads
 * the source (the Redis key src:KEY), reports it and blocks until the test
 * releases it (remember-gate / remember-release): every step is ordered by
 * these handshakes, none by a sleep. After each step every host is checked
 * once its sync applied every write before it (its heartbeat covers it).
 * The Symfony and Laravel adapters' get-with-callback run in this process,
 * the write from within the callback through another connection.
 * A subclass starts the Redis (one server, or a cluster).
 */
abstract class SupersededStoreCases extends TestCase
{
    protected const NS = 'sup';

    protected static ?Host $a = null;
    protected static ?Host $b = null;

    /** Starts the Redis; returns host.php's spec of it (a port, "cluster:..."). */
    abstract protected static function startRedis(): int|string;

    abstract protected static function stopRedis(): void;

    abstract protected static function client(): \Redis|\RedisCluster;

    public static function setUpBeforeClass(): void
    {
        $spec = static::startRedis();
        self::$a = new Host($spec, self::NS);
        self::$b = new Host($spec, self::NS);
        foreach ([self::$a, self::$b] as $h) {
            $h('sync-start');
        }
        foreach ([self::$a, self::$b] as $h) {
            self::assertTrue($h('wait-local', ['usable' => true, 'timeout_ms' => 10000])['ok'], 'sync healthy');
        }
    }

    public static function tearDownAfterClass(): void
    {
        foreach ([self::$a, self::$b] as $h) {
            $h?->close();
        }
        self::$a = self::$b = null;
        static::stopRedis();
    }

    /** Starts a computation of $key on $h; returns the source value it read. */
    protected function gate(Host $h, string $name, string $key, array $args = []): string
    {
        $g = $h('remember-gate', ['name' => $name, 'key' => $key, 'source' => "src:$key"] + $args);
        $this->assertTrue($g['computing'], "$name is computing");
        return $g['source'];
    }

    /** Ends the computation $name on $h; it returns what it computed to its caller. */
    protected function release(Host $h, string $name, string $expect): void
    {
        $this->assertSame(['value' => $expect], $h('remember-release', ['name' => $name]));
    }

    /**
     * $key holds $value (null: none) in Redis, with no TTL, and on every
     * host (twice: the read that fills the local copy, then that copy).
     */
    protected function assertEverywhere(string $key, ?string $value): void
    {
        $r = static::client();
        $this->assertSame($value, (new NearCache($r, self::NS))->get($key), "Redis holds $key");
        $this->assertSame($value === null ? -2 : -1, $r->pttl(self::NS . ":$key"), "$key has no TTL");
        $this->assertSame(0, $r->exists(Layout::leaseKey(self::NS, $key)), 'no lease left');
        $now = intdiv(hrtime(true), 1000000) + 1;
        foreach (['A' => self::$a, 'B' => self::$b] as $name => $h) {
            $this->assertTrue($h('wait-heartbeat', ['after_ms' => $now, 'timeout_ms' => 10000])['ok'], "host $name's sync covers now");
            for ($i = 0; $i < 2; $i++) {
                $this->assertSame($value, $h('get', ['key' => $key])['value'], "get($key) on host $name");
            }
        }
    }

    /** The issue's case: source 100 read, then 120 and the key deleted by another host. */
    public function testDeleteFromAnotherHostDuringAComputation(): void
    {
        $r = static::client();
        $r->set('src:d1', '100');
        $this->assertSame('100', $this->gate(self::$a, 'g', 'd1'));
        $r->set('src:d1', '120');
        $this->assertTrue((self::$b)('delete', ['key' => 'd1'])['ok']);
        $this->release(self::$a, 'g', 'price=100');
        $this->assertEverywhere('d1', null);
        $this->assertSame(['value' => 'price=120', 'computed' => true], (self::$b)('remember', ['key' => 'd1', 'source' => 'src:d1']));
        $this->assertEverywhere('d1', 'price=120');
    }

    /**
     * The delete by another process of the computing host; a remember() of
     * the key after it does not wait for the superseded computation: it
     * takes the lease and computes from the new source at once.
     */
    public function testDeleteFromTheSameHostDuringAComputation(): void
    {
        $r = static::client();
        $r->set('src:d2', '100');
        $this->assertSame('100', $this->gate(self::$a, 'g', 'd2'));
        $r->set('src:d2', '120');
        $this->assertTrue((self::$a)('delete', ['key' => 'd2'])['ok']);
        $this->assertSame(['value' => 'price=120', 'computed' => true],
            (self::$a)('remember', ['key' => 'd2', 'source' => 'src:d2', 'options' => ['lease_wait_ms' => 3000]]));
        $this->release(self::$a, 'g', 'price=100');
        $this->assertEverywhere('d2', 'price=120');
    }

    /** A set() during an early recomputation (beta INF) of a value every host has a copy of. */
    public function testSetDuringAComputation(): void
    {
        $r = static::client();
        $this->assertTrue((self::$b)('set', ['key' => 's1', 'value' => 'price=90'])['ok']);
        $this->assertEverywhere('s1', 'price=90');
        $r->set('src:s1', '100');
        $this->assertSame('100', $this->gate(self::$a, 'g', 's1', ['beta' => 'INF']));
        $this->assertTrue((self::$b)('set', ['key' => 's1', 'value' => 'price=130'])['ok']);
        $this->release(self::$a, 'g', 'price=100');
        $this->assertEverywhere('s1', 'price=130');
    }

    /**
     * A computation that outlives lease_ms (its lease expires, another
     * process on the other host takes it and computes from the new source)
     * and finishes after the newer one: the newer value stays.
     */
    public function testComputationOutlivingItsLeaseFinishingAfterTheNewer(): void
    {
        $r = static::client();
        $opts = ['options' => ['lease_ms' => 300, 'lease_wait_ms' => 20000]];
        $r->set('src:l1', '100');
        $this->assertSame('100', $this->gate(self::$a, 'old', 'l1', $opts));
        $r->set('src:l1', '120');
        $this->assertSame('120', $this->gate(self::$b, 'new', 'l1', $opts), 'B computes once A\'s lease expired');
        $this->release(self::$b, 'new', 'price=120');
        $this->assertEverywhere('l1', 'price=120');
        $this->release(self::$a, 'old', 'price=100');
        $this->assertEverywhere('l1', 'price=120');
    }

    /** The same, the old computation finishing first: it stores nothing, the newer one stores. */
    public function testComputationOutlivingItsLeaseFinishingBeforeTheNewer(): void
    {
        $r = static::client();
        $opts = ['options' => ['lease_ms' => 300, 'lease_wait_ms' => 20000]];
        $r->set('src:l2', '100');
        $this->assertSame('100', $this->gate(self::$a, 'old', 'l2', $opts));
        $r->set('src:l2', '120');
        $this->assertSame('120', $this->gate(self::$b, 'new', 'l2', $opts));
        $this->release(self::$a, 'old', 'price=100');
        $this->assertSame(false, $r->get(self::NS . ':l2'), 'the old computation stored nothing');
        $this->release(self::$b, 'new', 'price=120');
        $this->assertEverywhere('l2', 'price=120');
    }

    /** Symfony's CacheInterface::get(): a deleteItem() and a save() during the callback. */
    public function testSymfonyGetWithCallback(): void
    {
        $r = static::client();
        $pool = new NearCacheAdapter(new NearCache(static::client(), self::NS));
        $other = new NearCacheAdapter(new NearCache(static::client(), self::NS));
        $r->set('src:sy1', '100');
        $this->assertSame('price=100', $pool->get('sy1', static function (ItemInterface $item) use ($r, $other) {
            $s = $r->get('src:sy1');
            $r->set('src:sy1', '120');
            $other->deleteItem('sy1');
            return "price=$s";
        }));
        $this->assertEverywhere('sy1', null);
        $this->assertSame('price=120', $pool->get('sy1', static fn () => 'price=' . $r->get('src:sy1')));
        $this->assertEverywhere('sy1', 'price=120');

        $this->assertSame('price=100', $pool->get('sy2', static function (ItemInterface $item) use ($other) {
            $other->save($other->getItem('sy2')->set('price=130'));
            return 'price=100';
        }));
        $this->assertEverywhere('sy2', 'price=130');
    }

    /** The Laravel store's remember(): a forget() and a forever() during the callback. */
    public function testLaravelStoreRemember(): void
    {
        $r = static::client();
        $store = new NearCacheStore(new NearCache(static::client(), self::NS));
        $other = new Repository(new NearCacheStore(new NearCache(static::client(), self::NS)));
        $r->set('src:la1', '100');
        $this->assertSame('price=100', $store->remember('la1', null, static function () use ($r, $other) {
            $s = $r->get('src:la1');
            $r->set('src:la1', '120');
            $other->forget('la1');
            return "price=$s";
        }));
        $this->assertEverywhere('la1', null);
        $this->assertSame('price=120', $store->remember('la1', null, static fn () => 'price=' . $r->get('src:la1')));
        $this->assertEverywhere('la1', 'price=120');

        $this->assertSame('price=100', $store->remember('la2', null, static function () use ($other) {
            $other->forever('la2', 'price=130');
            return 'price=100';
        }));
        $this->assertEverywhere('la2', 'price=130');
    }
}
