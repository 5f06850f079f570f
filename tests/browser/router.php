<?php
/*
 * tests/browser/router.php - router script of the PHP built-in server used by
 * the browser test (tests/browser/run.sh):
 *
 *   php -n -d extension=.../shardcache.so -d apc.enable_cli=1 \
 *       -S 127.0.0.1:PORT -t tools/ tests/browser/router.php
 *
 * The built-in server is one process, so every request sees one cache.
 * Test endpoints (no auth; this router is never deployed):
 *   /__test/setup   stores the test keys and reads some of them (JSON: what was stored)
 *   /__test/info    shardcache_info() as JSON
 *   /__test/exists?key=K   {"exists": bool}
 *   /__test/churn?n=N      N stores, deletes and misses (moves the counters)
 * Everything else is served from tools/ as usual (dashboard.php, metrics.php).
 */

$path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);
if (!is_string($path) || !str_starts_with($path, '/__test/')) {
    return false;
}

header('Content-Type: application/json');
header('Cache-Control: no-store');

switch ($path) {
    case '/__test/setup':
        shardcache_clear_cache();
        $stored = [];
        for ($i = 1; $i <= 40; $i++) {
            $stored["user:$i"] = shardcache_store("user:$i", ['id' => $i, 'name' => "user number $i"]);
        }
        $stored['session:abc'] = shardcache_store('session:abc', 'token-' . str_repeat('x', 20), 3600);
        $stored['config:app'] = shardcache_store('config:app', ['debug' => false, 'hosts' => ['a', 'b']]);
        $stored['blob:big'] = shardcache_store('blob:big', str_repeat('0123456789', 20000));
        $stored['counter'] = shardcache_store('counter', 41);
        shardcache_inc('counter');
        $stored['obj:1'] = shardcache_store('obj:1', new ArrayObject([1, 2, 3]));
        $stored['<b>odd</b> & "key" \'x\''] = shardcache_store('<b>odd</b> & "key" \'x\'', 'escaped?');
        // Reads: enough for sampled hits (1 in 32) to show up, and some misses.
        for ($r = 0; $r < 64; $r++) {
            for ($i = 1; $i <= 40; $i++) {
                shardcache_fetch("user:$i");
            }
            shardcache_fetch("missing:$r");
        }
        echo json_encode(['stored' => $stored]);
        break;

    case '/__test/info':
        echo json_encode(shardcache_info());
        break;

    case '/__test/exists':
        echo json_encode(['exists' => shardcache_exists((string)($_GET['key'] ?? ''))]);
        break;

    case '/__test/churn':
        $n = max(1, min(100000, (int)($_GET['n'] ?? 100)));
        for ($i = 0; $i < $n; $i++) {
            shardcache_store("churn:$i", $i);
            shardcache_fetch("churn:$i");
            shardcache_fetch("churn-missing:$i");
            shardcache_delete("churn:$i");
        }
        echo json_encode(['churned' => $n]);
        break;

    default:
        http_response_code(404);
        echo json_encode(['error' => 'no such test endpoint']);
}
