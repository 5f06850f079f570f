<?php

declare(strict_types=1);

namespace Shardcache\NearCache\Symfony;

use Symfony\Contracts\Cache\ItemInterface;

/** The item of NearCacheAdapter (PSR-6, and Symfony's ItemInterface without tags). */
final class CacheItem implements ItemInterface
{
    /** @var float|null unix time (s) the item expires at; null: the pool's default lifetime */
    private ?float $expiry = null;

    /** @param array<string,mixed> $metadata */
    public function __construct(
        private string $key,
        private mixed $value = null,
        private bool $hit = false,
        private array $metadata = [],
    ) {
    }

    public function getKey(): string
    {
        return $this->key;
    }

    public function get(): mixed
    {
        return $this->value;
    }

    public function isHit(): bool
    {
        return $this->hit;
    }

    public function set(mixed $value): static
    {
        $this->value = $value;
        return $this;
    }

    public function expiresAt(?\DateTimeInterface $expiration): static
    {
        $this->expiry = $expiration === null ? null : (float) $expiration->format('U.u');
        return $this;
    }

    public function expiresAfter(int|\DateInterval|null $time): static
    {
        if ($time === null) {
            $this->expiry = null;
        } elseif ($time instanceof \DateInterval) {
            $this->expiry = (float) \DateTimeImmutable::createFromFormat('U.u', sprintf('%.6F', microtime(true)))->add($time)->format('U.u');
        } else {
            $this->expiry = microtime(true) + $time;
        }
        return $this;
    }

    public function tag(string|iterable $tags): static
    {
        throw new CacheException('Shardcache NearCacheAdapter does not support tags');
    }

    public function getMetadata(): array
    {
        return $this->metadata;
    }

    /**
     * The TTL to store the item with (NearCache's: null: none, int seconds;
     * 0: expired, not stored), $defaultLifetime (0: none) when no expiry is set.
     *
     * @internal
     */
    public function ttl(int $defaultLifetime): ?int
    {
        if ($this->expiry === null) {
            return $defaultLifetime > 0 ? $defaultLifetime : null;
        }
        $left = $this->expiry - microtime(true);
        return $left <= 0 ? 0 : (int) ceil($left);
    }
}
