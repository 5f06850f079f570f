/*
 * php/info.h - apcu_cache_info, apcu_key_info, apcu_sma_info and
 * shardcache_info (php/info.c).
 */
#ifndef SHARDCACHE_INFO_H
#define SHARDCACHE_INFO_H

#include "php.h"

void php_sc_info_minit(int module_number);
/* phpinfo's figures, as shardcache_info gives them to the caller.
 * segment false (a tenant, php/owner.c): its own entries (entries,
 * mem_used their bytes, hits their sampled hits), free memory rounded as
 * apcu_sma_info's avail_mem; misses, inserts and evicted not read (0).
 * Else the segment's, but entries counts only what the caller sees when
 * other users' entries exist and it is not root. */
typedef struct php_sc_info_brief {
    bool segment;
    uint64_t nshards, mem_total, mem_used, mem_free, entries;
    uint64_t hits, misses, inserts, evicted;
} php_sc_info_brief;
void php_sc_info_brief_get(php_sc_info_brief *b);

ZEND_FUNCTION(shardcache_cache_info);
ZEND_FUNCTION(shardcache_key_info);
ZEND_FUNCTION(shardcache_sma_info);
ZEND_FUNCTION(shardcache_info);

#endif
