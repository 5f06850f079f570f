<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use PHPUnit\Framework\TestCase;
use Shardcache\NearCacheTests\Support\Host;
use Shardcache\NearCacheTests\Support\Php;
use Shardcache\NearCacheTests\Support\RedisServer;
use Shardcache\NearCacheTests\Support\SyncProcess;

/**
 * The deployment of nearcache/README.md with named segments (shardcache.segment): per
 * host one segment file, one bin/shardcache-sync process of its own and
 * independent worker processes (not forked from one parent), as PHP-FPM
 * workers and a systemd-run sync would be. Host A has two worker processes
 * (A1, A2), host B one.
 */
final class NamedSegmentTest extends TestCase
{
    private const NS = 'named';
    private const MAX_LAG_MS = 500;

    private static ?RedisServer $redis = null;
    private static string $dir = '';
    /** @var array<string, Host> */
    private static array $w = [];
    /** @var array<string, SyncProcess> */
    private static array $sync = [];
    /** @var array<string, list<string>> */
    private static array $seg = [];

    public static function setUpBeforeClass(): void
    {
        $probe = array_merge([PHP_BINARY], Php::args(), ['-r', 'echo ini_get("shardcache.segment") === false ? "no" : "yes";']);
        $p = proc_open($probe, [1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $has = stream_get_contents($pipes[1]) === 'yes';
        proc_close($p);
        if (!$has) {
            self::markTestSkipped('this shardcache has no named segments (shardcache.segment)');
        }
        self::$redis = new RedisServer();
        self::$dir = (is_dir('/dev/shm') ? '/dev/shm' : sys_get_temp_dir()) . '/nearcache-test-' . getmypid() . '-' . bin2hex(random_bytes(3));
        mkdir(self::$dir, 0700);
        foreach (['a', 'b'] as $h) {
            self::$seg[$h] = ['-d', 'shardcache.segment=' . self::$dir . "/seg-$h"];
        }
        // The sync first: it creates the segment file; the workers map it.
        self::$sync['a'] = new SyncProcess(self::$redis->port, self::NS, self::$seg['a']);
        self::$sync['b'] = new SyncProcess(self::$redis->port, self::NS, self::$seg['b']);
        self::$w['a1'] = new Host(self::$redis->port, self::NS, self::$seg['a']);
        self::$w['a2'] = new Host(self::$redis->port, self::NS, self::$seg['a']);
        self::$w['b'] = new Host(self::$redis->port, self::NS, self::$seg['b']);
        foreach (self::$w as $name => $h) {
            self::assertTrue($h('wait-local', ['usable' => true, 'timeout_ms' => 10000])['ok'], "$name: the sync of its segment is healthy");
        }
    }

    public static function tearDownAfterClass(): void
    {
        foreach (self::$w as $h) {
            $h->close();
        }
        foreach (self::$sync as $s) {
            $s->stop(false);
        }
        self::$w = self::$sync = [];
        self::$redis = null;
        if (self::$dir !== '' && is_dir(self::$dir)) {
            array_map('unlink', glob(self::$dir . '/*') ?: []);
            rmdir(self::$dir);
        }
    }

    private static function nowMs(): int
    {
        return intdiv(hrtime(true), 1000000);
    }

    private function covered(Host $h): void
    {
        $this->assertTrue($h('wait-heartbeat', ['after_ms' => self::nowMs() + 1, 'timeout_ms' => 5000])['ok'], 'heartbeat covers the write');
    }

    public function testWorkersOfOneHostShareTheLocalCopy(): void
    {
        ['a1' => $a1, 'a2' => $a2, 'b' => $b] = self::$w;
        $this->assertTrue($b('set', ['key' => 'shared', 'value' => 's1'])['ok']);
        $this->covered($a1);
        $this->assertSame(['value' => 's1', 'redis_reads' => 1], $a1('get', ['key' => 'shared']));
        $this->assertSame(['value' => 's1', 'redis_reads' => 0], $a2('get', ['key' => 'shared']), 'another process of host A hits');
        $this->assertSame(['value' => 's1', 'redis_reads' => 1], $b('get', ['key' => 'shared']), 'host B has its own segment');
    }

    public function testWriteOnOneHostIsSeenOnTheOther(): void
    {
        ['a1' => $a1, 'a2' => $a2, 'b' => $b] = self::$w;
        $this->assertTrue($b('set', ['key' => 'k', 'value' => 0])['ok']);
        $this->covered($a1);
        $delays = [];
        for ($i = 1; $i <= 100; $i++) {
            $this->assertSame($i - 1, $a1('get', ['key' => 'k'])['value']);
            $this->assertSame(['value' => $i - 1, 'redis_reads' => 0], $a2('get', ['key' => 'k']));
            $a2->send('await', ['key' => 'k', 'old' => $i - 1, 'new' => $i, 'timeout_ms' => 5000]);
            $set = $b('set', ['key' => 'k', 'value' => $i]);
            $this->assertTrue($set['ok']);
            $seen = $a2->receive();
            $this->assertSame([], $seen['bad'], "round $i: A2 read stale or foreign values");
            $this->assertGreaterThan(0, $seen['seen_ns']);
            $delays[] = max(0, $seen['seen_ns'] - $set['done_ns']) / 1e6;
            $this->covered($a1);
            $this->assertSame($i, $a1('get', ['key' => 'k'])['value']);
        }
        sort($delays);
        fwrite(STDERR, sprintf("\nnearcache named segments: %d writes on B, A's switch: p50 %.3f ms, p99 %.3f ms\n",
            count($delays), $delays[50], $delays[98]));
        $this->assertLessThanOrEqual(self::MAX_LAG_MS, end($delays));
    }

    public function testSyncProcessKilledAndRestarted(): void
    {
        ['a1' => $a1, 'a2' => $a2, 'b' => $b] = self::$w;
        $this->assertTrue($b('set', ['key' => 'sk', 'value' => 'v0'])['ok']);
        $this->covered($a1);
        $this->assertSame('v0', $a1('get', ['key' => 'sk'])['value']);
        $this->assertSame(['value' => 'v0', 'redis_reads' => 0], $a2('get', ['key' => 'sk']));

        $this->assertSame(128 + SIGKILL, self::$sync['a']->stop(true));
        $killed = self::nowMs();
        $this->assertTrue($b('set', ['key' => 'sk', 'value' => 'v1'])['ok']);
        do {
            $asked = self::nowMs();
            $r = $a2('get', ['key' => 'sk']);
            $this->assertContains($r['value'], ['v0', 'v1']);
            if ($r['value'] === 'v0') {
                $this->assertLessThanOrEqual(self::MAX_LAG_MS, $asked - $killed, 'stale local read beyond max_lag_ms');
            }
        } while (!$a2('wait-local', ['usable' => false, 'timeout_ms' => 0])['ok'] && self::nowMs() - $killed < 5000);
        $this->assertSame(['value' => 'v1', 'redis_reads' => 1], $a1('get', ['key' => 'sk']));

        self::$sync['a']->start();
        $this->assertTrue($a1('wait-local', ['usable' => true, 'timeout_ms' => 10000])['ok']);
        $this->assertSame(['value' => 'v1', 'redis_reads' => 1], $a2('get', ['key' => 'sk']), 'new generation');
        $this->assertSame(['value' => 'v1', 'redis_reads' => 0], $a1('get', ['key' => 'sk']));

        // SIGTERM: the sync marks the layer unusable before it exits (0).
        $this->assertSame(0, self::$sync['a']->stop(false));
        $this->assertTrue($a1('wait-local', ['usable' => false, 'timeout_ms' => 0])['ok'], 'unusable at once after a clean stop');
        self::$sync['a']->start();
        $this->assertTrue($a1('wait-local', ['usable' => true, 'timeout_ms' => 10000])['ok']);
    }
}
