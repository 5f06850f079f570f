<?php
// One request of the thread driver (tests/zts/driver.c): $ops random
// operations on keys shared by every thread and process of the run, each
// value read checked. Prints one line:
//   R ops=N wrong=N incs=N cas=N entries=N calls=N
// and, for each wrong value, a line starting with "WRONG ".
//
// Keys (none of them is ever evicted: the driver's segment is far larger):
//   v:<i>   arrays    whose fields say which key, writer and sequence they
//                     belong to, with a CRC over all of them
//   s:<i>   strings   the same, as one string
//   c:<j>   counters  only ever apcu_inc'ed by 1: the sum of all of them
//                     at the end must be the number of incs reported
//   x:<j>   cas ints  only ever advanced by apcu_cas(k, n, n + 1): the sum
//                     at the end must be the number of successful cas calls
//   e:<i>   apcu_entry values, a function of the key only; deleted at times
//                     so that the callback runs again

function sc_arr(string $key, string $wid, int $seq): array
{
    $pad = str_repeat(chr(65 + $seq % 26), ($seq * 7) % 300);
    return ['key' => $key, 'w' => $wid, 'seq' => $seq, 'pad' => $pad, 'list' => [$seq, $seq + 1, "$key"],
            'crc' => crc32("$key|$wid|$seq|$pad")];
}

function sc_arr_ok(string $key, $v): bool
{
    if (!is_array($v) || ($v['key'] ?? null) !== $key || !isset($v['w'], $v['seq'], $v['pad'], $v['crc'], $v['list'])) {
        return false;
    }
    $seq = $v['seq'];
    return strlen($v['pad']) === ($seq * 7) % 300 && $v['pad'] === str_repeat(chr(65 + $seq % 26), strlen($v['pad']))
        && $v['list'] === [$seq, $seq + 1, $key] && $v['crc'] === crc32("$key|{$v['w']}|$seq|{$v['pad']}");
}

function sc_str(string $key, string $wid, int $seq): string
{
    $body = "$key|$wid|$seq|" . str_repeat(chr(97 + $seq % 26), ($seq * 13) % 2000);
    return $body . '|' . crc32($body);
}

function sc_str_ok(string $key, $v): bool
{
    if (!is_string($v)) {
        return false;
    }
    $p = strrpos($v, '|');
    if ($p === false) {
        return false;
    }
    $body = substr($v, 0, $p);
    return (string)crc32($body) === substr($v, $p + 1) && strncmp($body, "$key|", strlen($key) + 1) === 0;
}

function sc_entry_value(string $key): array
{
    return ['entry' => $key, 'h' => crc32($key), 'o' => new ArrayObject([$key])];
}

function sc_entry_ok(string $key, $v): bool
{
    return is_array($v) && ($v['entry'] ?? null) === $key && ($v['h'] ?? null) === crc32($key)
        && ($v['o'] ?? null) instanceof ArrayObject && $v['o']->getArrayCopy() === [$key];
}

function sc_work(string $wid, int $ops, int $request): void
{
    $keys = 48;
    $counters = 8;
    $wrong = $incs = $cas = $entries = $calls = 0;
    $last = [];
    $bad = function (string $what, string $key, $v) use (&$wrong, $wid) {
        $wrong++;
        if ($wrong <= 5) {
            echo "WRONG $wid $what $key: ", substr(str_replace("\n", ' ', var_export($v, true)), 0, 300), "\n";
        }
    };
    for ($i = 0; $i < $ops; $i++) {
        $r = mt_rand(0, 99);
        $n = mt_rand(0, $keys - 1);
        $seq = $request * 100000 + $i;
        if ($r < 25) {
            $v = apcu_fetch("v:$n", $ok);
            if ($ok && !sc_arr_ok("v:$n", $v)) {
                $bad('fetch', "v:$n", $v);
            }
        } elseif ($r < 37) {
            if (!apcu_store("v:$n", sc_arr("v:$n", $wid, $seq))) {
                $bad('store failed', "v:$n", null);
            }
        } elseif ($r < 40) {
            apcu_delete("v:$n");
        } elseif ($r < 48) {
            $v = apcu_fetch("s:$n", $ok);
            if ($ok && !sc_str_ok("s:$n", $v)) {
                $bad('fetch', "s:$n", $v);
            }
        } elseif ($r < 53) {
            apcu_store("s:$n", sc_str("s:$n", $wid, $seq));
        } elseif ($r < 68) {
            $c = 'c:' . ($n % $counters);
            $v = apcu_inc($c, 1, $ok);
            if (!$ok || !is_int($v) || $v < 1 || (isset($last[$c]) && $v <= $last[$c])) {
                $bad('inc', $c, [$v, $last[$c] ?? null]);
            } else {
                $last[$c] = $v;
                $incs++;
            }
        } elseif ($r < 78) {
            $x = 'x:' . ($n % $counters);
            $old = apcu_fetch($x, $ok);
            if (!$ok) {
                $bad('cas key missing', $x, $old);
            } elseif (!is_int($old) || $old < 0) {
                $bad('cas fetch', $x, $old);
            } elseif (apcu_cas($x, $old, $old + 1)) {
                $cas++;
            }
        } elseif ($r < 95) {
            $e = 'e:' . ($n % 16);
            $v = apcu_entry($e, function ($k) use (&$calls) {
                $calls++;
                return sc_entry_value($k);
            });
            $entries++;
            if (!sc_entry_ok($e, $v)) {
                $bad('entry', $e, $v);
            }
        } else {
            apcu_delete('e:' . ($n % 16));
        }
    }
    echo "R ops=$ops wrong=$wrong incs=$incs cas=$cas entries=$entries calls=$calls\n";
}

// A request that ends in a fatal error while a fetched value is decoded
// (its __wakeup raises E_USER_ERROR): the thread must carry on with its
// next request, and nothing may leak (run the driver under valgrind).
class ScFatalOnWakeup
{
    public $pad;
    public function __construct()
    {
        $this->pad = str_repeat('f', 50000);
    }
    public function __wakeup(): void
    {
        if (!empty($GLOBALS['sc_fatal_now'])) {
            trigger_error('fatal while decoding', E_USER_ERROR);
        }
    }
}

function sc_fatal_request(string $wid): void
{
    apcu_store("f:$wid", new ScFatalOnWakeup());
    $GLOBALS['sc_fatal_now'] = true;
    echo "R ops=0 wrong=0 incs=0 cas=0 entries=0 calls=0\n";
    apcu_fetch("f:$wid");
    echo "WRONG $wid the fatal error did not stop the request\n";
}

// Run once by the driver before any worker, and once after all of them.
function sc_setup(): void
{
    for ($j = 0; $j < 8; $j++) {
        apcu_add("x:$j", 0);
    }
}

function sc_final(): void
{
    $c = $x = 0;
    for ($j = 0; $j < 8; $j++) {
        $c += (int)apcu_fetch("c:$j");
        $x += (int)apcu_fetch("x:$j");
    }
    echo "F counters=$c cas=$x\n";
}
