<?php
namespace Shardcache\SymfonyTests;

use Shardcache\ClientTests\CacheTestCase;

use Psr\Cache\InvalidArgumentException;
use Symfony\Component\Cache\Adapter\ApcuAdapter;
use Symfony\Component\Cache\Adapter\TagAwareAdapter;
use Symfony\Component\Cache\Marshaller\DefaultMarshaller;
use Symfony\Contracts\Cache\ItemInterface;

final class ApcuAdapterTest extends CacheTestCase
{
    public function testBackendIsTheExtensionUnderTest(): void
    {
        $this->assertTrue(ApcuAdapter::isSupported());
        $this->assertSame(getenv('SC_CACHE_EXT') ?: 'shardcache', \sc_cache_backend());
        $this->assertTrue(class_exists(\APCUIterator::class, false));
    }

    public function testMissSaveHit(): void
    {
        $cache = new ApcuAdapter('ns');
        $item = $cache->getItem('answer');
        $this->assertFalse($item->isHit());
        $this->assertNull($item->get());
        $this->assertFalse($cache->hasItem('answer'));

        $this->assertTrue($cache->save($item->set(42)));
        $this->assertTrue($cache->hasItem('answer'));
        // the value lives in the shared cache under "<namespace>:<key>", not in the adapter
        $this->assertTrue(apcu_exists('ns:answer'));

        $fresh = new ApcuAdapter('ns');
        $item = $fresh->getItem('answer');
        $this->assertTrue($item->isHit());
        $this->assertSame(42, $item->get());
        $this->assertSame('answer', $item->getKey());

        $this->assertTrue($fresh->save($item->set('overwritten')));
        $this->assertSame('overwritten', $cache->getItem('answer')->get());
    }

    public static function values(): iterable
    {
        yield 'int' => [123];
        yield 'negative int' => [PHP_INT_MIN];
        yield 'float' => [3.25];
        yield 'string' => ['hello'];
        yield 'empty string' => [''];
        yield 'binary string' => ["\0\x01\xff" . str_repeat("\0", 100)];
        yield 'true' => [true];
        yield 'false' => [false];
        yield 'null' => [null];
        yield 'empty array' => [[]];
        yield 'list' => [[1, 2, 3, 'four', 5.5, null, false]];
        yield 'nested array' => [['a' => ['b' => ['c' => ['d' => 1]]], 7 => 'seven', 'list' => range(1, 100)]];
        yield 'stdClass' => [(object) ['x' => 1, 'y' => [2, 3]]];
        yield 'ArrayObject' => [new \ArrayObject(['k' => 'v'])];
        yield 'DateTimeImmutable' => [new \DateTimeImmutable('2024-02-29 12:34:56.789 UTC')];
        yield 'enum' => [Suit::Spades];
        yield 'array of enums' => [[Suit::Hearts, Suit::Spades]];
        yield '1 MB string' => [str_repeat('0123456789abcdef', 65536)];
        yield 'big array' => [array_fill(0, 20000, 'x')];
    }

    /** @dataProvider values */
    public function testValueRoundTrip(mixed $value): void
    {
        $cache = new ApcuAdapter('types');
        $this->assertTrue($cache->save($cache->getItem('v')->set($value)));
        $item = (new ApcuAdapter('types'))->getItem('v');
        $this->assertTrue($item->isHit());
        if (is_object($value) && !$value instanceof \UnitEnum) {
            $this->assertEquals($value, $item->get());
            $this->assertNotSame($value, $item->get());
        } else {
            $this->assertSame($value, $item->get());
        }
    }

    public function testGetItemsHasItemDelete(): void
    {
        $cache = new ApcuAdapter('multi');
        foreach (['a' => 1, 'b' => 2, 'c' => 3] as $k => $v) {
            $this->assertTrue($cache->save($cache->getItem($k)->set($v)));
        }
        $got = [];
        foreach ($cache->getItems(['a', 'b', 'c', 'missing']) as $k => $item) {
            $got[$k] = $item->isHit() ? $item->get() : 'miss';
        }
        $this->assertSame(['a' => 1, 'b' => 2, 'c' => 3, 'missing' => 'miss'], $got);

        $this->assertTrue($cache->deleteItem('a'));
        $this->assertTrue($cache->deleteItem('never-there'));
        $this->assertFalse($cache->hasItem('a'));
        $this->assertFalse(apcu_exists('multi:a'));
        $this->assertTrue($cache->deleteItems(['b', 'c']));
        $this->assertFalse($cache->hasItem('b'));
        $this->assertFalse($cache->hasItem('c'));
    }

