<?php

declare(strict_types=1);

namespace Shardcache\NearCache\Symfony;

/** An operation the adapter does not support (tags). */
final class CacheException extends \LogicException implements \Psr\Cache\CacheException
{
}
