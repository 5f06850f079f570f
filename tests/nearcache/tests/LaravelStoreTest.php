<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use Illuminate\Cache\Repository;
use PHPUnit\Framework\TestCase;
use Shardcache\NearCache;
use Shardcache\NearCache\Laravel\NearCacheStore;
use Shardcache\NearCacheTests\Support\RedisAndSync;

/**
 * The Laravel store through Laravel's own Illuminate\Cache\Repository (what
 * Cache::store() returns), with the local layer in use. laravel/framework's
 * own cache tests are not in its Packagist dist, so these cover the Store
 * contract as the Repository uses it.
 */
final class LaravelStoreTest extends TestCase
{
    use RedisAndSync;
    private Repository $repo;
    private NearCacheStore $store;

    public static function setUpBeforeClass(): void
    {
        self::startRedisAndSync('lara', true);
    }

    public static function tearDownAfterClass(): void
    {
        self::stopRedisAndSync();
    }

    protected function setUp(): void
    {
        $this->store = new NearCacheStore(new NearCache(self::$redis->client(), 'lara', ['allowed_classes' => true]));
        $this->repo = new Repository($this->store);
        $this->repo->flush();
    }

    public function testPutGetManyForgetFlush(): void
    {
        $r = $this->repo;
        $this->assertNull($r->get('user:1'));
        $this->assertSame('d', $r->get('user:1', 'd'));
        $this->assertTrue($r->put('user:1', ['name' => 'a'], 60));
        $this->assertSame(['name' => 'a'], $r->get('user:1'));
        $this->assertTrue($r->has('user:1'));
        $this->assertTrue($r->putMany(['a/b' => 1, 'c@d' => 2.5, '100%' => null], 60));
        $this->assertSame(['a/b' => 1, 'c@d' => 2.5, '100%' => null, 'none' => null], $r->many(['a/b', 'c@d', '100%', 'none']));
        // Reserved characters are escaped, distinct keys stay distinct.
        $r->put('x:y', 'colon', 60);
        $r->put('x%3Ay', 'escaped', 60);
        $this->assertSame('colon', $r->get('x:y'));
        $this->assertSame('escaped', $r->get('x%3Ay'));
        $this->assertSame(60000, (int) round(self::$redis->client()->pttl('lara:x%3Ay') / 1000) * 1000);
        $this->assertTrue($r->forever('f', 'ever'));
        $this->assertSame(-1, self::$redis->client()->pttl('lara:f'));
        $this->assertSame('colon', $r->pull('x:y'));
        $this->assertNull($r->get('x:y'));
        $this->assertTrue($r->forget('f'));
        $this->assertNull($r->get('f'));
        $this->assertTrue($r->flush());
        $this->assertNull($r->get('user:1'));
        $this->assertSame('lara:', $r->getPrefix());
    }

    public function testTtlForms(): void
    {
        $r = $this->repo;
        $r->put('dt', 'v', new \DateInterval('PT30S'));
        $this->assertGreaterThan(28000, self::$redis->client()->pttl('lara:dt'));
        $r->put('past', 'v', 0);          // the Repository forgets it
        $this->assertNull($r->get('past'));
        $this->assertTrue($r->add('added', 1, 60));
        $this->assertFalse($r->add('added', 2, 60));
        $this->assertSame(1, $r->get('added'));
    }

    public function testIncrementDecrement(): void
    {
        $r = $this->repo;
        $this->assertSame(1, $r->increment('hits'));
        $this->assertSame(6, $r->increment('hits', 5));
        $this->assertSame(4, $r->decrement('hits', 2));
        $this->assertSame(4, $r->get('hits'));
        // The TTL is kept; a value that is not an integer is refused.
        $r->put('ttl', 10, 60);
        $this->assertSame(11, $r->increment('ttl'));
        $this->assertGreaterThan(0, self::$redis->client()->pttl('lara:ttl'));
        $r->put('str', 'abc', 60);
        $this->assertFalse($r->increment('str'));
        $this->assertSame('abc', $r->get('str'));
        // A foreign decimal string counts as its integer.
        self::$redis->client()->set('lara:foreign', '41');
        $this->assertSame(42, $r->increment('foreign'));
        $this->assertSame(42, $r->get('foreign'));
    }

    public function testRepositoryRememberAndStoreRemember(): void
    {
        $calls = 0;
        $f = function () use (&$calls) {
            $calls++;
            return 'computed';
        };
        $this->assertSame('computed', $this->repo->remember('rem:1', 60, $f));
        $this->assertSame('computed', $this->repo->remember('rem:1', 60, $f));
        $this->assertSame('computed', $this->repo->rememberForever('rem:2', $f));
        $this->assertSame(2, $calls);
        // The store's remember(): NearCache::remember() (site-wide lease).
        $this->assertSame('computed', $this->store->remember('rem:3', 60, $f));
        $this->assertSame('computed', $this->store->remember('rem:3', 60, $f));
        $this->assertSame(3, $calls);
        $this->assertSame('computed', $this->repo->get('rem:3'));
    }
}
