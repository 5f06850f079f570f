<?php

declare(strict_types=1);

namespace Shardcache\NearCache\Symfony;

/** A key, TTL or beta that PSR-6 or Symfony's cache contracts do not allow. */
final class InvalidArgumentException extends \InvalidArgumentException implements \Psr\Cache\InvalidArgumentException
{
}
