<?php
namespace Shardcache\SymfonyTests;

use Shardcache\ClientTests\CacheTestCase;

use Symfony\Component\Cache\Adapter\ApcuAdapter;
use Symfony\Component\Cache\Psr16Cache;

/* Expiry through every way Symfony passes a lifetime to apcu_store(): one test, so that
 * the suite waits for time to pass only once (2 seconds). */
final class ExpiryTest extends CacheTestCase
{
    public function testLifetimes(): void
    {
        $cache = new ApcuAdapter('exp');
        $short = new ApcuAdapter('exp_default', 1);       // default lifetime 1 s
        $psr16 = new Psr16Cache(new ApcuAdapter('exp16'));

        $cache->save($cache->getItem('after1')->set('v')->expiresAfter(1));
        $cache->save($cache->getItem('interval1')->set('v')->expiresAfter(new \DateInterval('PT1S')));
        $cache->save($cache->getItem('at')->set('v')->expiresAt(new \DateTimeImmutable('+1 second')));
        $cache->save($cache->getItem('after3600')->set('v')->expiresAfter(3600));
        $cache->save($cache->getItem('forever')->set('v'));
        $short->save($short->getItem('default')->set('v'));
        $short->save($short->getItem('override')->set('v')->expiresAfter(3600));
        $psr16->set('ttl1', 'v', 1);
        $psr16->set('interval1', 'v', new \DateInterval('PT1S'));
        $psr16->set('ttl3600', 'v', 3600);
        $psr16->setMultiple(['m1' => 'v', 'm2' => 'v'], 1);
        $cache->get('contract', function ($item) { $item->expiresAfter(1); return 'computed'; });

        // everything is there right away, for a fresh adapter too
        $fresh = new ApcuAdapter('exp');
        foreach (['after1', 'interval1', 'at', 'after3600', 'forever', 'contract'] as $k) {
            $this->assertTrue($fresh->hasItem($k), $k);
        }
        $this->assertTrue((new ApcuAdapter('exp_default'))->hasItem('default'));
        $this->assertSame('v', (new Psr16Cache(new ApcuAdapter('exp16')))->get('m2'));

        self::waitSeconds(2.1);

        $fresh = new ApcuAdapter('exp');
        foreach (['after1', 'interval1', 'at', 'contract'] as $k) {
            $this->assertFalse($fresh->getItem($k)->isHit(), "$k should have expired");
            $this->assertFalse(apcu_exists("exp:$k"), "$k still in the shared cache");
        }
        $this->assertTrue($fresh->getItem('after3600')->isHit());
        $this->assertTrue($fresh->getItem('forever')->isHit());
        $freshShort = new ApcuAdapter('exp_default', 1);
        $this->assertFalse($freshShort->hasItem('default'));
        $this->assertTrue($freshShort->hasItem('override'));
        $fresh16 = new Psr16Cache(new ApcuAdapter('exp16'));
        $got = iterator_to_array($fresh16->getMultiple(['ttl1', 'interval1', 'ttl3600', 'm1', 'm2'], 'gone'));
        ksort($got);
        $this->assertSame(['interval1' => 'gone', 'm1' => 'gone', 'm2' => 'gone', 'ttl1' => 'gone', 'ttl3600' => 'v'], $got);
        // and an expired key is computed again
        $this->assertSame('recomputed', $fresh->get('contract', fn() => 'recomputed'));
    }
}
