/*
 * sc_evict.h - removing entries to make room: expired ones first, then
 * others in CLOCK order, within a shard and across the whole cache.
 *
 * Owns: the choice of entries to remove; expired/evicted figures.
 * Locks: the shard's REPAIR lock (per shard), the global lock first for
 * work across shards (sc_evict_global).
 * Death: see src/sc_evict.c (the next locker empties the shard).
 */
#ifndef SC_EVICT_H
#define SC_EVICT_H

#include "sc_layout.h"
#include "sc_fair.h"

/* Whether e holds no value at now: expired, or its key deleted without the
 * lock (SC_TTL_GONE, at every now). One load of ttl. */
static inline bool sc_evict_is_expired(const sc_entry *e, int64_t now)
{
    uint32_t ttl = __atomic_load_n(&e->ttl, __ATOMIC_RELAXED);

    if (SC_UNLIKELY(ttl & SC_TTL_EXPIRED)) {
        return now != SC_ANY_TIME || ttl == SC_TTL_GONE;
    }
    return ttl && e->ctime + (int64_t)ttl < now;
}

/* Shard REPAIR lock held, inside the odd sequence window: removes the entry
 * in slot, lowers its owner's bytes in the shard (sc_fair_count) and frees
 * it. */
void sc_evict_drop(sc_seg *seg, sc_shard *shard, uint32_t slot, sc_entry *e);

/* Shard REPAIR lock held (no window open): removes entries past their TTL
 * and, when idle_ttl is set, entries unchanged for longer than idle_ttl.
 * Returns how many were removed. */
uint32_t sc_evict_expired(sc_seg *seg, sc_shard *shard, int64_t now, uint32_t idle_ttl);

/* Shard REPAIR lock held (no window open): removes the entries of keys
 * deleted without the lock and kept (SC_TTL_GONE). With grace (table room,
 * sc_resize.c), one marked SC_ENTRY_REVIVED loses the mark and stays;
 * without (memory), every one goes. Returns how many went. */
uint32_t sc_evict_gone(sc_seg *seg, sc_shard *shard, bool grace);

/* No lock needed (a moment old): whether a shard other than `except`
 * keeps entries of keys deleted without the lock (sc_alloc_lane.gone).
 * A store short of memory evicts live entries of its own shard only when
 * none does; otherwise sc_evict_global removes those first. */
bool sc_evict_gone_elsewhere(const sc_seg *seg, const sc_shard *except);

/* Shard REPAIR lock held (no window open): removes up to max entries in
 * CLOCK order; with mem_size set, only entries of that allocation size
 * (whose memory a new entry of that size can reuse at once); with fp set,
 * only entries the store of fp may evict (sc_fair_victim: its own, and
 * those of owners above their share). Returns how many were removed. */
uint32_t sc_evict_clock(sc_seg *seg, sc_shard *shard, uint32_t max, uint32_t mem_size, sc_fair_pass *fp);

/* No lock held: first, one shard lock at a time, gives back the shards'
 * spare slabs and removes their kept entries of deleted keys (SC_TTL_GONE);
 * if that frees need_pages pages, done. Otherwise takes the global lock
 * and removes entries across shards until at least need_pages pages are
 * free in the pool or a full sweep removed everything it could. idle_ttl:
 * apc.ttl, as for sc_evict_expired. With fp set (isolation), the
 * owners' bytes are summed anew, and the store of fp evicts only what
 * sc_fair_victim allows, whatever it then finds free. */
void sc_evict_global(sc_seg *seg, uint32_t idle_ttl, uint32_t need_pages, int64_t now, sc_fair_pass *fp);

/* No lock held. The zero-copy budget is full: if a rescan of the epochs
 * is due (sc_epoch_rescan_due), frees every shard's retired entries that
 * nobody can hold any more, one shard lock at a time. Returns the bytes
 * freed. */
uint64_t sc_evict_retired(sc_seg *seg);
/* No lock held: the pass of sc_evict_retired without a rescan first (the
 * caller raised table->safe: sc_epoch_release_entry said so). */
uint64_t sc_evict_reclaimable(sc_seg *seg);

#endif
