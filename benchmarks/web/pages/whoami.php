<?php
/*
 * benchmarks/web/pages/whoami.php - which cache answers apcu_* in this
 * php-fpm, e.g. "shardcache 0.1.0 enabled=1 opcache=1 pid=123 zero_copy=1".
 * The scripts check it before measuring, so a run can never measure the
 * wrong cache.
 */
header('Content-Type: text/plain');
if (extension_loaded('shardcache')) {
    $name = 'shardcache ' . phpversion('shardcache');
} elseif (extension_loaded('apcu')) {
    $name = 'apcu ' . phpversion('apcu');
} else {
    $name = 'none';
}
$enabled = function_exists('apcu_enabled') && apcu_enabled() ? 1 : 0;
$opcache = function_exists('opcache_get_status') && @opcache_get_status(false) ? 1 : 0;
$zc = '';
if (function_exists('shardcache_info')) {
    $zc = ' zero_copy=' . ((shardcache_info()['zero_copy']['enabled'] ?? false) ? 1 : 0);
}
echo "$name enabled=$enabled opcache=$opcache pid=", getmypid(), "$zc\n";
