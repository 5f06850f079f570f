/*
 * php/info.h - apcu_cache_info, apcu_key_info, apcu_sma_info and
 * shardcache_info (php/info.c).
 */
#ifndef SHARDCACHE_INFO_H
#define SHARDCACHE_INFO_H

#include "php.h"

void php_sc_info_minit(int module_number);
/* phpinfo's Entries: entries (the cache's count) for root with isolation
 * on and for a caller that sees every entry (php/owner.c), else the
 * entries it sees. */
uint64_t php_sc_info_entries_seen(uint64_t entries);

ZEND_FUNCTION(shardcache_cache_info);
ZEND_FUNCTION(shardcache_key_info);
ZEND_FUNCTION(shardcache_sma_info);
ZEND_FUNCTION(shardcache_info);

#endif
