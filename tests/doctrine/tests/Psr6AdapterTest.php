<?php
namespace Shardcache\DoctrineTests;

use Shardcache\ClientTests\CacheTestCase;

use Doctrine\Common\Cache\ApcuCache;
use Doctrine\Common\Cache\Psr6\CacheAdapter;

/* Doctrine's PSR-6 adapter over ApcuCache. */
final class Psr6AdapterTest extends CacheTestCase
{
    public function testItemsSaveDeferCommitAndDelete(): void
    {
        $pool = CacheAdapter::wrap(new ApcuCache());
        $item = $pool->getItem('answer');
        $this->assertFalse($item->isHit());
        $this->assertTrue($pool->save($item->set(['x' => 42])));

        $fresh = CacheAdapter::wrap(new ApcuCache());
        $this->assertTrue($fresh->hasItem('answer'));
        $this->assertSame(['x' => 42], $fresh->getItem('answer')->get());

        $this->assertTrue($pool->saveDeferred($pool->getItem('d1')->set('one')));
        $this->assertTrue($pool->saveDeferred($pool->getItem('d2')->set('two')->expiresAfter(3600)));
        $this->assertTrue($pool->commit());
        $items = iterator_to_array(CacheAdapter::wrap(new ApcuCache())->getItems(['d1', 'd2', 'none']));
        $this->assertSame('one', $items['d1']->get());
        $this->assertSame('two', $items['d2']->get());
        $this->assertFalse($items['none']->isHit());

        $this->assertTrue($pool->deleteItems(['d1', 'answer']));
        $this->assertFalse(CacheAdapter::wrap(new ApcuCache())->hasItem('d1'));
        $this->assertTrue(CacheAdapter::wrap(new ApcuCache())->hasItem('d2'));
        $this->assertTrue($pool->clear());
        $this->assertFalse(CacheAdapter::wrap(new ApcuCache())->hasItem('d2'));
    }

    public function testExpiry(): void
    {
        $pool = CacheAdapter::wrap(new ApcuCache());
        // the adapter turns the expiry into whole seconds from now, rounded down: 2 s -> 1 or 2
        $this->assertTrue($pool->save($pool->getItem('short')->set('s')->expiresAfter(2)));
        $this->assertTrue($pool->save($pool->getItem('long')->set('l')->expiresAfter(new \DateInterval('PT1H'))));
        self::waitSeconds(3.1);
        $fresh = CacheAdapter::wrap(new ApcuCache());
        $this->assertFalse($fresh->getItem('short')->isHit());
        $this->assertSame('l', $fresh->getItem('long')->get());
    }
}
