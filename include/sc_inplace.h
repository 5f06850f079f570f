/*
 * sc_inplace.h - a store that overwrites a scalar with a scalar in the
 * entry that already holds the key (src/sc_inplace.c).
 *
 * Owns: the rewrite of a published scalar entry's header.
 * Locks: the caller holds the shard's REPAIR lock; the fields change
 * inside the odd window.
 * Death: the next locker repairs the shard; the entry being rewritten is
 * odd and settled (src/sc_inplace.c).
 */
#ifndef SC_INPLACE_H
#define SC_INPLACE_H

#include "sc_layout.h"

/* What sc_inplace_store did. */
typedef enum sc_inplace_result {
    SC_INPLACE_NO,          /* old does not qualify: nothing written */
    SC_INPLACE_UPDATED,     /* rewritten over a value */
    SC_INPLACE_INSERTED,    /* rewritten over a key deleted without the
                               lock (ttl SC_TTL_GONE): an insert */
    SC_INPLACE_EXISTS       /* add_only, and old holds a value (checked
                               inside the window): nothing written */
} sc_inplace_result;

/* Shard REPAIR lock held; `old` is the key's entry, found under that lock.
 * The caller has checked that both old's value type and vtype carry no
 * value bytes (null, false, true, int, float: sc_cache_has_bytes is false;
 * readers always copy these out of the entry). When old is not chained,
 * not zero-copy (SC_ENTRY_ZC) and has no value bytes, rewrites it
 * in place as the store of (vtype, scalar, ttl) at `now` - what
 * sc_entry_create would have written into a new entry - and says whether
 * that was an update or an insert: the caller counts it and is done (no
 * allocation, no free, the table untouched). With add_only (the caller
 * found old expired or gone before the window), a lockless store may have
 * brought the key back since: then SC_INPLACE_EXISTS. */
sc_inplace_result sc_inplace_store(sc_shard *shard, sc_entry *old, uint8_t vtype, int64_t scalar, uint32_t ttl,
                                   int64_t now, bool add_only);

#endif
