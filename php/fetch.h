/*
 * php/fetch.h - apcu_fetch and apcu_entry (php/fetch.c), and the decoding
 * of a value copied out of the cache that the listings share.
 */
#ifndef SHARDCACHE_FETCH_H
#define SHARDCACHE_FETCH_H

#include "php.h"
#include "php_shardcache.h"

/* Decodes a value copied out of the cache (see php/value.h) into dst. */
bool php_sc_decode(uint8_t vtype, int64_t scalar, const char *data, size_t len, zval *dst);
/* Frees the scratch buffers a fatal error left held while their values
 * were decoded (RSHUTDOWN). */
void php_sc_scratch_release_held(void);

ZEND_FUNCTION(shardcache_fetch);
ZEND_FUNCTION(shardcache_entry);

#endif
