<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use PHPUnit\Framework\TestCase;
use Shardcache\NearCacheTests\Support\Host;
use Shardcache\NearCacheTests\Support\RedisServer;

/**
 * Two hosts (host.php processes, each with its own shardcache segment and its
 * own sync process) in front of one private redis-server. Every value a host
 * reads is checked. Nothing here waits by sleeping: the tests wait for
 * conditions (a heartbeat covering a moment, the local layer (un)usable), with
 * timeouts only as a failure bound.
 *
 * "Covered": host X's sync published a heartbeat sent after time T. Redis
 * executes commands one at a time and delivers invalidations in order, so
 * every write that returned before T was applied on X by then. A write's
 * coherence point on another host is therefore "the write returned, plus the
 * sync delay"; these tests check that no read after that point is stale.
 */
final class CoherenceTest extends TestCase
{
    private const NS = 'coh';
    private const MAX_LAG_MS = 500;    // NearCache's default max_lag_ms

    private static ?RedisServer $redis = null;
    private static ?Host $a = null;
    private static ?Host $b = null;

    public static function setUpBeforeClass(): void
    {
        self::$redis = new RedisServer();
        self::$a = new Host(self::$redis->port, self::NS);
        self::$b = new Host(self::$redis->port, self::NS);
        foreach ([self::$a, self::$b] as $h) {
            $h('sync-start');
        }
        foreach ([self::$a, self::$b] as $h) {
            self::assertTrue($h('wait-local', ['usable' => true, 'timeout_ms' => 5000])['ok'], 'sync healthy');
        }
    }

    public static function tearDownAfterClass(): void
    {
        self::$a?->close();
        self::$b?->close();
        self::$a = self::$b = null;
        self::$redis = null;
    }

    private static function nowMs(): int
    {
        return intdiv(hrtime(true), 1000000);
    }

    /** Waits until $h applied every write that returned before now. */
    private function covered(Host $h): void
    {
        $t = self::nowMs() + 1;
        $this->assertTrue($h('wait-heartbeat', ['after_ms' => $t, 'timeout_ms' => 5000])['ok'], 'heartbeat covers the write');
    }

    public function testSecondGetIsALocalHit(): void
    {
        $a = self::$a;
        $b = self::$b;
        $this->assertTrue($a('set', ['key' => 'hit', 'value' => 'v1'])['ok']);
        $this->covered($b);
        $this->assertSame(['value' => 'v1', 'redis_reads' => 1], $b('get', ['key' => 'hit']));
        $this->assertSame(['value' => 'v1', 'redis_reads' => 0], $b('get', ['key' => 'hit']));
        // A missing key is not cached as missing.
        $this->assertSame(['value' => null, 'redis_reads' => 1], $b('get', ['key' => 'nothing']));
        $this->assertSame(['value' => null, 'redis_reads' => 1], $b('get', ['key' => 'nothing']));
    }

    /**
     * A writes, B reads: B's reads switch from the old to the new value once,
     * never back, and B never reads the old value once its heartbeat covers the
     * moment A's set() returned. The switch delay (A's set() returned -> B's
     * first read of the new value) is reported as p50/p99.
     */
    public function testWriteOnOneHostIsSeenOnTheOther(): void
    {
        $a = self::$a;
        $b = self::$b;
        $n = (int) (getenv('NEARCACHE_ROUNDS') ?: 200);
        $this->assertTrue($a('set', ['key' => 'k', 'value' => 0])['ok']);
        $this->covered($b);
        $delays = [];
        for ($i = 1; $i <= $n; $i++) {
            // B holds the old value locally (filled now or by the last round's reads).
            $this->assertSame($i - 1, $b('get', ['key' => 'k'])['value'], "round $i fill");
            $this->assertSame(['value' => $i - 1, 'redis_reads' => 0], $b('get', ['key' => 'k']), "round $i local hit");
            // B reads in a loop while A writes.
            $b->send('await', ['key' => 'k', 'old' => $i - 1, 'new' => $i, 'timeout_ms' => 5000]);
            $set = $a('set', ['key' => 'k', 'value' => $i]);
            $this->assertTrue($set['ok']);
            $seen = $b->receive('await');
            $this->assertSame([], $seen['bad'], "round $i: B read stale or foreign values");
            $this->assertGreaterThan(0, $seen['seen_ns'], "round $i: B never saw the new value");
            $delays[] = max(0, $seen['seen_ns'] - $set['done_ns']) / 1e6;
            // Once B's heartbeat covers the write, B must read the new value.
            $this->covered($b);
            $this->assertSame($i, $b('get', ['key' => 'k'])['value'], "round $i after the heartbeat");
        }
        sort($delays);
        $p50 = $delays[intdiv(count($delays), 2)];
        $p99 = $delays[min(count($delays) - 1, (int) floor(0.99 * count($delays)))];
        fwrite(STDERR, sprintf("\nnearcache coherence: %d writes on A, B's switch to the new value after A's set() returned: p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
            count($delays), $p50, $p99, end($delays)));
        $this->assertLessThanOrEqual(self::MAX_LAG_MS, end($delays), 'switch delay within max_lag_ms');
    }

