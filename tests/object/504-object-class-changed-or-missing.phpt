--TEST--
object form: a class changed or missing since the store: unserialize()'s result
--DESCRIPTION--
The class is changed since the store (retyped, removed, added, visibility,
__wakeup) or missing (autoload, then __PHP_Incomplete_Class); the result is
what unserialize() gives.
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/object-compare.inc';
$dir = sys_get_temp_dir() . '/sc504-' . getmypid();
@mkdir($dir);
$defs = [
    'v1' => 'class Ent { public int $id = 0; public string $name = ""; private array $tags = []; protected ?Ent $parent = null;
              public function fill(int $id, string $n, array $t, ?Ent $p): void { $this->id = $id; $this->name = $n; $this->tags = $t; $this->parent = $p; } }',
    'retyped' => 'class Ent { public string $id = ""; public string $name = ""; private array $tags = []; protected ?Ent $parent = null; }',
    'removed_added' => 'class Ent { public int $id = 0; public int $added = 7; private array $tags = []; protected ?Ent $parent = null; }',
    'visibility' => 'class Ent { public int $id = 0; protected string $name = ""; public array $tags = []; protected ?Ent $parent = null; }',
    'readonly_now' => 'class Ent { public readonly int $id; public string $name = ""; private array $tags = []; protected ?Ent $parent = null; }',
    'wakeup' => 'class Ent { public int $id = 0; public string $name = ""; private array $tags = []; protected ?Ent $parent = null;
              public function __wakeup(): void { echo "__wakeup {$this->id}\n"; } }',
    'parent_added' => 'class Root { public $r = "root"; } class Ent extends Root { public int $id = 0; public string $name = ""; private array $tags = []; protected ?Ent $parent = null; }',
];
foreach ($defs as $k => $d) file_put_contents("$dir/$k.php", "<?php\n$d\n");

function in_child(callable $f): string
{
    global $dir;
    $out = "$dir/out";
    @unlink($out);
    $pid = pcntl_fork();
    if ($pid === 0) {
        ob_start();
        try { $f(); } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
        file_put_contents($out, ob_get_clean());
        exit(0);
    }
    pcntl_waitpid($pid, $st);
    return file_get_contents($out);
}

echo in_child(function () use ($dir) {
    require "$dir/v1.php";
    $p = new Ent(); $p->fill(1, 'parent', ['a'], null);
    $c = new Ent(); $c->fill(2, 'child', ['b', 'c'], $p);
    $v = [$p, $c, 'again' => $c];
    var_dump(apcu_store('ent', $v), apcu_store('ent_text', serialize($v)));
    echo 'stored in the object form: ', shardcache_info()['objects']['stored'], "\n";
});

$cases = ['retyped', 'removed_added', 'visibility', 'readonly_now', 'wakeup', 'parent_added', 'missing', 'autoloaded', 'callback'];
foreach ($cases as $case) {
    $run = function (string $how) use ($case, $dir) {
        return in_child(function () use ($case, $dir, $how) {
            set_error_handler(function ($no, $msg) { echo "error: ", preg_replace('/^(apcu_fetch|unserialize)\(\): /', '', $msg), "\n"; return true; });
            if ($case === 'missing') {
                spl_autoload_register(function ($c) { echo "autoload $c\n"; });
            } elseif ($case === 'autoloaded') {
                spl_autoload_register(function ($c) use ($dir) { echo "autoload $c\n"; require "$dir/v1.php"; });
            } elseif ($case === 'callback') {
                ini_set('unserialize_callback_func', 'sc_cb');
                function sc_cb($c) { echo "callback $c\n"; }
            } else {
                require "$dir/$case.php";
            }
            $v = $how === 'fetch' ? apcu_fetch('ent', $ok) : unserialize(apcu_fetch('ent_text'));
            file_put_contents("$dir/dump-$how", sc_obj_dump($v));
            echo is_array($v) ? 'classes: ' . implode(' ', array_map('get_class', $v)) : 'value: ' . var_export($v, true), "\n";
            if ($how === 'fetch') {
                $f = shardcache_info()['objects'];
                echo "[native {$f['native']}, unserialized {$f['unserialized']}]\n";
            }
        });
    };
    $fetched = $run('fetch');
    $expected = $run('unserialize');
    $shown = preg_replace('/\[native \d+, unserialized \d+\]\n/', '', $fetched);
    $same = $shown === $expected && @file_get_contents("$dir/dump-fetch") === @file_get_contents("$dir/dump-unserialize");
    @unlink("$dir/dump-fetch"); @unlink("$dir/dump-unserialize");
    echo "-- $case: ", $same ? 'as unserialize()' : "DIFFERS from unserialize():\n$expected", "\n", $fetched;
}
// the class unchanged: native
echo "-- unchanged\n", in_child(function () use ($dir) {
    require "$dir/v1.php";
    $v = apcu_fetch('ent');
    echo sc_obj_diff($v, unserialize(apcu_fetch('ent_text'))) === '' ? "as unserialize()\n" : "differs\n";
    $f = shardcache_info()['objects'];
    echo "[native {$f['native']}, unserialized {$f['unserialized']}]\n";
});
foreach (glob("$dir/*") as $f) unlink($f);
rmdir($dir);
?>
--EXPECT--
bool(true)
bool(true)
stored in the object form: 1
-- retyped: as unserialize()
TypeError: Cannot assign int to property Ent::$id of type string
-- removed_added: as unserialize()
error: Creation of dynamic property Ent::$name is deprecated
error: Creation of dynamic property Ent::$name is deprecated
classes: Ent Ent Ent
[native 0, unserialized 1]
-- visibility: as unserialize()
classes: Ent Ent Ent
[native 0, unserialized 1]
-- readonly_now: as unserialize()
classes: Ent Ent Ent
[native 0, unserialized 1]
-- wakeup: as unserialize()
__wakeup 1
__wakeup 2
classes: Ent Ent Ent
[native 0, unserialized 1]
-- parent_added: as unserialize()
classes: Ent Ent Ent
[native 0, unserialized 1]
-- missing: as unserialize()
autoload Ent
autoload Ent
classes: __PHP_Incomplete_Class __PHP_Incomplete_Class __PHP_Incomplete_Class
[native 0, unserialized 1]
-- autoloaded: as unserialize()
autoload Ent
classes: Ent Ent Ent
[native 0, unserialized 1]
-- callback: as unserialize()
callback Ent
error: Function sc_cb() hasn't defined the class it was called for
callback Ent
error: Function sc_cb() hasn't defined the class it was called for
classes: __PHP_Incomplete_Class __PHP_Incomplete_Class __PHP_Incomplete_Class
[native 0, unserialized 1]
-- unchanged
as unserialize()
[native 1, unserialized 0]
