<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests\Support;

/**
 * A \Redis that counts the GETs of cache keys it sends (a NearCache read that
 * went to Redis; not those of NearCache's own ns:@... keys)
 * and can answer PTTL as Redis does in a key's last millisecond.
 */
final class CountingRedis extends \Redis
{
    public int $gets = 0;
    /** When true, PTTL is answered with 0 (the key lives for less than 1 ms). */
    public bool $lastMillisecond = false;

    /** @return mixed */
    public function get($key)
    {
        if (!str_contains((string) $key, ':@')) {     // not the database token
            $this->gets++;
        }
        return parent::get($key);
    }

    /**
     * In a key's last millisecond Redis answers GET with the value and PTTL
     * with 0; that moment cannot be hit on purpose, so the PTTL is replaced by
     * a command that answers 0 in its place (in a pipeline and in MULTI too).
     *
     * @return mixed
     */
    public function pttl($key)
    {
        return $this->lastMillisecond ? parent::exists('{nearcache-test}:absent') : parent::pttl($key);
    }

    public static function connectTo(int $port): self
    {
        $r = new self();
        $r->connect('127.0.0.1', $port, 1.0);
        $r->setOption(\Redis::OPT_READ_TIMEOUT, 1.0);
        return $r;
    }
}
