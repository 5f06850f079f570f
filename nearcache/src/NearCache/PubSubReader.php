<?php

declare(strict_types=1);

namespace Shardcache\NearCache;

/**
 * The one Redis connection that phpredis cannot serve: a RESP2 pub/sub
 * connection receiving CLIENT TRACKING invalidations. Redis publishes them on
 * __redis__:invalidate with an ARRAY of keys as the message (or a null for a
 * FLUSHALL/FLUSHDB), and phpredis 5.3 (Debian bookworm's php8.2-redis)
 * reads only string messages: it hands the callback the text "*1" and leaves
 * the subscription. This reader speaks the few replies the sync needs (simple
 * strings, errors, integers, bulk strings, arrays) over a stream socket and,
 * unlike phpredis's subscribe(), returns control on a timeout, so the sync
 * loop can send heartbeats between reads. Everything else goes through phpredis.
 *
 * @internal
 */
final class PubSubReader
{
    /** @var resource */
    private $sock;
    private string $buf = '';

    public function __construct(string $host, int $port, float $timeout)
    {
        $sock = @stream_socket_client("tcp://$host:$port", $errno, $errstr, $timeout);
        if ($sock === false) {
            throw new \RuntimeException("connect $host:$port: $errstr");
        }
        stream_set_blocking($sock, false);
        $this->sock = $sock;
    }

    public function close(): void
    {
        if (is_resource($this->sock)) {
            fclose($this->sock);
        }
    }

    /** Sends one command (an array of bulk strings). */
    public function send(array $args): void
    {
        $out = '*' . count($args) . "\r\n";
        foreach ($args as $a) {
            $a = (string) $a;
            $out .= '$' . strlen($a) . "\r\n" . $a . "\r\n";
        }
        stream_set_blocking($this->sock, true);
        $n = @fwrite($this->sock, $out);
        stream_set_blocking($this->sock, false);
        if ($n !== strlen($out)) {
            throw new \RuntimeException('write to the pub/sub connection failed');
        }
    }

    /** Sends a command and waits (at most $timeoutMs) for its one reply. */
    public function call(array $args, int $timeoutMs): mixed
    {
        $this->send($args);
        $deadline = Layout::nowMs() + $timeoutMs;
        while (true) {
            $r = $this->parse();
            if ($r !== null) {
                return $r[0];
            }
            $left = $deadline - Layout::nowMs();
            if ($left <= 0) {
                throw new \RuntimeException('no reply to ' . $args[0]);
            }
            $this->fill($left);
        }
    }

    /**
     * Returns the replies that have arrived, waiting up to $timeoutMs for the
     * first one (0: do not wait). Each reply is a PHP value: string, int,
     * null, array, or RedisError for an error reply.
     *
     * @return list<mixed>
     */
    public function read(int $timeoutMs): array
    {
        $out = [];
        while (($r = $this->parse()) !== null) {
            $out[] = $r[0];
        }
        if ($out) {
            return $out;
        }
        $this->fill(max(0, $timeoutMs));
        while (($r = $this->parse()) !== null) {
            $out[] = $r[0];
        }
        return $out;
    }

    /**
     * read() over several connections: the replies that have arrived on each
     * (index of $readers => replies), waiting up to $timeoutMs for the
     * first one on any of them.
     *
     * @param array<int,PubSubReader> $readers
     * @return array<int,list<mixed>>
     */
    public static function readAny(array $readers, int $timeoutMs): array
    {
        $out = [];
        foreach ($readers as $i => $rd) {
            while (($r = $rd->parse()) !== null) {
                $out[$i][] = $r[0];
            }
        }
        if ($out || !$readers) {
            return $out;
        }
        $socks = [];
        foreach ($readers as $i => $rd) {
            $socks[$i] = $rd->sock;
        }
        $w = $e = null;
        $timeoutMs = max(0, $timeoutMs);
        $n = @stream_select($socks, $w, $e, intdiv($timeoutMs, 1000), ($timeoutMs % 1000) * 1000);
        if (!$n) {
            return $out;            // timeout, or interrupted by a signal
        }
        foreach ($socks as $i => $unused) {
            $readers[$i]->fill(0);
            while (($r = $readers[$i]->parse()) !== null) {
                $out[$i][] = $r[0];
            }
        }
        return $out;
    }

    /** Waits up to $timeoutMs for bytes, then reads what is there. */
    private function fill(int $timeoutMs): void
    {
        $r = [$this->sock];
        $w = $e = null;
        $n = @stream_select($r, $w, $e, intdiv($timeoutMs, 1000), ($timeoutMs % 1000) * 1000);
        if ($n === false) {
            return;                 // interrupted by a signal: the caller loops
        }
        if ($n === 0) {
            return;
        }
        $chunk = @fread($this->sock, 65536);
        if ($chunk === false || ($chunk === '' && feof($this->sock))) {
            throw new \RuntimeException('the pub/sub connection was closed');
        }
        $this->buf .= $chunk;
    }

    /** One complete reply from the buffer as [value], or null if incomplete. */
    private function parse(): ?array
    {
        $pos = 0;
        $ok = $this->parseAt($pos, $value);
        if (!$ok) {
            return null;
        }
        $this->buf = (string) substr($this->buf, $pos);
        return [$value];
    }

    private function parseAt(int &$pos, mixed &$value): bool
    {
        $eol = strpos($this->buf, "\r\n", $pos);
        if ($eol === false) {
            return false;
        }
        $type = $this->buf[$pos];
        $line = substr($this->buf, $pos + 1, $eol - $pos - 1);
        $next = $eol + 2;
        switch ($type) {
            case '+':
                $value = $line;
                break;
            case '-':
                $value = new RedisError($line);
                break;
            case ':':
                $value = (int) $line;
                break;
            case '$':
                $len = (int) $line;
                if ($len < 0) {
                    $value = null;
                    break;
                }
                if (strlen($this->buf) < $next + $len + 2) {
                    return false;
                }
                $value = substr($this->buf, $next, $len);
                $next += $len + 2;
                break;
            case '*':
                $count = (int) $line;
                if ($count < 0) {
                    $value = null;
                    break;
                }
                $items = [];
                for ($i = 0; $i < $count; $i++) {
                    if (!$this->parseAt($next, $item)) {
                        return false;
                    }
                    $items[] = $item;
                }
                $value = $items;
                break;
            default:
                throw new \RuntimeException('unexpected reply type ' . json_encode($type));
        }
        $pos = $next;
        return true;
    }
}
