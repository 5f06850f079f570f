/*
 * php_shardcache.h - the PHP module: module entry, version and the
 * per-thread globals of the glue in shardcache.c.
 */
#ifndef PHP_SHARDCACHE_H
#define PHP_SHARDCACHE_H

extern zend_module_entry shardcache_module_entry;
#define phpext_shardcache_ptr &shardcache_module_entry

/* Reported as the extension's version; the APCu identity reports the APCu
 * API level it implements. */
#define PHP_SHARDCACHE_VERSION "0.1.0"
#define PHP_SHARDCACHE_APCU_VERSION "5.1.22"

#ifdef ZTS
# include "TSRM.h"
#endif

ZEND_BEGIN_MODULE_GLOBALS(shardcache)
    /* INI */
    bool enabled;            /* apc.enabled */
    bool enable_cli;         /* apc.enable_cli */
    bool use_request_time;   /* apc.use_request_time */
    zend_long entries_hint;  /* apc.entries_hint */
    zend_long ttl;           /* apc.ttl */
    zend_long gc_ttl;        /* apc.gc_ttl */
    char *shm_size;          /* apc.shm_size */
    zend_long shards;        /* shardcache.shards */
    bool apcu_compat;        /* shardcache.apcu_compat */
    /* Process-local scratch buffer for encoded values being fetched. */
    char *scratch;
    size_t scratch_cap;
ZEND_END_MODULE_GLOBALS(shardcache)

ZEND_EXTERN_MODULE_GLOBALS(shardcache)
#define SCG(v) ZEND_MODULE_GLOBALS_ACCESSOR(shardcache, v)

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

#endif
