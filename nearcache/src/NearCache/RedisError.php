<?php

declare(strict_types=1);

namespace Shardcache\NearCache;

/** An error reply read by PubSubReader. @internal */
final class RedisError
{
    public function __construct(public readonly string $message)
    {
    }
}
