<?php
namespace Shardcache\ClientTests;

use PHPUnit\Framework\TestCase;

/* Base class of the client suites' tests (tests/symfony, tests/doctrine):
 * every test starts from an empty cache. */
abstract class CacheTestCase extends TestCase
{
    protected function setUp(): void
    {
        $this->assertTrue(apcu_clear_cache());
    }

    /* Lets $seconds full seconds pass on the monotonic clock: a whole-second clock
     * (the cache's, or time()) then shows at least start + $seconds. */
    protected static function waitSeconds(float $seconds): void
    {
        $start = hrtime(true);
        while (hrtime(true) - $start < $seconds * 1e9) {
            usleep(50000);
        }
    }
}