    /**
     * Three workers of B read one key in a loop while A writes 1, 2, 3, ...
     * For every read: a write that returned before the heartbeat B's
     * worker saw just before its get() must not be older than the value
     * read (the heartbeat proves that write was applied on B).
     */
    public function testConcurrentReadersNeverReadBehindTheHeartbeat(): void
    {
        $a = self::$a;
        $b = self::$b;
        $this->assertTrue($a('set', ['key' => 'stress', 'value' => 0])['ok']);
        $this->covered($b);
        $ms = 2000;
        $b->send('stress-read', ['key' => 'stress', 'workers' => 3, 'ms' => $ms]);
        $returned = [0 => 0];      // value => hrtime ns its set() returned
        $end = hrtime(true) + ($ms + 200) * 1000000;
        for ($v = 1; hrtime(true) < $end; $v++) {
            $r = $a('set', ['key' => 'stress', 'value' => $v]);
            $this->assertTrue($r['ok']);
            $returned[$v] = $r['done_ns'];
        }
        $res = $b->receive();
        $this->assertGreaterThan(100, count($returned), 'writes made');
        $this->assertGreaterThan($res['redis_reads'], $res['reads'], 'some reads were local hits');
        $violations = [];
        foreach ($res['max_hb'] as $json => $hbMs) {
            $read = json_decode((string) $json, true);
            $this->assertIsInt($read, 'only written values are read');
            $this->assertArrayHasKey($read, $returned);
            // The newest write that returned before that heartbeat was sent
            // (the writes are sequential: return times grow with the value).
            $lo = 0;
            $hi = count($returned) - 1;
            while ($lo < $hi) {
                $mid = intdiv($lo + $hi + 1, 2);
                $returned[$mid] < $hbMs * 1000000 ? $lo = $mid : $hi = $mid - 1;
            }
            $newest = $lo;
            if ($read < $newest) {
                $violations[] = "read $read although $newest returned before heartbeat $hbMs";
            }
        }
        fwrite(STDERR, sprintf("\nnearcache stress: %d writes on A, %d reads by 3 workers of B (%d from Redis), each checked against the heartbeat seen before it\n",
            count($returned) - 1, $res['reads'], $res['redis_reads']));
        $this->assertSame([], $violations);
    }

