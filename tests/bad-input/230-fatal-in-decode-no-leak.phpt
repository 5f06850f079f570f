--TEST--
A fatal error while a fetched value is decoded frees the scratch buffer
--DESCRIPTION--
The fatal errors: E_USER_ERROR in __wakeup, memory exhausted in
__unserialize, and a fatal in the autoloader. Under valgrind nothing is
definitely lost.
--SKIPIF--
<?php
if (!extension_loaded('shardcache')) die('skip shardcache only: checks its scratch buffer');
if (!function_exists('proc_open')) die('skip needs proc_open');
if (getenv('SHARDCACHE_VALGRIND')) die('skip already under valgrind: the children below run under valgrind themselves');
if (getenv('ASAN_OPTIONS') !== false) die('skip under AddressSanitizer: the children below run under valgrind, which cannot run an ASan build');
exec('command -v valgrind 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip valgrind not installed');
?>
--INI--
apc.enable_cli=1
--CONFLICTS--
valgrind
--FILE--
<?php
// Each case runs in a child PHP under valgrind: the request ends in a fatal
// error raised while apcu_fetch() decodes a 200 KB value, then the process
// exits. Before the fix the scratch buffer the decoder was given was only
// referenced from the C stack that the fatal error unwound: lost.
$args = is_readable('/proc/self/cmdline') ? explode("\0", rtrim(file_get_contents('/proc/self/cmdline'), "\0")) : [];
$ext = ini_get('extension_dir') . '/shardcache.so';
foreach ($args as $i => $a) {
    $v = $a === '-d' ? ($args[$i + 1] ?? '') : (str_starts_with($a, '-d') ? substr($a, 2) : '');
    if (str_starts_with($v, 'extension=') && str_contains($v, 'shardcache')) {
        $ext = substr($v, strlen('extension='));
    }
}

$common = <<<'PHP'
class Big { public $pad; public $n = 0; function __construct() { $this->pad = str_repeat('x', 200000); } }
PHP;
$cases = [
    'user error in __wakeup' => $common . <<<'PHP'
class W extends Big { function __wakeup(): void { if ($this->n++ === 0 && getenv('SC_CHILD_FATAL')) { set_error_handler(null); trigger_error('boom', E_USER_ERROR); } } }
apcu_store('k', new W);
putenv('SC_CHILD_FATAL=1');
apcu_fetch('k');
echo "not reached\n";
PHP,
    'memory exhausted in __unserialize' => $common . <<<'PHP'
class U extends Big {
    function __serialize(): array { return ['pad' => $this->pad]; }
    function __unserialize(array $d): void { if (getenv('SC_CHILD_FATAL')) { $a = []; while (true) { $a[] = str_repeat('y', 1 << 20); } } $this->pad = $d['pad']; }
}
apcu_store('k', new U);
putenv('SC_CHILD_FATAL=1');
ini_set('memory_limit', '16M');
apcu_fetch('k');
echo "not reached\n";
PHP,
    'fatal in the autoloader' => <<<'PHP'
// The value's class is unknown in this request: decoding calls the
// autoloader, which declares a class twice (a compile-time fatal).
file_put_contents(sys_get_temp_dir() . '/sc230-' . getmypid() . '.php', '<?php class Dup {} class Dup {}');
apcu_store('k', unserialize('O:7:"Missing":1:{s:3:"pad";s:200000:"' . str_repeat('z', 200000) . '";}'));
spl_autoload_register(function ($c) { require sys_get_temp_dir() . '/sc230-' . getmypid() . '.php'; });
register_shutdown_function(function () { @unlink(sys_get_temp_dir() . '/sc230-' . getmypid() . '.php'); });
apcu_fetch('k');
echo "not reached\n";
PHP,
];

// The Zend allocator stays on: what it hands out is freed at the end of the
// request whatever happens, so a definite loss here is memory from malloc
// (persistent), which is where the scratch buffer lives. The code runs from
// a file: php -r itself leaks on a fatal error.
foreach ($cases as $name => $code) {
    $log = tempnam(sys_get_temp_dir(), 'sc230');
    $script = tempnam(sys_get_temp_dir(), 'sc230');
    file_put_contents($script, "<?php\n$code\n");
    $cmd = ['valgrind', '--leak-check=full', '--errors-for-leak-kinds=definite', '--show-leak-kinds=definite',
            '--error-exitcode=99', "--log-file=$log",
            PHP_BINARY, '-n', '-d', "extension=$ext", '-d', 'apc.enable_cli=1', '-d', 'pcre.jit=0',
            '-d', 'display_errors=stderr', $script];
    $env = ['ZEND_DONT_UNLOAD_MODULES' => '1', 'PATH' => getenv('PATH')];
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    $rc = proc_close($p);
    $vg = file_get_contents($log);
    unlink($log);
    unlink($script);
    $fatal = str_contains($out . $err, 'Fatal error');
    $lost = preg_match('/definitely lost: ([\d,]+) bytes/', $vg, $m) ? (int)str_replace(',', '', $m[1]) : 0;
    printf("%s: fatal %s, exit %s, definitely lost %s\n", $name, $fatal ? 'seen' : 'MISSING',
           $rc === 255 ? '255' : "$rc (want 255)", $lost === 0 ? '0 bytes' : "$lost bytes");
    if ($lost !== 0 || !$fatal || $rc !== 255) {
        echo "---- output\n$out$err---- valgrind\n$vg\n";
    }
}
?>
--EXPECT--
user error in __wakeup: fatal seen, exit 255, definitely lost 0 bytes
memory exhausted in __unserialize: fatal seen, exit 255, definitely lost 0 bytes
fatal in the autoloader: fatal seen, exit 255, definitely lost 0 bytes
