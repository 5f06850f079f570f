<?php
// Worker of tests/zero-copy/cross-build.sh (see there): one PHP build's
// side of a named segment shared with another build, zero-copy on.
//
//   php ... cross-build.php store TAG   clears the cache, stores the values
//                                       of TAG under every key
//   php ... cross-build.php check TAG   checks, key by key, what every
//                                       function says of TAG's values
//
// Every value is stored under three keys: NAME (read by apcu_fetch,
// apcu_exists, apcu_key_info, APCUIterator, then apcu_inc), NAME:add
// (apcu_add) and NAME:entry (apcu_entry). A value is either read (every
// function sees it, with exactly the stored value) or a consistent miss
// (every function says it is absent; apcu_add and apcu_entry store); the
// lines printed say which, and name whatever disagrees.

class XbPoint
{
    public $name;
    protected $list;
    private $map;

    public function __construct(string $name, array $list, array $map)
    {
        $this->name = $name;
        $this->list = $list;
        $this->map = $map;
    }
}

function xb_values(string $tag): array
{
    $mixed = [];
    for ($i = 0; $i < 100; $i++) {
        $key = $i % 3 === 0 ? "k$i-$tag" : $i * 7;
        switch ($i % 9) {
            case 0: $v = $i * 1000003 - 50; break;
            case 1: $v = $i + 0.25; break;
            case 2: $v = "short $i"; break;
            case 3: $v = str_repeat("long string $i of $tag, ", 4); break;
            case 4: $v = null; break;
            case 5: $v = $i % 2 === 0; break;
            case 6: $v = [$i, "$i", [$i => $tag]]; break;
            case 7: $v = $i === 7 ? PHP_INT_MAX : -$i; break;
            default: $v = ['a' => $i, 'b' => ['c' => "deep $i $tag"]]; break;
        }
        $mixed[$key] = $v;
    }
    return [
        'int' => 41,
        'string' => "short $tag",
        'longstring' => str_repeat("a string of 64 bytes or more, laid out by $tag; ", 3),
        'mixed' => $mixed,
        'nested' => ['l1' => ['l2' => ['l3' => ['l4' => [1, 2.5, "three $tag", null, true]]]],
                     'list' => range(1, 30), 'map' => ['x' => -1.5, 'y' => false, 'z' => "zz $tag"]],
        'object' => new XbPoint("point $tag", range(10, 40), ['k' => "v $tag", 'n' => [1, [2, [3]]]]),
    ];
}

// Strict equality that also covers objects (class, every property, its
// visibility and type: serialize() writes them all).
function xb_same($a, $b): bool
{
    return serialize($a) === serialize($b);
}

function xb_bool(bool $b): string
{
    return $b ? 'true' : 'false';
}

[, $mode, $tag] = $argv + [null, '', ''];
$info = shardcache_info();
if (!$info['enabled'] || ($info['segment_refused'] ?? '') !== '' || !$info['zero_copy']['enabled']) {
    echo "not a zero-copy named segment: enabled ", xb_bool($info['enabled']), ", refused '",
        ($info['segment_refused'] ?? ''), "', zero-copy ", xb_bool($info['zero_copy']['enabled']), "\n";
    exit(1);
}
$values = xb_values($tag);

if ($mode === 'store') {
    apcu_clear_cache();
    $ok = 0;
    foreach ($values as $name => $v) {
        foreach (['', ':add', ':entry'] as $suffix) {
            $ok += apcu_store("xb.$name$suffix", $v) ? 1 : 0;
        }
    }
    $zc = shardcache_info()['zero_copy'];
    echo "stored $ok of ", 3 * count($values), " keys, laid out in place: ", xb_bool($zc['bytes'] > 0), "\n";
    exit(0);
}
if ($mode !== 'check') {
    fwrite(STDERR, "usage: cross-build.php store|check TAG\n");
    exit(2);
}

// The iterator first, while nothing has been changed: key => value.
$iter = [];
foreach (new APCUIterator('/^xb\./') as $k => $e) {
    $iter[$k] = $e['value'];
}

