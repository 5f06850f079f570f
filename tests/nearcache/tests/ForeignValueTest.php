<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use PHPUnit\Framework\TestCase;
use Shardcache\NearCache;
use Shardcache\NearCacheTests\Support\CountingRedis;
use Shardcache\NearCacheTests\Support\DestructProbe;
use Shardcache\NearCacheTests\Support\ForkedSync;
use Shardcache\NearCacheTests\Support\RedisAndSync;

/**
 * Values written to Redis by other clients come back exactly as written, and
 * no class is instantiated from Redis unless allowed_classes says so, from
 * Redis and from the local copy alike.
 */
final class ForeignValueTest extends TestCase
{
    private const NS = 'foreign';

    use RedisAndSync;

    public static function setUpBeforeClass(): void
    {
        self::startRedisAndSync(self::NS);
    }

    public static function tearDownAfterClass(): void
    {
        self::stopRedisAndSync();
    }

    /** @return array<string, array{0:string}> */
    public static function foreignStrings(): array
    {
        $probe = new DestructProbe();
        $s = serialize($probe);
        unset($probe);
        return [
            'i:0;' => ['i:0;'],
            'N;' => ['N;'],
            'b:0;' => ['b:0;'],
            'b:1;' => ['b:1;'],
            'a:0:{}' => ['a:0:{}'],
            's:2:"ab";' => ['s:2:"ab";'],
            'serialized object' => [$s],
            'O:8:"stdClass":0:{}' => ['O:8:"stdClass":0:{}'],
            'plain text' => ['plain text'],
            'empty' => [''],
            'binary' => ["\0\xff\x01"],
            'json' => ['{"a":1}'],
        ];
    }

    /** @dataProvider foreignStrings */
    public function testForeignStringComesBackAsWritten(string $raw): void
    {
        $r = CountingRedis::connectTo(self::$redis->port);
        $c = new NearCache($r, self::NS, ['max_lag_ms' => 60000]);
        $this->assertTrue(ForkedSync::waitUsable($c), 'the sync is healthy');
        DestructProbe::$destructed = 0;
        self::$redis->client()->set(self::NS . ':fs', $raw);
        $this->assertTrue(ForkedSync::waitCovered(self::NS), 'the invalidation of the write was applied');
        $r->gets = 0;
        $this->assertSame($raw, $c->get('fs'), 'from Redis');
        $this->assertSame($raw, $c->get('fs'), 'from the local copy');
        $this->assertSame($raw, $c->getMultiple(['fs'])['fs']);
        $this->assertSame(1, $r->gets, 'the second read was a local hit');
        $this->assertSame(0, DestructProbe::$destructed, 'no object was instantiated from Redis');
    }

    /** Objects that NearCache wrote itself are instantiated only when allowed_classes allows them. */
    public function testObjectsNeedAllowedClasses(): void
    {
        $admin = self::$redis->client();
        $c = new NearCache(self::$redis->client(), self::NS);
        $this->assertTrue($c->set('obj', new DestructProbe()));
        $this->assertTrue($c->set('std', (object) ['a' => 1]));
        DestructProbe::$destructed = 0;
        $v = $c->get('obj');
        $this->assertInstanceOf(\__PHP_Incomplete_Class::class, $v, 'default allowed_classes: false');
        $this->assertInstanceOf(\__PHP_Incomplete_Class::class, $c->get('std'));
        unset($v);
        $this->assertSame(0, DestructProbe::$destructed);

        $allowed = new NearCache(self::$redis->client(), self::NS, ['allowed_classes' => [DestructProbe::class]]);
        $v = $allowed->get('obj');
        $this->assertInstanceOf(DestructProbe::class, $v);
        $this->assertInstanceOf(\__PHP_Incomplete_Class::class, $allowed->get('std'), 'not in the list');
        unset($v);
        $this->assertSame(1, DestructProbe::$destructed);

        $all = new NearCache(self::$redis->client(), self::NS, ['allowed_classes' => true]);
        $this->assertEquals((object) ['a' => 1], $all->get('std'));

        // A foreign serialized object stays a string even when classes are allowed.
        $admin->set(self::NS . ':fobj', serialize((object) ['a' => 1]));
        $this->assertSame(serialize((object) ['a' => 1]), $all->get('fobj'));
    }

    /** Every value NearCache writes comes back as written, whatever its bytes. */
    public function testOwnValuesRoundTrip(): void
    {
        $c = new NearCache(self::$redis->client(), self::NS);
        $values = [
            'i:0;', 'N;', 'b:0;', '', "\0", "\0\xff", 'plain', str_repeat('x', 1000),
            "\0\xffNC1", "\0\xffNC1i:0;", "\0\xffNC1x",     // strings that begin with the tag
            0, 1, -7, 1.5, true, false, [], [1, 'a' => ['b' => null]], PHP_INT_MAX,
        ];
        foreach ($values as $i => $v) {
            $this->assertTrue($c->set("own$i", $v));
            $this->assertSame($v, $c->get("own$i", 'default'), 'value #' . $i);
        }
        $this->assertTrue($c->set('ownnull', null));
        $this->assertTrue($c->has('ownnull'));
        $this->assertNull($c->get('ownnull', 'default'));
    }

    /**
     * legacy_values: values written by the format before the tag (every value
     * serialize()d) are still read, with allowed_classes; every value written
     * is tagged then, so that the values written meanwhile read back exactly.
     */
    public function testLegacyValues(): void
    {
        $admin = self::$redis->client();
        $admin->set(self::NS . ':old', serialize(['a' => 1]));
        $admin->set(self::NS . ':oldstr', serialize('s'));
        $admin->set(self::NS . ':oldobj', serialize(new DestructProbe()));
        $admin->set(self::NS . ':plain', 'plain text');
        DestructProbe::$destructed = 0;
        $c = new NearCache(self::$redis->client(), self::NS);
        $this->assertSame(serialize(['a' => 1]), $c->get('old'), 'default: as written');
        $legacy = new NearCache(self::$redis->client(), self::NS, ['legacy_values' => true]);
        $this->assertSame(['a' => 1], $legacy->get('old'));
        $this->assertSame('s', $legacy->get('oldstr'));
        $this->assertSame('plain text', $legacy->get('plain'), 'not serialize()d: as written');
        $this->assertInstanceOf(\__PHP_Incomplete_Class::class, $legacy->get('oldobj'));
        $this->assertSame(0, DestructProbe::$destructed);
        $this->assertTrue($legacy->set('new', 'i:0;'));
        $this->assertSame('i:0;', $legacy->get('new'));
        $this->assertSame('i:0;', $c->get('new'), 'tagged: read by both');
    }
}
