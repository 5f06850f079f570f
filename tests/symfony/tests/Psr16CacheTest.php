<?php
namespace Shardcache\SymfonyTests;

use Shardcache\ClientTests\CacheTestCase;

use Psr\SimpleCache\CacheInterface;
use Psr\SimpleCache\InvalidArgumentException;
use Symfony\Component\Cache\Adapter\ApcuAdapter;
use Symfony\Component\Cache\Psr16Cache;

final class Psr16CacheTest extends CacheTestCase
{
    private function cache(string $ns = 'psr16'): CacheInterface
    {
        return new Psr16Cache(new ApcuAdapter($ns));
    }

    /* getMultiple() returns the hits first, then the misses: compare in key order */
    private static function sorted(iterable $values): array
    {
        $a = iterator_to_array($values);
        ksort($a);
        return $a;
    }

    public function testGetSetHasDelete(): void
    {
        $cache = $this->cache();
        $this->assertNull($cache->get('k'));
        $this->assertSame('default', $cache->get('k', 'default'));
        $this->assertFalse($cache->has('k'));

        $this->assertTrue($cache->set('k', ['v' => 1]));
        $this->assertTrue($cache->has('k'));
        $this->assertSame(['v' => 1], $this->cache()->get('k', 'default'));
        $this->assertTrue(apcu_exists('psr16:k'));

        $this->assertTrue($cache->delete('k'));
        $this->assertTrue($cache->delete('k'));
        $this->assertFalse($this->cache()->has('k'));
        $this->assertSame('default', $this->cache()->get('k', 'default'));
    }

    public function testStoredNullAndFalseAreHits(): void
    {
        $cache = $this->cache();
        $cache->set('null', null);
        $cache->set('false', false);
        $cache->set('zero', 0);
        $fresh = $this->cache();
        $this->assertTrue($fresh->has('null'));
        $this->assertNull($fresh->get('null', 'default'));
        $this->assertFalse($fresh->get('false', 'default'));
        $this->assertSame(0, $fresh->get('zero', 'default'));
    }

    public function testMultiple(): void
    {
        $cache = $this->cache();
        $this->assertTrue($cache->setMultiple(['a' => 1, 'b' => 'two', 'c' => [3]]));
        $gen = (function () { yield 'a'; yield 'b'; yield 'c'; yield 'd'; })();
        $this->assertSame(['a' => 1, 'b' => 'two', 'c' => [3], 'd' => 'dflt'], self::sorted($this->cache()->getMultiple($gen, 'dflt')));
        $this->assertTrue($cache->deleteMultiple(['a', 'c', 'never']));
        $this->assertSame(['a' => null, 'b' => 'two', 'c' => null], self::sorted($this->cache()->getMultiple(['a', 'b', 'c'])));

        $many = [];
        for ($i = 0; $i < 1000; $i++) {
            $many["key$i"] = str_repeat('v', $i);
        }
        $this->assertTrue($cache->setMultiple($many));
        ksort($many);
        $this->assertSame($many, self::sorted($this->cache()->getMultiple(array_keys($many))));
    }

    public function testZeroOrNegativeTtlDeletes(): void
    {
        $cache = $this->cache();
        $cache->set('zero', 'v');
        $cache->set('negative', 'v');
        $cache->set('interval', 'v');
        $this->assertTrue($cache->set('zero', 'new', 0));
        $this->assertTrue($cache->set('negative', 'new', -10));
        $interval = new \DateInterval('PT1S');
        $interval->invert = 1;
        $this->assertTrue($cache->set('interval', 'new', $interval));
        $this->assertTrue($cache->setMultiple(['m1' => 1, 'm2' => 2], -1));
        $fresh = $this->cache();
        foreach (['zero', 'negative', 'interval', 'm1', 'm2'] as $k) {
            $this->assertFalse($fresh->has($k), $k);
            $this->assertFalse(apcu_exists("psr16:$k"), $k);
        }
    }

    public function testClearIsPerNamespace(): void
    {
        $a = $this->cache('ns_a');
        $b = $this->cache('ns_b');
        $a->set('k', 'a');
        $b->set('k', 'b');
        $this->assertTrue($a->clear());
        $this->assertFalse($this->cache('ns_a')->has('k'));
        $this->assertSame('b', $this->cache('ns_b')->get('k'));
    }

    public function testInvalidKeys(): void
    {
        $cache = $this->cache();
        foreach (['', '{k}', 'a/b', 'a:b', 'a@b'] as $key) {
            try {
                $cache->get($key);
                $this->fail('accepted key ' . var_export($key, true));
            } catch (InvalidArgumentException $e) {
                $this->addToAssertionCount(1);
            }
        }
        $this->expectException(InvalidArgumentException::class);
        $cache->setMultiple(['ok' => 1, 'b{ad' => 2]);
    }
}
