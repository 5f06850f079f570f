<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests\Support;

/** The PHP command line of this test run, for child PHP processes (set by run.sh). */
final class Php
{
    /** @return list<string> */
    public static function args(): array
    {
        $a = getenv('NEARCACHE_PHP_ARGS');
        if ($a === false || $a === '') {
            throw new \RuntimeException('NEARCACHE_PHP_ARGS is not set: run the tests through tests/nearcache/run.sh');
        }
        return json_decode($a, true);
    }
}
