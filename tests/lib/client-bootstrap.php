<?php
/*
 * Bootstrap shared by the client suites (tests/symfony, tests/doctrine; each suite's
 * tests/bootstrap.php loads its Composer autoloader, then this): refuses to run against anything but the
 * extension named by SC_CACHE_EXT (default shardcache), so that a misconfigured run (APCu
 * loaded from a php.ini, or no cache at all) fails instead of testing the wrong thing.
 */
require_once __DIR__ . '/ClientCacheTestCase.php';

$expected = getenv('SC_CACHE_EXT') ?: 'shardcache';
if (!function_exists('apcu_fetch')) {
    fwrite(STDERR, "bootstrap: no apcu_fetch(): load the extension under test (see run.sh)\n");
    exit(2);
}
/* The extension that really answers apcu_*: shardcache registers its APCu
 * names under an "apcu" extension of its own, which depends on shardcache;
 * the real APCu does not. */
function sc_cache_backend(): string
{
    $name = (new ReflectionFunction('apcu_store'))->getExtensionName();
    if ($name === 'apcu' && array_key_exists('shardcache', (new ReflectionExtension('apcu'))->getDependencies())) {
        return 'shardcache';
    }
    return $name;
}
$actual = sc_cache_backend();
if ($actual !== $expected) {
    fwrite(STDERR, "bootstrap: apcu_fetch() comes from '$actual', expected '$expected'\n");
    exit(2);
}
if (!apcu_enabled()) {
    fwrite(STDERR, "bootstrap: the cache is disabled (apc.enable_cli=1 missing?)\n");
    exit(2);
}
