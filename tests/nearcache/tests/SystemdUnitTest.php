<?php

declare(strict_types=1);

namespace Shardcache\NearCacheTests;

use PHPUnit\Framework\TestCase;
use Shardcache\NearCacheTests\Support\Php;
use Shardcache\NearCacheTests\Support\RedisServer;

/**
 * nearcache/systemd/shardcache-sync@.service: the sync usually starts before
 * any worker of the pool and so creates the pool's named segment; it must
 * create it at the pool's apc.shm_size, not at the CLI's default (32M). The
 * unit's ExecStart is expanded as systemd would (Environment=, the settings
 * an administrator puts in the EnvironmentFile, %i) and run with this test's
 * PHP, whose own apc.shm_size is removed: the segment must get the size the
 * environment names.
 */
final class SystemdUnitTest extends TestCase
{
    private const UNIT = __DIR__ . '/../../../nearcache/systemd/shardcache-sync@.service';
    private const NS = 'unit';
    private const SIZE = '48M';

    /** @return array{env: array<string,string>, pre: list<string>, start: string} */
    private static function parseUnit(): array
    {
        $text = (string) file_get_contents(self::UNIT);
        $text = preg_replace('/\\\\\n/', ' ', $text);       // continuation lines
        $env = [];
        $pre = [];
        $start = '';
        foreach (explode("\n", $text) as $line) {
            $line = trim($line);
            if ($line === '' || $line[0] === '#' || $line[0] === ';') {
                continue;
            }
            if (str_starts_with($line, 'Environment=')) {
                foreach (self::words(substr($line, 12)) as $a) {
                    [$k, $v] = explode('=', $a, 2) + [1 => ''];
                    $env[$k] = $v;
                }
            } elseif (str_starts_with($line, 'ExecStartPre=')) {
                $pre[] = substr($line, 13);
            } elseif (str_starts_with($line, 'ExecStart=')) {
                $start = substr($line, 10);
            }
        }
        return ['env' => $env, 'pre' => $pre, 'start' => $start];
    }

    /** Splits a systemd command line into words (double and single quotes). */
    private static function words(string $s): array
    {
        preg_match_all('/"((?:[^"\\\\]|\\\\.)*)"|\'([^\']*)\'|(\S+)/', $s, $m, PREG_SET_ORDER);
        return array_map(static fn ($x) => isset($x[3]) ? $x[3] : (($x[2] ?? '') !== '' ? $x[2] : stripcslashes($x[1])), $m);
    }

    /** systemd's expansion of one word: %i, %%, ${VAR}, $VAR, $$. */
    private static function expand(string $word, array $env): string
    {
        $word = preg_replace_callback('/%([%i])/', static fn ($m) => $m[1] === 'i' ? self::NS : '%', $word);
        return preg_replace_callback('/\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/',
            static fn ($m) => $m[1] === '$' ? '$' : ($env[$m[2] !== '' ? $m[2] : $m[3]] ?? ''), $word);
    }

    /** @return list<string> */
    private static function command(string $line, array $env): array
    {
        $line = ltrim($line, '-@:+!');          // systemd's command prefixes
        return array_map(static fn ($w) => self::expand($w, $env), self::words($line));
    }

    public function testUnitCreatesTheSegmentAtThePoolsSize(): void
    {
        $unit = self::parseUnit();
        $this->assertNotSame('', $unit['start'], 'the unit has an ExecStart');
        $redis = new RedisServer();
        $dir = sys_get_temp_dir() . '/nearcache-unit-' . getmypid() . '-' . bin2hex(random_bytes(3));
        mkdir($dir, 0700);
        $seg = "$dir/seg";
        // What the README tells the administrator to put in the environment file.
        $env = $unit['env'] + [];
        $env['SHARDCACHE_SEGMENT'] = $seg;
        $env['SHARDCACHE_SHM_SIZE'] = self::SIZE;
        $env['SHARDCACHE_REDIS_HOST'] = '127.0.0.1';
        $env['SHARDCACHE_REDIS_PORT'] = (string) $redis->port;
        $proc = null;
        try {
            $argv = self::command($unit['start'], $env);
            $this->assertContains('apc.shm_size=' . self::SIZE, $argv, 'ExecStart passes the pool\'s apc.shm_size: ' . implode(' ', $argv));
            $this->assertContains('shardcache.segment=' . $seg, $argv, 'ExecStart passes the pool\'s segment');
            $this->assertContains('--host=127.0.0.1', $argv);
            $this->assertContains('--port=' . $redis->port, $argv);
            $this->assertContains('--namespace=' . self::NS, $argv);

            // The checks before the start: pass with the settings, refuse without.
            foreach ($unit['pre'] as $line) {
                $this->assertSame(0, self::exitCode(self::command($line, $env)), "ExecStartPre $line with the settings");
            }
            $refused = false;
            foreach ($unit['pre'] as $line) {
                $refused = $refused || self::exitCode(self::command($line, array_diff_key($env, ['SHARDCACHE_SHM_SIZE' => 1]))) !== 0;
            }
            $this->assertTrue($refused, 'without SHARDCACHE_SHM_SIZE the unit does not start');

            // Run it: this test's PHP for /usr/bin/php, without its own apc.shm_size.
            $php = [PHP_BINARY];
            $args = Php::args();
            for ($i = 0; $i < count($args); $i++) {
                if ($args[$i] === '-d' && str_starts_with($args[$i + 1] ?? '', 'apc.shm_size=')) {
                    $i++;
                    continue;
                }
                $php[] = $args[$i];
            }
            $cmd = [];
            foreach (array_slice($argv, 1) as $a) {
                $cmd[] = str_ends_with($a, '/shardcache-sync') ? dirname(__DIR__, 3) . '/nearcache/bin/shardcache-sync' : $a;
            }
            $cmd = array_merge($php, $cmd);
            $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir/out", 'w'], 2 => ['file', "$dir/out", 'a']], $pipes);
            $this->assertIsResource($proc);
            $deadline = microtime(true) + 10;
            while (!is_file($seg) && microtime(true) < $deadline && proc_get_status($proc)['running']) {
                usleep(2000);
            }
            $this->assertFileExists($seg, 'the sync created the segment: ' . @file_get_contents("$dir/out"));
            clearstatcache();
            $this->assertSame(48 << 20, filesize($seg), 'the segment has the pool\'s size');
            // A worker of the pool maps it as it is.
            $this->assertSame(self::memTotal(['-d', 'apc.shm_size=' . self::SIZE]), self::memTotal(['-d', 'shardcache.segment=' . $seg]));
        } finally {
            if (is_resource($proc)) {
                proc_terminate($proc, SIGTERM);
                proc_close($proc);
            }
            @array_map('unlink', glob("$dir/*") ?: []);
            @rmdir($dir);
        }
    }

    private static function exitCode(array $cmd): int
    {
        $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        return proc_close($p);
    }

    /** shardcache_info()'s mem_total in a PHP of this test run with $extra options. */
    private static function memTotal(array $extra): int
    {
        $cmd = array_merge([PHP_BINARY], Php::args(), $extra, ['-d', 'display_errors=0', '-r', 'echo shardcache_info()["mem_total"];']);
        $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $out = stream_get_contents($pipes[1]);
        proc_close($p);
        return (int) $out;
    }
}
