<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use PHPUnit\Framework\TestCase;
use Shardcache\NearCache\PubSubReader;
use Shardcache\NearCache\RedisError;

/**
 * The RESP2 reader of the sync's pub/sub connection, fed by a local TCP
 * server that sends replies split at every byte boundary.
 */
final class PubSubReaderTest extends TestCase
{
    /** @var resource */
    private $server;
    /** @var resource */
    private $peer;
    private PubSubReader $reader;

    protected function setUp(): void
    {
        $this->server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
        $name = stream_socket_get_name($this->server, false);
        $this->reader = new PubSubReader('127.0.0.1', (int) substr($name, strrpos($name, ':') + 1), 1.0);
        $this->peer = stream_socket_accept($this->server, 1.0);
    }

    protected function tearDown(): void
    {
        $this->reader->close();
        fclose($this->peer);
        fclose($this->server);
    }

    public function testRepliesSplitAnywhere(): void
    {
        $wire = "*3\r\n\$7\r\nmessage\r\n\$20\r\n__redis__:invalidate\r\n*2\r\n\$5\r\nns:ab\r\n\$0\r\n\r\n"
            . "*3\r\n\$7\r\nmessage\r\n\$20\r\n__redis__:invalidate\r\n*-1\r\n"
            . ":42\r\n+OK\r\n-ERR bad thing\r\n\$-1\r\n\$4\r\na\r\nb\r\n";
        $want = [
            ['message', '__redis__:invalidate', ['ns:ab', '']],
            ['message', '__redis__:invalidate', null],
            42, 'OK', new RedisError('ERR bad thing'), null, "a\r\nb",
        ];
        $got = [];
        for ($i = 0; $i < strlen($wire); $i++) {
            fwrite($this->peer, $wire[$i]);
            // Waits until this byte arrived (select), so replies come in pieces.
            foreach ($this->reader->read(100) as $r) {
                $got[] = $r;
            }
        }
        $deadline = microtime(true) + 2;
        while (count($got) < count($want) && microtime(true) < $deadline) {
            foreach ($this->reader->read(10) as $r) {
                $got[] = $r;
            }
        }
        $this->assertEquals($want, $got);
    }

    public function testCallWritesACommandAndReadsItsReply(): void
    {
        fwrite($this->peer, ":7\r\n");
        $this->assertSame(7, $this->reader->call(['CLIENT', 'ID'], 1000));
        $this->assertSame("*2\r\n\$6\r\nCLIENT\r\n\$2\r\nID\r\n", fread($this->peer, 100));
    }

    public function testClosedConnectionThrows(): void
    {
        fclose($this->peer);
        $this->peer = fopen('php://memory', 'r');
        $this->expectException(\RuntimeException::class);
        $this->reader->read(1000);
    }
}
