/*
 * php/store.h - apcu_store and apcu_add (php/store.c), and the store of
 * one value that apcu_entry makes too.
 */
#ifndef SHARDCACHE_STORE_H
#define SHARDCACHE_STORE_H

#include "php.h"
#include "php_shardcache.h"

/* Stores value under key (add_only: unless the key has a live entry),
 * stamped now. Returns false when not stored (a warning or exception has
 * been raised where APCu raises one). */
bool php_sc_store_one(zend_string *key, zval *value, zend_long ttl, bool add_only, int64_t now);

ZEND_FUNCTION(shardcache_store);
ZEND_FUNCTION(shardcache_add);

#endif