    /**
     * The near-cache race, forced: a reader of B reads the old value from Redis
     * and stops before installing it; the write and its invalidation on B
     * happen; then the reader installs. B must not serve that copy.
     */
    public function testReaderCannotInstallAValueInvalidatedMeanwhile(): void
    {
        $a = self::$a;
        $b = self::$b;
        $this->assertTrue($a('set', ['key' => 'race', 'value' => 'old'])['ok']);
        $this->covered($b);
        $this->assertTrue($b('race-read', ['key' => 'race'])['stopped']);
        $this->assertTrue($a('set', ['key' => 'race', 'value' => 'new'])['ok']);
        $this->covered($b);                      // the invalidation was applied on B
        // Another reader of B fills the new value meanwhile (a busy key).
        $this->assertSame(['value' => 'new', 'redis_reads' => 1], $b('get', ['key' => 'race']));
        $this->assertSame(['value' => 'new', 'redis_reads' => 0], $b('get', ['key' => 'race']));
        // The stopped reader installs its old copy over it.
        $this->assertSame(['value' => 'old', 'redis_reads' => 1], $b('race-release'));   // it read before the write
        $this->assertSame(['value' => 'new', 'redis_reads' => 1], $b('get', ['key' => 'race']), 'the late copy is dead');
        $this->assertSame(['value' => 'new', 'redis_reads' => 0], $b('get', ['key' => 'race']));

        // The same with the write made on B itself: B's set() must kill the
        // late copy at once, without waiting for its sync. (A's write first
        // drops B's copy, so that the reader goes to Redis.)
        $this->assertTrue($a('set', ['key' => 'race', 'value' => 'mid'])['ok']);
        $this->covered($b);
        $this->assertTrue($b('race-read', ['key' => 'race'])['stopped']);
        $this->assertTrue($b('set', ['key' => 'race', 'value' => 'newer'])['ok']);
        $this->assertSame(['value' => 'newer', 'redis_reads' => 1], $b('get', ['key' => 'race']));
        $this->assertSame(['value' => 'mid', 'redis_reads' => 1], $b('race-release'));
        $this->assertSame(['value' => 'newer', 'redis_reads' => 1], $b('get', ['key' => 'race']));

        // And with a delete on B.
        $this->assertTrue($a('set', ['key' => 'race', 'value' => 'last'])['ok']);
        $this->covered($b);
        $this->assertTrue($b('race-read', ['key' => 'race'])['stopped']);
        $this->assertTrue($b('delete', ['key' => 'race'])['ok']);
        $this->assertSame(['value' => null, 'redis_reads' => 1], $b('get', ['key' => 'race']));
        $this->assertSame(['value' => 'last', 'redis_reads' => 1], $b('race-release'));
        $this->assertSame(['value' => null, 'redis_reads' => 1], $b('get', ['key' => 'race']));
    }

    /**
     * B's sync is killed: B may serve its local copy for at most max_lag_ms
     * after the last heartbeat, then reads Redis only; the restarted sync
     * drops every older local copy (new generation), even those whose
     * invalidation was missed while it was down.
     */
    public function testSyncKilledAndRestarted(): void
    {
        $a = self::$a;
        $b = self::$b;
        $this->assertTrue($a('set', ['key' => 'sk', 'value' => 'v0'])['ok']);
        $this->covered($b);
        $this->assertSame(['value' => 'v0', 'redis_reads' => 1], $b('get', ['key' => 'sk']));
        $this->assertSame(['value' => 'v0', 'redis_reads' => 0], $b('get', ['key' => 'sk']));

        $b('sync-kill');
        $killed = self::nowMs();
        $this->assertTrue($a('set', ['key' => 'sk', 'value' => 'v1'])['ok']);   // B misses this invalidation
        // Until B notices, its reads are v0 (local, within the bound) or v1.
        do {
            $asked = self::nowMs();     // B checks its heartbeat after this
            $r = $b('get', ['key' => 'sk']);
            $this->assertContains($r['value'], ['v0', 'v1']);
            if ($r['value'] === 'v0') {
                $this->assertLessThanOrEqual(self::MAX_LAG_MS, $asked - $killed, 'stale local read beyond max_lag_ms');
            }
        } while (!$b('wait-local', ['usable' => false, 'timeout_ms' => 0])['ok'] && self::nowMs() - $killed < 5000);
        $this->assertTrue($b('wait-local', ['usable' => false, 'timeout_ms' => 0])['ok'], 'local layer dropped');
        for ($i = 0; $i < 20; $i++) {
            $this->assertSame(['value' => 'v1', 'redis_reads' => 1], $b('get', ['key' => 'sk']), 'bypass: Redis only');
        }
        $this->assertTrue($a('set', ['key' => 'sk', 'value' => 'v2'])['ok']);
        $this->assertSame(['value' => 'v2', 'redis_reads' => 1], $b('get', ['key' => 'sk']));

        $b('sync-start');
        $this->assertTrue($b('wait-local', ['usable' => true, 'timeout_ms' => 5000])['ok']);
        $this->assertSame(['value' => 'v2', 'redis_reads' => 1], $b('get', ['key' => 'sk']), 'new generation: refilled');
        $this->assertSame(['value' => 'v2', 'redis_reads' => 0], $b('get', ['key' => 'sk']));
        $b->send('await', ['key' => 'sk', 'old' => 'v2', 'new' => 'v3', 'timeout_ms' => 5000]);
        $this->assertTrue($a('set', ['key' => 'sk', 'value' => 'v3'])['ok']);
        $seen = $b->receive();
        $this->assertSame([], $seen['bad']);
        $this->assertGreaterThan(0, $seen['seen_ns']);

        // A copy made before the kill whose invalidation was missed: v0 was
        // cached under the old generation with a still-matching epoch; only the
        // generation keeps it out. (Checked above: the first get after the
        // restart read Redis.)
    }

