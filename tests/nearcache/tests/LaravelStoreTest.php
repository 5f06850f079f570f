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

    /**
     * add() races between processes: 8 forked workers (each its own Redis
     * connection and Repository, one segment) call add() on the same key at
     * the same moment, 30 rounds; exactly one wins each round and the value
     * stored is the winner's. (Without the store's add(), Laravel does
     * get-then-put and several win.)
     */
    public function testAddIsAtomicAcrossProcesses(): void
    {
        $workers = 8;
        $rounds = 30;
        $port = self::$redis->port;
        $startAt = intdiv(hrtime(true), 1000000) + 300;
        $socks = [];
        $pids = [];
        for ($w = 0; $w < $workers; $w++) {
            $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
            $pid = pcntl_fork();
            if ($pid === 0) {
                $redis = new \Redis();
                $redis->connect('127.0.0.1', $port, 1.0);
                $repo = new Repository(new NearCacheStore(new NearCache($redis, 'lara')));
                $won = [];
                for ($i = 0; $i < $rounds; $i++) {
                    // Every worker starts round $i at the same moment (20 ms apart).
                    while (intdiv(hrtime(true), 1000000) < $startAt + 20 * $i) {
                        usleep(100);
                    }
                    $won[$i] = $repo->add("race-$i", "w$w", 60);
                }
                fwrite($pair[1], json_encode($won) . "\n");
                posix_kill(posix_getpid(), SIGKILL);
            }
            $pids[] = $pid;
            $socks[] = $pair[0];
        }
        $results = [];
        foreach ($socks as $w => $sock) {
            $results[$w] = json_decode((string) fgets($sock), true);
            pcntl_waitpid($pids[$w], $st);
        }
        for ($i = 0; $i < $rounds; $i++) {
            $winners = [];
            foreach ($results as $w => $won) {
                $this->assertIsArray($won, "worker $w answered");
                if ($won[$i]) {
                    $winners[] = "w$w";
                }
            }
            $this->assertCount(1, $winners, "round $i: exactly one add() wins");
            $this->assertSame($winners[0], $this->repo->get("race-$i"), "round $i: the winner's value");
            $this->assertGreaterThan(59000, self::$redis->client()->pttl("lara:race-$i"), 'with its TTL');
        }
        // The store's add() without a TTL: no expiry; a local copy of a
        // deleted key does not hide the added value.
        $this->assertTrue($this->store->add('noexp', 'a', null));
        $this->assertFalse($this->store->add('noexp', 'b', null));
        $this->assertSame(-1, self::$redis->client()->pttl('lara:noexp'));
        $this->assertSame('a', $this->repo->get('noexp'));
        self::$redis->client()->del('lara:noexp');
        $this->assertTrue($this->store->add('noexp', 'c', 60));
        $this->assertSame('c', $this->repo->get('noexp'));
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