    public function testSaveDeferredAndCommit(): void
    {
        $cache = new ApcuAdapter('deferred');
        $other = new ApcuAdapter('deferred');
        for ($i = 0; $i < 2000; $i++) {
            $this->assertTrue($cache->saveDeferred($cache->getItem("k$i")->set(['i' => $i])));
        }
        // nothing is written before the commit...
        $this->assertFalse($other->hasItem('k0'));
        $this->assertFalse(apcu_exists('deferred:k1999'));
        // ...but the adapter that deferred them sees them
        $this->assertSame(['i' => 5], $cache->getItem('k5')->get());
        $this->assertTrue($cache->commit());
        $n = 0;
        foreach ($other->getItems(array_map(fn($i) => "k$i", range(0, 1999))) as $k => $item) {
            $this->assertTrue($item->isHit(), $k);
            $this->assertSame(['i' => (int) substr($k, 1)], $item->get());
            $n++;
        }
        $this->assertSame(2000, $n);
    }

    public function testClearOnlyClearsItsNamespace(): void
    {
        $a = new ApcuAdapter('app_a');
        $b = new ApcuAdapter('app_b');
        $prefixed = new ApcuAdapter('app_a_longer');   // its ids start with "app_a_longer:", not "app_a:"
        foreach ([$a, $b, $prefixed] as $cache) {
            for ($i = 0; $i < 50; $i++) {
                $cache->save($cache->getItem("item$i")->set($i));
            }
        }
        apcu_store('raw:key', 'not from symfony');

        // ApcuAdapter::clear() with a namespace deletes through new APCUIterator('/^app_a:/')
        $this->assertTrue($a->clear());
        for ($i = 0; $i < 50; $i++) {
            $this->assertFalse($a->hasItem("item$i"));
            $this->assertTrue($b->hasItem("item$i"));
            $this->assertTrue($prefixed->hasItem("item$i"));
        }
        $this->assertSame('not from symfony', apcu_fetch('raw:key'));
        $this->assertFalse((new ApcuAdapter('app_a'))->getItem('item0')->isHit());
        $this->assertSame(49, (new ApcuAdapter('app_b'))->getItem('item49')->get());
    }

    public function testClearWithoutNamespaceClearsEverything(): void
    {
        $cache = new ApcuAdapter();
        $named = new ApcuAdapter('named');
        $cache->save($cache->getItem('k')->set('v'));
        $named->save($named->getItem('k')->set('v'));
        apcu_store('raw', 1);
        $this->assertTrue($cache->clear());   // no namespace: apcu_clear_cache()
        $this->assertFalse($cache->hasItem('k'));
        $this->assertFalse($named->hasItem('k'));
        $this->assertFalse(apcu_exists('raw'));
    }

    public function testVersionChangeClearsTheNamespace(): void
    {
        $v1 = new ApcuAdapter('versioned', 0, 'v1');
        $v1->save($v1->getItem('k')->set('from v1'));
        $keep = new ApcuAdapter('other');
        $keep->save($keep->getItem('k')->set('other namespace'));

        $this->assertSame('from v1', (new ApcuAdapter('versioned', 0, 'v1'))->getItem('k')->get());
        // a new version clears the namespace (APCUIterator) and records itself with apcu_add
        $v2 = new ApcuAdapter('versioned', 0, 'v2');
        $this->assertFalse($v2->getItem('k')->isHit());
        $this->assertTrue(apcu_exists('v2@versioned'));
        $this->assertSame('other namespace', $keep->getItem('k')->get());
    }

    public function testContractsGetComputesOnlyOnMiss(): void
    {
        $cache = new ApcuAdapter('contracts');
        $calls = 0;
        $compute = function (ItemInterface $item) use (&$calls) {
            $calls++;
            $item->expiresAfter(3600);
            return ['computed' => $calls];
        };
        $this->assertSame(['computed' => 1], $cache->get('key', $compute));
        $this->assertSame(['computed' => 1], $cache->get('key', $compute));
        $this->assertSame(['computed' => 1], (new ApcuAdapter('contracts'))->get('key', $compute));
        $this->assertSame(1, $calls);
        // beta = INF forces an early recomputation
        $this->assertSame(['computed' => 2], $cache->get('key', $compute, INF));
        $this->assertTrue($cache->delete('key'));
        $this->assertSame(['computed' => 3], $cache->get('key', $compute));
        $this->assertSame(3, $calls);
    }

