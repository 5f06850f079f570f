/*
 * shardcache_zerocopy.h - zero-copy values: arrays and strings laid out in
 * the segment as PHP's own immutable arrays and strings, returned by a
 * fetch without a copy (shardcache_zerocopy.c; reclamation: src/sc_epoch.c).
 */
#ifndef SHARDCACHE_ZEROCOPY_H
#define SHARDCACHE_ZEROCOPY_H

#include "php.h"
#include "sc_cache.h"
#include "sc_epoch.h"
#include "sc_vtype.h"
#include "php_shardcache.h"

/* shardcache.zero_copy resolved for this process (MINIT): on, off. */
extern bool sc_zc_on;
/* Bytes zero-copy values (live and retired) may take at most. */
extern uint64_t sc_zc_budget;

/* MINIT: resolves shardcache.zero_copy ("auto", "1", "0") for this SAPI and
 * the budget (shardcache.zero_copy_max; 0 = a quarter of shm_size). */
void sc_zc_minit(const char *setting, zend_long max_bytes, uint64_t shm_size);

/* Store: when value can and should be zero-copy, lays it out, stores it and
 * returns true with *st set; false: the caller stores it the usual way. */
bool sc_zc_store(sc_cache *c, const sc_key *key, zval *value, uint32_t ttl, int64_t now, bool add_only,
                 sc_status *st);

void sc_zc_enter(void);

/* Fetch: makes the sink borrow zero-copy entries when this thread may
 * (enters the request's epoch at its first call). */
static zend_always_inline void sc_zc_sink_prepare(sc_sink *sink)
{
    if (sc_zc_on) {
        if (UNEXPECTED(!SCG(zc_entered))) {
            sc_zc_enter();
        }
        if (SCG(zc_entered)) {
            sink->borrow = UINT32_C(1) << SC_V_ZC;
        }
    }
}

/* A value of vtype SC_V_ZC (borrowed or copied) into dst: the immutable
 * value itself when usable here, else decoded from its copying form. */
bool sc_zc_to_zval(const sc_value_out *out, zval *dst);

/* Request end (post-deactivate: after the request's memory is gone). */
void sc_zc_request_end(void);

/* For shardcache_info(): figures of the epoch table. */
void sc_zc_info(zval *dst);

#endif
