/*
 * php/zc_store.h - zero-copy values, the store side (php/zc_store.c): the
 * settings, resolved at MINIT, and the store that lays a value out
 * (php/zc_layout.h). The fetch side: php/zc.h.
 */
#ifndef SHARDCACHE_ZC_STORE_H
#define SHARDCACHE_ZC_STORE_H

#include "php.h"
#include "sc_cache.h"
#include "zc_layout.h"

/* shardcache.zero_copy resolved for this process (MINIT): on, off. */
extern bool php_sc_zc_on;
/* Bytes zero-copy values (live and retired) may take at most. */
extern uint64_t php_sc_zc_budget;
/* This process's php_sc_zc_shape() (MINIT): which arrays of another PHP
 * ABI it can read. */
extern uint32_t php_sc_zc_shape_mine;

/* MINIT: resolves shardcache.zero_copy ("auto", "1", "0") for this SAPI and
 * the budget (shardcache.zero_copy_max; 0 = a quarter of shm_size). */
void php_sc_zc_minit(const char *setting, zend_long max_bytes, uint64_t shm_size);

/* Whether value may take the zero-copy layout at all (a non-empty array,
 * an object, a string of PHP_SC_ZC_MIN_STRING bytes or more): inlined, so
 * that a store of anything else does not call php_sc_zc_store. */
static zend_always_inline bool php_sc_zc_may_store(const zval *value)
{
    switch (Z_TYPE_P(value)) {
    case IS_ARRAY:
        return zend_hash_num_elements(Z_ARRVAL_P(value)) != 0;
    case IS_OBJECT:
        return true;
    case IS_STRING:
        return Z_STRLEN_P(value) >= PHP_SC_ZC_MIN_STRING;
    default:
        return false;
    }
}

/* Store: when value can and should be zero-copy, lays it out, stores it and
 * returns true with *st set; false: the caller stores it the usual way. */
bool php_sc_zc_store(sc_cache *c, const sc_key *key, zval *value, uint32_t ttl, int64_t now, bool add_only,
                 sc_status *st);

/* Request end: gives back the buffers the thread's stores kept. */
void php_sc_zc_store_request_end(void);

#endif
