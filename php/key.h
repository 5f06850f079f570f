/*
 * php/key.h - what every cache operation of the glue hands the core: the
 * clock, a PHP key as an sc_key (with its owner's salt: php/owner.c), and
 * a ttl as the core takes it. Static inline: a call would cost apcu_fetch
 * and apcu_store more than these bodies do.
 */
#ifndef SHARDCACHE_KEY_H
#define SHARDCACHE_KEY_H

#include <time.h>
#include "php.h"
#include "SAPI.h"
#include "php_shardcache.h"
#include "sc_cache.h"

/* The cache's clock, APCu's: time(NULL), which reads the kernel's coarse
 * clock (about 1.5 ns a call here, against 26 ns for clock_gettime
 * CLOCK_REALTIME, once per store). PHP's time() reads gettimeofday, the
 * precise clock, so for the few milliseconds after a second turns (one
 * kernel tick) time() can already say t + 1 while an entry stored next is
 * stamped t: a creation_time or mtime is at most one second behind a
 * time() read before the store, never ahead of one read after it. */
static inline int64_t php_sc_now(void)
{
    if (SCG(use_request_time)) {
        return (int64_t)sapi_get_request_time();
    }
    return (int64_t)time(NULL);
}

/* Fills k; false when the key cannot be in the cache (or there is no
 * cache: when disabled every operation finds nothing and stores nothing). */
static inline bool php_sc_make_key(sc_key *k, zend_string *key)
{
    if (UNEXPECTED(!php_sc_active || ZSTR_LEN(key) > UINT32_MAX - 1)) {
        return false;
    }
    k->str = ZSTR_VAL(key);
    k->len = (uint32_t)ZSTR_LEN(key);
    /* The owner's salt makes each user's keys its own (php/owner.c). */
    k->glue_hash = (ZSTR_H(key) ? ZSTR_H(key) : zend_string_hash_val(key)) ^ SCG(owner_salt);
    return true;
}

/* A ttl as the core takes it (sc_table.h): positive ones clamped to
 * SC_TTL_MAX (68 years: never, in practice), negative ones mark an entry
 * stored already expired, as APCu keeps it. */
static inline uint32_t php_sc_clamp_ttl(zend_long ttl)
{
    if (ttl == 0) {
        return 0;
    }
    if (ttl < 0) {
        return SC_TTL_EXPIRED | (ttl < -(zend_long)SC_TTL_MAX ? SC_TTL_MAX : (uint32_t)-ttl);
    }
    return (uint64_t)ttl > SC_TTL_MAX ? SC_TTL_MAX : (uint32_t)ttl;
}

#endif
