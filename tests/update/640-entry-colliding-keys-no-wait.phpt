--TEST--
apcu_entry never waits on another key whose PHP hash is the same
--DESCRIPTION--
"col-Ez" and "col-FY" have the same PHP string hash (DJBX33A: "Ez" and "FY"
both add 2399 to the running hash), checked below; so do two 123-byte keys
whose first 119 bytes are equal (longer than the 104 bytes a reservation
keeps of a key). While process A runs apcu_entry's callback for the first
key of a pair (it waits in the callback for the parent), process B's
apcu_entry of the second key must run its own callback at once: a
reservation is matched by the key's bytes and by a hash keyed with the
segment's secret, never by PHP's hash alone. Before, B waited for A's
callback of the unrelated key (here: until the parent gave up waiting).
Every key then holds its own callback's value.
--SKIPIF--
<?php
require __DIR__ . '/../lib/fork-update.inc';
fu_skip();
if (!extension_loaded('shardcache')) die('skip shardcache-specific: APCu runs every callback under one lock');
?>
--INI--
apc.enable_cli=1
--FILE--
<?php
require __DIR__ . '/../lib/fork-update.inc';
function djbx33a(string $s): int {
    $h = 5381;
    for ($i = 0; $i < strlen($s); $i++) {
        $h = ($h * 33 + ord($s[$i])) & 0xffffffffffff;
    }
    return $h;
}
function pair(string $ka, string $kb, float $limit): void {
    echo 'same length and PHP hash (low 48 bits): ', var_export(strlen($ka) === strlen($kb) && djbx33a($ka) === djbx33a($kb), true), "\n";
    $kids = fu_start(2, function (int $id, $sock) use ($ka, $kb) {
        if ($id === 0) {
            return apcu_entry($ka, function (string $k) use ($sock) {
                fu_send($sock, 'A computing');
                fu_recv($sock);
                return 'A:' . md5($k);
            });
        }
        fu_recv($sock);
        $r = apcu_entry($kb, function (string $k) use ($sock) {
            fu_send($sock, 'B computing');
            return 'B:' . md5($k);
        });
        fu_send($sock, 'B done');
        return $r;
    });
    fu_go($kids);
    [$sa, $sb] = $kids->socks;
    echo fu_recv($sa), "\n";
    fu_send($sb, 'go');
    $b = fu_recv_timeout($sb, $limit);
    echo $b === 'TIMEOUT' ? "B waited {$limit}s for A's callback" : $b, "\n";
    if ($b !== 'TIMEOUT') {
        echo fu_recv($sb), "\n";
    }
    fu_send($sa, 'finish');
    $errors = 0;
    $res = fu_finish($kids, $errors);
    echo 'A got its own: ', var_export(($res[0] ?? null) === 'A:' . md5($ka), true), "\n";
    echo 'B got its own: ', var_export(($res[1] ?? null) === 'B:' . md5($kb), true), "\n";
    echo 'stored: ', var_export(apcu_fetch($ka) === 'A:' . md5($ka) && apcu_fetch($kb) === 'B:' . md5($kb), true), "\n";
    echo "errors: $errors\n";
}
$limit = (float) (getenv('SLOW_LIMIT') ?: 30);
pair('col-Ez', 'col-FY', $limit);
$head = 'long-' . str_repeat('EzFY', 28) . 'Ez';
pair($head . 'EzEz', $head . 'FYEz', $limit);
?>
--EXPECT--
same length and PHP hash (low 48 bits): true
A computing
B computing
B done
A got its own: true
B got its own: true
stored: true
errors: 0
same length and PHP hash (low 48 bits): true
A computing
B computing
B done
A got its own: true
B got its own: true
stored: true
errors: 0