    public function testInvalidKeysAreRejected(): void
    {
        $cache = new ApcuAdapter('keys');
        foreach (['{', '}', '(', ')', '/', '\\', '@', ':'] as $char) {
            try {
                $cache->getItem("bad{$char}key");
                $this->fail("key with '$char' accepted");
            } catch (InvalidArgumentException $e) {
                $this->addToAssertionCount(1);
            }
        }
        // every other byte is fine, also for the shared cache
        $key = 'ok.key-with_chars|and spaces#1%é' . str_repeat('x', 200);
        $this->assertTrue($cache->save($cache->getItem($key)->set('fine')));
        $this->assertSame('fine', (new ApcuAdapter('keys'))->getItem($key)->get());
    }

    public function testMarshaller(): void
    {
        $cache = new ApcuAdapter('marshalled', 0, null, new DefaultMarshaller());
        $value = ['deep' => [(object) ['a' => 1], Suit::Hearts]];
        $this->assertTrue($cache->save($cache->getItem('m')->set($value)));
        $this->assertIsString(apcu_fetch('marshalled:m'));   // stored as a serialized string
        $this->assertEquals($value, (new ApcuAdapter('marshalled', 0, null, new DefaultMarshaller()))->getItem('m')->get());
    }

    public function testTagAwareAdapterInvalidation(): void
    {
        $tagAware = fn() => new TagAwareAdapter(new ApcuAdapter('items'), new ApcuAdapter('tags'));
        $cache = $tagAware();
        $cache->save($cache->getItem('p1')->set('product 1')->tag(['products', 'p1']));
        $cache->save($cache->getItem('p2')->set('product 2')->tag(['products']));
        $cache->save($cache->getItem('u1')->set('user 1')->tag(['users']));

        // invalidated through one instance: seen by that instance and by new ones (an older
        // instance may keep tag versions it knows for a short while, by design)
        $other = $tagAware();
        $this->assertSame('product 1', $other->getItem('p1')->get());
        $this->assertTrue($other->invalidateTags(['p1']));
        $this->assertFalse($other->getItem('p1')->isHit());
        $this->assertFalse($tagAware()->getItem('p1')->isHit());
        $this->assertTrue($tagAware()->getItem('p2')->isHit());

        $this->assertTrue($cache->invalidateTags(['products']));
        $this->assertFalse($cache->getItem('p2')->isHit());
        $again = $tagAware();
        $this->assertFalse($again->getItem('p2')->isHit());
        $this->assertSame('user 1', $again->getItem('u1')->get());
    }

    public function testAnotherProcessSeesTheSameCache(): void
    {
        if (!function_exists('pcntl_fork')) {
            $this->markTestSkipped('pcntl not available');
        }
        $cache = new ApcuAdapter('shared');
        $cache->save($cache->getItem('from_parent')->set('parent value'));
        $cache->save($cache->getItem('to_delete')->set('doomed'));

        $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        $pid = pcntl_fork();
        $this->assertGreaterThanOrEqual(0, $pid);
        if ($pid === 0) {
            fclose($pair[0]);
            $child = new ApcuAdapter('shared');
            $seen = $child->getItem('from_parent')->get();
            $child->save($child->getItem('from_child')->set(['pid' => getmypid()]));
            $child->deleteItem('to_delete');
            $child->get('computed_in_child', fn() => 'child computed');
            fwrite($pair[1], json_encode(['seen' => $seen, 'pid' => getmypid()]));
            fclose($pair[1]);
            // leave without running PHPUnit's shutdown functions in the child
            pcntl_exec('/bin/true');
            exit(1);
        }
        fclose($pair[1]);
        $report = json_decode(stream_get_contents($pair[0]), true);
        fclose($pair[0]);
        pcntl_waitpid($pid, $status);
        $this->assertTrue(pcntl_wifexited($status) && pcntl_wexitstatus($status) === 0, "child status $status");

        $this->assertSame('parent value', $report['seen']);
        $parent = new ApcuAdapter('shared');
        $this->assertSame(['pid' => $report['pid']], $parent->getItem('from_child')->get());
        $this->assertFalse($parent->hasItem('to_delete'));
        $this->assertSame('child computed', $parent->get('computed_in_child', fn() => 'parent computed'));
    }
}
