--TEST--
Entries in the fetch memo still expire on time; use_request_time holds them
--DESCRIPTION--
Expiry of entries a process has just fetched (its fetch memo holds them):
ints, floats, zero-copy strings and arrays, and copied strings with a
1-second ttl are found until the ttl runs out and are misses after it
($success false), while entries without a ttl stay.

With apc.use_request_time=1 the request's start is the time, so the same
entries stay found for the whole request.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
apc.use_request_time=0
shardcache.zero_copy=1
--FILE--
<?php
$values = [
    'int' => 42,
    'float' => 1.25,
    'zc_string' => str_repeat('z', 1024),
    'zc_array' => range(1, 100),
    'short_string' => 'short',
];

function store_all(array $values, string $prefix): void
{
    foreach ($values as $name => $v) {
        apcu_store("$prefix.$name.ttl", $v, 1);
        apcu_store("$prefix.$name.forever", $v);
    }
}

/* Fetches every key three times; returns "name: found/missing" lines, and
 * checks that $success agrees and every found value is the stored one. */
function fetch_all(array $values, string $prefix): string
{
    $out = [];
    foreach ($values as $name => $v) {
        foreach (['ttl', 'forever'] as $kind) {
            $seen = [];
            for ($i = 0; $i < 3; $i++) {
                $ok = null;
                $got = apcu_fetch("$prefix.$name.$kind", $ok);
                if ($got === false) {
                    $seen[] = $ok === false ? 'missing' : 'false with $success true';
                } else {
                    $seen[] = $ok === true && $got === $v ? 'found' : 'WRONG';
                }
            }
            $seen = array_unique($seen);
            $out[] = "$name.$kind " . implode('/', $seen);
        }
    }
    return implode(', ', $out) . "\n";
}

/* Lets 2 full seconds pass on the monotonic clock: whole-second clocks
 * then show at least ctime + 2, so a 1-second ttl has run out. */
function two_seconds(): void
{
    $start = hrtime(true);
    while (hrtime(true) - $start < 2100000000) {
        usleep(100000);
    }
}

echo "-- wall time\n";
store_all($values, 'w');
echo fetch_all($values, 'w');
two_seconds();
echo fetch_all($values, 'w');

echo "-- apc.use_request_time=1\n";
ini_set('apc.use_request_time', '1');
store_all($values, 'r');
echo fetch_all($values, 'r');
two_seconds();
echo fetch_all($values, 'r');
?>
--EXPECT--
-- wall time
int.ttl found, int.forever found, float.ttl found, float.forever found, zc_string.ttl found, zc_string.forever found, zc_array.ttl found, zc_array.forever found, short_string.ttl found, short_string.forever found
int.ttl missing, int.forever found, float.ttl missing, float.forever found, zc_string.ttl missing, zc_string.forever found, zc_array.ttl missing, zc_array.forever found, short_string.ttl missing, short_string.forever found
-- apc.use_request_time=1
int.ttl found, int.forever found, float.ttl found, float.forever found, zc_string.ttl found, zc_string.forever found, zc_array.ttl found, zc_array.forever found, short_string.ttl found, short_string.forever found
int.ttl found, int.forever found, float.ttl found, float.forever found, zc_string.ttl found, zc_string.forever found, zc_array.ttl found, zc_array.forever found, short_string.ttl found, short_string.forever found
