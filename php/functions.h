/*
 * php/functions.h - apcu_exists, apcu_delete, apcu_clear_cache and
 * apcu_enabled (php/functions.c).
 */
#ifndef SHARDCACHE_FUNCTIONS_H
#define SHARDCACHE_FUNCTIONS_H

#include "php.h"

ZEND_FUNCTION(shardcache_exists);
ZEND_FUNCTION(shardcache_delete);
ZEND_FUNCTION(shardcache_clear_cache);
ZEND_FUNCTION(shardcache_enabled);

#endif
