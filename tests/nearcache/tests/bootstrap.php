<?php

declare(strict_types=1);

require dirname(__DIR__) . '/vendor/autoload.php';
// The PSR-16 integration suite of the Debian package php-cache-integration-tests
// (run.sh installs it); its SimpleCacheTest (PSR-16) and CachePoolTest (PSR-6)
// classes are used.
require_once getenv('NEARCACHE_INTEGRATION_TESTS') ?: '/usr/share/php/Cache/IntegrationTests/SimpleCacheTest.php';
require_once dirname(getenv('NEARCACHE_INTEGRATION_TESTS') ?: '/usr/share/php/Cache/IntegrationTests/SimpleCacheTest.php') . '/CachePoolTest.php';
