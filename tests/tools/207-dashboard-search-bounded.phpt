--TEST--
dashboard: a key search is bounded, and the page says where it stopped
--DESCRIPTION--
The search is bounded by the keys it examines (matching or not) and by time.
--SKIPIF--
<?php
require __DIR__ . '/../lib/dashboard.inc';
dt_skip();
?>
--FILE--
<?php
require __DIR__ . '/../lib/dashboard.inc';
function match_line(string $html): string
{
    return preg_match('~<p class="muted" id="match-count">(.*?)</p>~s', $html, $m) ? strip_tags($m[1]) : '(no match count)';
}
function bounds_line(string $html): string
{
    return preg_match('~<p class="muted" id="search-bounds">(.*?)</p>~s', $html, $m) ? strip_tags($m[1]) : '(no bounds)';
}

// Bounded by keys examined: 1000 of 3000, though none matches.
$srv = new DashboardServer(['SHARDCACHE_DASHBOARD_MAX_SCAN' => '1000', 'SHARDCACHE_DASHBOARD_SEARCH_SECONDS' => '60']);
[, , $n] = $srv->request('GET', '/__t/fill?n=3000&len=40');
echo "stored: $n\n";
[$st, , $html] = $srv->request('GET', '/dashboard.php?list=1&q=' . rawurlencode('^nothing-like-this'));
echo "$st: ", match_line($html), "\n", bounds_line($html), "\n";
[$st, , $html] = $srv->request('GET', '/dashboard.php?list=1&q=' . rawurlencode('^fill'));
echo "$st: ", match_line($html), "\n";
$srv->stop();

// Bounded by time: a pattern that backtracks on every key (each one costs
// about a millisecond before it gives up on the key), 0.2 s at most.
$srv = new DashboardServer(['SHARDCACHE_DASHBOARD_MAX_SCAN' => '1000000', 'SHARDCACHE_DASHBOARD_SEARCH_SECONDS' => '0.2']);
$srv->request('GET', '/__t/fill?n=3000&len=40');
[$st, , $html] = $srv->request('GET', '/dashboard.php?list=1&q=' . rawurlencode('(a|aa)+$'));
$line = match_line($html);
echo "$st: ", preg_replace('/first [\d,]+ keys/', 'first N keys', $line), "\n";
preg_match('/first ([\d,]+) keys/', $line, $m);
echo 'examined fewer than all 3000: ', var_export(isset($m[1]) && (int)str_replace(',', '', $m[1]) < 3000, true), "\n";
?>
--EXPECT--
stored: 3000
200: 0 keys match among the first 1,000 keys examined (search stopped at its limit of 1,000 keys) · read with APCUIterator.
A search examines at most 1,000 keys and runs at most 60 s (max_scan, search_seconds); a pattern that backtracks too much on a key does not match it.
200: 1,000 keys match among the first 1,000 keys examined (search stopped at its limit of 1,000 keys) · read with APCUIterator.
200: 0 keys match among the first N keys examined (search stopped at its limit of 0.2 s) · read with APCUIterator.
examined fewer than all 3000: true
