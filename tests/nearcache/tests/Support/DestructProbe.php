<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests\Support;

/** A class whose instances record their destruction (an object injection gadget's stand-in). */
final class DestructProbe
{
    public static int $destructed = 0;
    public string $payload = 'p';

    public function __destruct()
    {
        self::$destructed++;
    }
}
