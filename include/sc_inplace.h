/*
 * sc_inplace.h - a store that overwrites a scalar with a scalar in the
 * entry that already holds the key (src/sc_inplace.c, issue 20).
 *
 * Owns: the rewrite of a published scalar entry's header.
 * Locks: the caller holds the shard's REPAIR lock; the fields change
 * inside the odd window.
 * Death: the next locker empties the shard (sc_shard.c).
 */
#ifndef SC_INPLACE_H
#define SC_INPLACE_H

#include "sc_segment.h"

/* Shard write lock held; `old` is the key's entry, found under that lock.
 * The caller has checked that both old's value type and vtype carry no
 * value bytes (null, false, true, int, float: sc_vtype_has_bytes is false;
 * readers always copy these out of the entry). When old is not chained,
 * not zero-copy (SC_ENTRY_ZC) and has no value bytes, rewrites it
 * in place as the store of (vtype, scalar, ttl) at `now` - what
 * sc_entry_create would have written into a new entry - and returns true:
 * the caller counts an update and is done (no allocation, no free, the
 * table untouched). False (nothing written) otherwise. */
bool sc_inplace_store(sc_shard *shard, sc_entry *old, uint8_t vtype, int64_t scalar, uint32_t ttl,
                      int64_t now);

#endif
