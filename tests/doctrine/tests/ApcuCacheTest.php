<?php
namespace Shardcache\DoctrineTests;

use Shardcache\ClientTests\CacheTestCase;

use Doctrine\Common\Cache\ApcuCache;
use Doctrine\Common\Cache\Cache;

/* Doctrine Cache 1.x's ApcuCache, through its CacheProvider API, on the real extension. */
final class ApcuCacheTest extends CacheTestCase
{
    public function testBackendIsTheExtensionUnderTest(): void
    {
        $this->assertSame(getenv('SC_CACHE_EXT') ?: 'shardcache', \sc_cache_backend());
    }

    public static function values(): iterable
    {
        yield 'int' => [123];
        yield 'zero' => [0];
        yield 'negative int' => [PHP_INT_MIN];
        yield 'float' => [3.25];
        yield 'string' => ['hello'];
        yield 'empty string' => [''];
        yield 'binary string' => ["\0\x01\xff" . str_repeat("\0", 100)];
        yield 'true' => [true];
        yield 'null' => [null];
        yield 'empty array' => [[]];
        yield 'nested array' => [['a' => ['b' => ['c' => 1]], 7 => 'seven', 'list' => range(1, 100)]];
        yield 'stdClass' => [(object) ['x' => 1, 'y' => [2, 3]]];
        yield 'ArrayObject' => [new \ArrayObject(['k' => 'v'])];
        yield 'DateTimeImmutable' => [new \DateTimeImmutable('2024-02-29 12:34:56.789 UTC')];
        yield 'large string' => [str_repeat('0123456789', 100000)];
    }

    /** @dataProvider values */
    public function testSaveFetchContains(mixed $value): void
    {
        $cache = new ApcuCache();
        $this->assertFalse($cache->contains('key'));
        $this->assertFalse($cache->fetch('key'));
        $this->assertTrue($cache->save('key', $value));
        $this->assertTrue($cache->contains('key'));
        $this->assertEquals($value, (new ApcuCache())->fetch('key'));
        if (!is_object($value)) {
            $this->assertSame($value, $cache->fetch('key'));
        }
    }

    public function testOverwriteAndDelete(): void
    {
        $cache = new ApcuCache();
        $this->assertTrue($cache->save('k', 'one'));
        $this->assertTrue($cache->save('k', 'two'));
        $this->assertSame('two', $cache->fetch('k'));
        $this->assertTrue($cache->delete('k'));
        $this->assertFalse($cache->contains('k'));
        $this->assertFalse($cache->fetch('k'));
        // deleting what is not there succeeds (ApcuCache checks apcu_exists)
        $this->assertTrue($cache->delete('k'));
    }

    public function testNamespacesAreSeparateAndDeleteAllBumpsOnlyItsOwn(): void
    {
        $a = new ApcuCache();
        $a->setNamespace('app_a');
        $b = new ApcuCache();
        $b->setNamespace('app_b');
        $this->assertTrue($a->save('shared', 'from a'));
        $this->assertTrue($b->save('shared', 'from b'));
        $this->assertSame('from a', $a->fetch('shared'));
        $this->assertSame('from b', $b->fetch('shared'));
        // the namespaced keys really live in the shared cache
        $keys = [];
        foreach (new \APCUIterator('/^app_a/') as $key => $unused) {
            $keys[] = $key;
        }
        $this->assertSame(['app_a[shared][1]'], $keys);

        $this->assertTrue($a->deleteAll());
        $this->assertFalse($a->contains('shared'));
        $this->assertSame('from b', $b->fetch('shared'));
        // a new instance reads the namespace version from the cache
        $a2 = new ApcuCache();
        $a2->setNamespace('app_a');
        $this->assertFalse($a2->fetch('shared'));
        $this->assertTrue($a2->save('shared', 'again'));
        $this->assertSame('again', $a->fetch('shared'));
        $this->assertSame(2, apcu_fetch('DoctrineNamespaceCacheKey[app_a]'));
    }

    public function testFlushAllEmptiesTheCache(): void
    {
        $cache = new ApcuCache();
        apcu_store('outside', 1);
        $this->assertTrue($cache->save('k', 1));
        $this->assertTrue($cache->flushAll());
        $this->assertFalse($cache->contains('k'));
        $this->assertFalse(apcu_exists('outside'));
    }