    /**
     * B's sync hangs (SIGSTOP): B serves its local copy for at most max_lag_ms
     * after the last heartbeat, then reads Redis only; when the sync goes on,
     * it finds its heartbeats overdue, reconnects and starts a new generation.
     */
    public function testSyncHungAndResumed(): void
    {
        $a = self::$a;
        $b = self::$b;
        $this->assertTrue($a('set', ['key' => 'hk', 'value' => 'h0'])['ok']);
        $this->covered($b);
        $this->assertSame('h0', $b('get', ['key' => 'hk'])['value']);
        $this->assertSame(['value' => 'h0', 'redis_reads' => 0], $b('get', ['key' => 'hk']));

        $b('sync-pause');
        $stopped = self::nowMs();
        $this->assertTrue($a('set', ['key' => 'hk', 'value' => 'h1'])['ok']);
        do {
            $asked = self::nowMs();
            $r = $b('get', ['key' => 'hk']);
            $this->assertContains($r['value'], ['h0', 'h1']);
            if ($r['value'] === 'h0') {
                $this->assertLessThanOrEqual(self::MAX_LAG_MS, $asked - $stopped, 'stale local read beyond max_lag_ms');
            }
        } while (!$b('wait-local', ['usable' => false, 'timeout_ms' => 0])['ok'] && self::nowMs() - $stopped < 5000);
        $this->assertSame(['value' => 'h1', 'redis_reads' => 1], $b('get', ['key' => 'hk']));

        $b('sync-resume');
        $this->assertTrue($b('wait-local', ['usable' => true, 'timeout_ms' => 5000])['ok']);
        $this->assertSame(['value' => 'h1', 'redis_reads' => 1], $b('get', ['key' => 'hk']));
        $this->assertSame(['value' => 'h1', 'redis_reads' => 0], $b('get', ['key' => 'hk']));
        $b->send('await', ['key' => 'hk', 'old' => 'h1', 'new' => 'h2', 'timeout_ms' => 5000]);
        $this->assertTrue($a('set', ['key' => 'hk', 'value' => 'h2'])['ok']);
        $seen = $b->receive();
        $this->assertSame([], $seen['bad']);
        $this->assertGreaterThan(0, $seen['seen_ns']);
    }

