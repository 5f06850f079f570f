/*
 * shardcache_info.c - apcu_cache_info, apcu_key_info, apcu_sma_info and
 * shardcache_info (placeholder: filled in by the compatibility work).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php.h"
#include "php_shardcache.h"

void sc_php_info_minit(int module_number)
{
    (void)module_number;
}