foreach ($values as $name => $want) {
    $k = "xb.$name";

    // fetch, exists, key info, iterator: one answer.
    $v = apcu_fetch($k, $ok);
    $exists = apcu_exists($k);
    $kinfo = apcu_key_info($k);
    $in_iter = array_key_exists($k, $iter);
    $bad = [];
    if ($ok) {
        if (!xb_same($v, $want)) {
            $bad[] = 'fetch gives another value';
        }
        if (!$exists) {
            $bad[] = 'exists false';
        }
        if (!is_array($kinfo)) {
            $bad[] = 'key_info ' . gettype($kinfo);
        }
        if (!$in_iter) {
            $bad[] = 'iterator leaves it out';
        } elseif (!xb_same($iter[$k], $want)) {
            $bad[] = 'iterator gives ' . var_export($iter[$k], true);
        }
        $readable = true;
        $verdict = 'read: fetch, exists, key_info and iterator give the stored value';
    } else {
        if ($v !== false) {
            $bad[] = 'failed fetch returned ' . gettype($v);
        }
        if ($exists) {
            $bad[] = 'exists true';
        }
        if ($kinfo !== null) {
            $bad[] = 'key_info ' . gettype($kinfo);
        }
        if ($in_iter) {
            $bad[] = 'iterator lists it';
        }
        $readable = false;
        $verdict = 'miss: fetch, exists, key_info and iterator agree';
    }
    echo "$name: ", $bad ? 'INCONSISTENT (' . ($ok ? 'fetch reads it' : 'fetch misses') . '; ' . implode(', ', $bad) . ')' : $verdict, "\n";

    // apcu_add fails exactly when apcu_exists says true; the value stays.
    $ka = "$k:add";
    $exists = apcu_exists($ka);
    $read = apcu_fetch($ka, $readok);
    $added = apcu_add($ka, 'added');
    $after = apcu_fetch($ka, $afterok);
    if ($added === $exists) {
        echo "$name:add: WRONG: add ", xb_bool($added), " while exists ", xb_bool($exists), "\n";
    } elseif (!$added && !($afterok && $readok && xb_same($after, $want) && xb_same($read, $want))) {
        echo "$name:add: WRONG: add failed but fetch ", $afterok ? 'gives another value' : 'misses', "\n";
    } elseif ($added && !($afterok && $after === 'added')) {
        echo "$name:add: WRONG: add succeeded but fetch gives ", var_export($after, true), "\n";
    } else {
        echo "$name:add: ", $added ? 'added (it was absent)' : 'fails (it exists), stored value kept', "\n";
    }

    // apcu_entry: the stored value when fetch reads it, else the
    // callback's; never false without calling it.
    $ke = "$k:entry";
    $read = apcu_fetch($ke, $readok);
    $called = 0;
    $got = apcu_entry($ke, function ($key) use (&$called) { $called++; return "computed $key"; });
    if ($readok && xb_same($read, $want) && $called === 0 && xb_same($got, $want)) {
        echo "$name:entry: the stored value, callback not called\n";
    } elseif (!$readok && $called === 1 && $got === "computed $ke" && apcu_fetch($ke) === "computed $ke") {
        echo "$name:entry: computed (fetch misses it), callback called once\n";
    } else {
        echo "$name:entry: WRONG: fetch ", $readok ? 'reads it' : 'misses', ", entry gives ",
            var_export($got, true), ", callback called $called times\n";
    }

    // apcu_inc: an int is incremented; anything else read is kept.
    $r = apcu_inc($k, 1, $incok);
    $after = apcu_fetch($k, $afterok);
    if (is_int($want) && $readable) {
        echo "$name: inc ", var_export($r, true), ", success ", xb_bool($incok), ", then fetch ", var_export($after, true), "\n";
    } elseif ($readable) {
        echo "$name: inc ", var_export($r, true), ", stored value ", $afterok && xb_same($after, $want) ? 'kept' : 'CHANGED', "\n";
    } else {
        echo "$name: inc on a miss ", var_export($r, true), ", then fetch ", var_export($after, true), "\n";
    }
}
$zc = shardcache_info()['zero_copy'];
echo "values copied out of layouts: ", xb_bool($zc['copied'] > 0), ", foreign (unreadable): {$zc['foreign']}\n";