    public function testMultiKeyOperations(): void
    {
        $cache = new ApcuCache();
        $cache->setNamespace('multi');
        $data = [];
        for ($i = 0; $i < 500; $i++) {
            $data["key$i"] = ['i' => $i, 's' => str_repeat('x', $i)];
        }
        $this->assertTrue($cache->saveMultiple($data));
        $got = $cache->fetchMultiple(array_merge(array_keys($data), ['missing1', 'missing2']));
        $this->assertSame($data, $got);
        $this->assertTrue($cache->deleteMultiple(['key0', 'key1', 'missing1']));
        $got = $cache->fetchMultiple(['key0', 'key1', 'key2']);
        $this->assertSame(['key2' => $data['key2']], $got);
        $this->assertSame([], $cache->fetchMultiple([]));
    }

    public function testLifetime(): void
    {
        $cache = new ApcuCache();
        $this->assertTrue($cache->save('short', 's', 1));
        $this->assertTrue($cache->save('long', 'l', 3600));
        $this->assertTrue($cache->save('forever', 'f'));
        $this->assertTrue($cache->saveMultiple(['m1' => 1, 'm2' => 2], 1));
        $this->assertSame('s', $cache->fetch('short'));
        self::waitSeconds(2.1);
        $this->assertFalse($cache->contains('short'));
        $this->assertFalse($cache->fetch('short'));
        $this->assertSame([], $cache->fetchMultiple(['m1', 'm2']));
        $this->assertSame('l', $cache->fetch('long'));
        $this->assertSame('f', $cache->fetch('forever'));
    }

    public function testStats(): void
    {
        $cache = new ApcuCache();
        $before = $cache->getStats();
        foreach ([Cache::STATS_HITS, Cache::STATS_MISSES, Cache::STATS_UPTIME, Cache::STATS_MEMORY_USAGE,
                  Cache::STATS_MEMORY_AVAILABLE] as $k) {
            $this->assertIsNumeric($before[$k], $k); // APCu reports hits and misses as floats
        }
        $this->assertTrue($cache->save('k', str_repeat('v', 10000)));
        for ($i = 0; $i < 100; $i++) {
            $this->assertNotFalse($cache->fetch('k'));
            $this->assertFalse($cache->fetch("nope$i"));
        }
        $after = $cache->getStats();
        $this->assertGreaterThanOrEqual($before[Cache::STATS_HITS] + 100, $after[Cache::STATS_HITS]);
        $this->assertGreaterThanOrEqual($before[Cache::STATS_MISSES] + 100, $after[Cache::STATS_MISSES]);
        $this->assertGreaterThan($before[Cache::STATS_MEMORY_USAGE], $after[Cache::STATS_MEMORY_USAGE]);
        $this->assertLessThanOrEqual(time(), $after[Cache::STATS_UPTIME]);
    }

    /* Forked workers save through their own ApcuCache; every value is seen by the others. */
    public function testForkedWorkersShareTheCache(): void
    {
        if (!function_exists('pcntl_fork')) {
            $this->markTestSkipped('pcntl needed');
        }
        $pids = [];
        for ($w = 0; $w < 4; $w++) {
            $pid = pcntl_fork();
            if ($pid === 0) {
                $cache = new ApcuCache();
                $cache->setNamespace("worker$w");
                $ok = true;
                for ($i = 0; $i < 300; $i++) {
                    $ok = $ok && $cache->save("k$i", ['w' => $w, 'i' => $i]);
                    // read what the previous worker wrote, when it is there already
                    if ($w > 0) {
                        $other = new ApcuCache();
                        $other->setNamespace('worker' . ($w - 1));
                        $v = $other->fetch("k$i");
                        $ok = $ok && ($v === false || $v === ['w' => $w - 1, 'i' => $i]);
                    }
                }
                exit($ok ? 0 : 1);
            }
            $pids[] = $pid;
        }
        foreach ($pids as $pid) {
            pcntl_waitpid($pid, $status);
            $this->assertTrue(pcntl_wifexited($status));
            $this->assertSame(0, pcntl_wexitstatus($status));
        }
        for ($w = 0; $w < 4; $w++) {
            $cache = new ApcuCache();
            $cache->setNamespace("worker$w");
            $keys = array_map(fn ($i) => "k$i", range(0, 299));
            $got = $cache->fetchMultiple($keys);
            $this->assertCount(300, $got);
            foreach ($got as $k => $v) {
                $this->assertSame(['w' => $w, 'i' => (int) substr($k, 1)], $v);
            }
        }
    }
}