    /** A write by another client (no NearCache) and a FLUSHALL reach B's local copies too. */
    public function testForeignWriteAndFlush(): void
    {
        $b = self::$b;
        $admin = self::$redis->client();
        $admin->set(self::NS . ':fk', 'f0');
        $this->covered($b);
        $this->assertSame('f0', $b('get', ['key' => 'fk'])['value']);
        $this->assertSame(['value' => 'f0', 'redis_reads' => 0], $b('get', ['key' => 'fk']));
        $admin->set(self::NS . ':fk', 'f1');
        $this->covered($b);
        $this->assertSame(['value' => 'f1', 'redis_reads' => 1], $b('get', ['key' => 'fk']));
        $this->assertSame(['value' => 'f1', 'redis_reads' => 0], $b('get', ['key' => 'fk']));
        // A foreign value is returned as written, even one that looks serialize()d.
        $admin->set(self::NS . ':fk', 'i:0;');
        $this->covered($b);
        $this->assertSame(['value' => 'i:0;', 'redis_reads' => 1], $b('get', ['key' => 'fk']));
        $this->assertSame(['value' => 'i:0;', 'redis_reads' => 0], $b('get', ['key' => 'fk']));
        $admin->set(self::NS . ':fk', 'plain text');
        $this->covered($b);
        $this->assertSame(['value' => 'plain text', 'redis_reads' => 1], $b('get', ['key' => 'fk']));
        $this->assertSame(['value' => 'plain text', 'redis_reads' => 0], $b('get', ['key' => 'fk']));
        // FLUSHALL invalidates everything at once (a null message): new generation.
        $admin->flushAll();
        $this->covered($b);
        $this->assertSame(['value' => null, 'redis_reads' => 1], $b('get', ['key' => 'fk']));
    }

    /**
     * Redis is killed: B serves its local copy only while its sync's last
     * heartbeat is within max_lag_ms, then misses (the default), and nothing
     * throws; writes return false. Redis restarts empty: no old local copy
     * comes back.
     */
    public function testRedisKilledAndRestarted(): void
    {
        $a = self::$a;
        $b = self::$b;
        $this->assertTrue($a('set', ['key' => 'rk', 'value' => 'r1'])['ok']);
        $this->covered($b);
        $this->assertSame(['value' => 'r1', 'redis_reads' => 1], $b('get', ['key' => 'rk']));
        $this->assertSame(['value' => 'r1', 'redis_reads' => 0], $b('get', ['key' => 'rk']));

        self::$redis->kill();
        $killed = self::nowMs();
        do {
            $asked = self::nowMs();     // B checks its heartbeat after this
            $r = $b('get', ['key' => 'rk']);
            $this->assertContains($r['value'], ['r1', null]);
            if ($r['value'] === 'r1') {
                $this->assertLessThanOrEqual(self::MAX_LAG_MS, $asked - $killed, 'local read beyond max_lag_ms');
            }
        } while (!$b('wait-local', ['usable' => false, 'timeout_ms' => 0])['ok'] && self::nowMs() - $killed < 5000);
        $this->assertTrue($b('wait-local', ['usable' => false, 'timeout_ms' => 0])['ok'], 'local layer dropped');
        for ($i = 0; $i < 5; $i++) {
            $this->assertSame(['value' => null, 'redis_reads' => 0], $b('get', ['key' => 'rk']), 'Redis down, local unusable: a miss');
        }
        $this->assertFalse($a('set', ['key' => 'rk', 'value' => 'lost'])['ok']);
        $this->assertTrue($a('wait-local', ['usable' => false, 'timeout_ms' => 5000])['ok']);

        self::$redis->start();      // same port, empty
        foreach ([$a, $b] as $h) {
            $this->assertTrue($h('wait-local', ['usable' => true, 'timeout_ms' => 10000])['ok'], 'sync reconnected');
        }
        // Each host's connection comes back at its next reconnect attempt
        // (reconnect_ms, and only once Redis answers); until then a get is
        // a miss, and A's set fails. Never the old copy. A is waited for
        // too: its set below must find its connection back.
        foreach (['B' => $b, 'A' => $a] as $name => $h) {
            $deadline = self::nowMs() + 5000;
            do {
                $r = $h('get', ['key' => 'rk']);
                $this->assertNull($r['value'], "no old copy after the restart on $name");
            } while ($r['redis_reads'] === 0 && self::nowMs() < $deadline);
            $this->assertSame(1, $r['redis_reads'], "$name reads Redis again");
        }
        $b->send('await', ['key' => 'rk', 'old' => null, 'new' => 'r2', 'timeout_ms' => 5000]);
        $this->assertTrue($a('set', ['key' => 'rk', 'value' => 'r2'])['ok']);
        $seen = $b->receive();
        $this->assertSame([], $seen['bad']);
        $this->assertGreaterThan(0, $seen['seen_ns']);
    }
}
