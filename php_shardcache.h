/*
 * php_shardcache.h - the PHP module: module entry, version, the per-thread
 * globals of the glue, and what the glue files (shardcache*.c) share.
 */
#ifndef PHP_SHARDCACHE_H
#define PHP_SHARDCACHE_H

#include "sc_cache.h"

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

/* ---- shared between the glue files (shardcache*.c) ---- */

extern sc_cache sc_shared_cache;     /* this process's handle on the segment */
extern bool sc_active;               /* false: every operation finds/stores nothing */

/* Time for TTL checks: the request time with apc.use_request_time, else now. */
int64_t sc_now(void);
/* Fills k from a PHP key; false when there is no cache or the key is too long. */
bool sc_make_key(sc_key *k, zend_string *key);
/* Decodes a value copied out of the cache (see sc_value.h) into dst. */
bool sc_php_decode(uint8_t vtype, int64_t scalar, const char *data, size_t len, zval *dst);

/* shardcache_iterator.c */
extern zend_class_entry *sc_php_iterator_ce;
void sc_php_iterator_minit(int module_number);
void sc_php_iterator_delete(zval *iterator, zval *return_value);

/* shardcache_info.c */
void sc_php_info_minit(int module_number);

#endif
