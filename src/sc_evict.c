/*
 * sc_evict.c - making room when a store does not fit.
 *
 * Order of preference: the shard's spare slabs (sc_alloc.c) go back to the
 * pool first; then entries of keys deleted without the lock and kept
 * (SC_TTL_GONE, sc_lockless.c: counted neither as expired nor as evicted),
 * with entries past their TTL (and, with apc.ttl set,
 * entries unchanged for longer than apc.ttl), then - unless another shard
 * keeps entries of deleted keys, which sc_evict_global then removes first -
 * live entries in CLOCK order over the shard's slots: an entry whose
 * reference bit is set (a sampled hit, recorded under the shard lock by
 * sc_cache.c) loses the bit and is passed over once. The cache is never
 * emptied as a whole because one store did not fit.
 *
 * Owns: which entries go when memory or table room is short; the shards'
 * expired and evicted figures; the header's expunges and evict_cursor.
 *
 * Locks: per-shard work runs under that shard's REPAIR lock, with one odd
 * sequence window around each batch of removals. Work across shards takes
 * the global lock first and then one shard lock at a time (lock order:
 * global -> shard -> pool), so it never runs while the caller still holds a
 * shard lock; a shard it finds frozen was left so by a clear that died, and
 * is repaired (sc_shard_lock_global).
 *
 * Death: killed under a shard's REPAIR lock, the next locker empties that
 * shard (sc_shard.c) and recounts its owners' bytes (sc_fair.h). Killed holding the global lock, the kernel hands it
 * to the next locker with "owner died"; it guards only the order of
 * whole-cache work and a few figures, so there is nothing to repair.
 */
#include "sc_evict.h"
#include "sc_shard.h"
#include "sc_entry.h"
#include "sc_pin.h"
#include "sc_epoch.h"

void sc_evict_drop(sc_seg *seg, sc_shard *shard, uint32_t slot, sc_entry *e)
{
    SC_ASSERT(sc_layout_shard_repair_held(shard));
    SC_ASSERT(sc_layout_window_open(shard));

    sc_table_clear_slot(seg, &sc_layout_head(shard)->table, slot);
    sc_fair_count(shard, sc_fair_entry_slot(seg, e), -(uint64_t)e->mem_size);
    sc_epoch_release_entry(seg, shard, e);
}

/* The sweep behind sc_evict_expired and sc_evict_gone: one pass over the
 * shard's slots inside one window, removing the entries of keys deleted
 * without the lock (SC_TTL_GONE, counted in *gone; with grace, those marked
 * SC_ENTRY_REVIVED lose the mark instead) and, unless gone_only, those past
 * their TTL or (idle_ttl) idle that long. Returns how many were removed in
 * all. */
static uint32_t sc_evict_sweep(sc_seg *seg, sc_shard *shard, int64_t now, uint32_t idle_ttl, bool gone_only,
                               bool grace, uint32_t *gone)
{
    sc_table *table = &sc_layout_head(shard)->table;
    uint32_t slot, removed = 0;

    *gone = 0;
    sc_shard_write_begin(shard);
    for (slot = 0; slot < table->capacity; slot++) {
        sc_entry *e = sc_table_slot_entry(seg, table, slot);
        if (!e) {
            continue;
        }
        if (e->ttl == SC_TTL_GONE) {
            if (grace && (e->flags & SC_ENTRY_REVIVED)) {
                e->flags &= (uint8_t)~SC_ENTRY_REVIVED;
                continue;
            }
            /* Deleted already (sc_lockless.c): not counted as expired. */
            sc_evict_drop(seg, shard, slot, e);
            removed++;
            (*gone)++;
        } else if (!gone_only
                   && (sc_evict_is_expired(e, now) || (idle_ttl && sc_table_entry_mtime(e) + (int64_t)idle_ttl < now))) {
            sc_evict_drop(seg, shard, slot, e);
            removed++;
        }
    }
    sc_shard_write_end(shard);
    return removed;
}

uint32_t sc_evict_expired(sc_seg *seg, sc_shard *shard, int64_t now, uint32_t idle_ttl)
{
    uint32_t removed, gone;

    SC_ASSERT(sc_layout_repair_no_window(shard));

    if (!sc_layout_head(shard)->table.off || !sc_layout_head(shard)->table.used) {
        return 0;
    }
    removed = sc_evict_sweep(seg, shard, now, idle_ttl, false, false, &gone);
    shard->stats.expired += removed - gone;
    shard->stats.cleanups++;
    return removed;
}

uint32_t sc_evict_gone(sc_seg *seg, sc_shard *shard, bool grace)
{
    uint32_t gone;

    SC_ASSERT(sc_layout_repair_no_window(shard));

    if (!sc_layout_head(shard)->table.off || !sc_alloc_gone(&shard->alloc)) {
        return 0;
    }
    return sc_evict_sweep(seg, shard, 0, 0, true, grace, &gone);
}

bool sc_evict_gone_elsewhere(const sc_seg *seg, const sc_shard *except)
{
    uint32_t k;

    for (k = 0; k < seg->nshards; k++) {
        if (&seg->shards[k] != except && sc_alloc_gone(&seg->shards[k].alloc)) {
            return true;
        }
    }
    return false;
}

uint32_t sc_evict_clock(sc_seg *seg, sc_shard *shard, uint32_t max, uint32_t mem_size, sc_fair_pass *fp)
{
    sc_table *table = &sc_layout_head(shard)->table;
    uint32_t removed = 0, looked = 0, gone = 0;
    int victim;

    SC_ASSERT(sc_layout_repair_no_window(shard));

    if (!table->off || !table->used || !max) {
        return 0;
    }
    sc_shard_write_begin(shard);
    /* The hand moves on until max entries went, the table is empty, or
     * after two turns (the first may only clear reference bits). */
    while (removed < max && table->used && looked < 2 * table->capacity) {
        uint32_t slot = table->clock_hand;
        sc_entry *e = sc_table_slot_entry(seg, table, slot);
        table->clock_hand = (slot + 1) & (table->capacity - 1);
        looked++;
        if (!e || (mem_size && e->mem_size != mem_size)) {
            continue;
        }
        if (e->ttl == SC_TTL_GONE) {
            /* Deleted already (sc_lockless.c): freed, not counted as
             * evicted, whatever its reference bit says. */
            sc_evict_drop(seg, shard, slot, e);
            removed++;
            gone++;
            continue;
        }
        /* An entry its store may not take keeps its reference bit. */
        victim = sc_fair_victim(fp, e);
        if (victim == SC_FAIR_KEEP) {
            continue;
        }
        if (e->flags & SC_ENTRY_REFERENCED) {
            e->flags &= (uint8_t)~SC_ENTRY_REFERENCED;
            continue;
        }
        sc_fair_taken(fp, victim, e->mem_size);
        sc_evict_drop(seg, shard, slot, e);
        removed++;
    }
    sc_shard_write_end(shard);
    shard->stats.evicted += removed - gone;
    return removed;
}

void sc_evict_global(sc_seg *seg, uint32_t idle_ttl, uint32_t need_pages, int64_t now, sc_fair_pass *fp)
{
    sc_header *hdr = seg->hdr;
    uint32_t round, k, flushed = 0, gone = 0, target = need_pages + seg->npages / 64 + 1;

    SC_ASSERT(sc_layout_holds_none(seg));

    if (target > seg->npages) {
        target = seg->npages;
    }
    /* Pages of repaired shards held for readers that have left since
     * (sc_epoch.c), then the shards' spare slabs and their entries of keys
     * deleted without the lock (sc_lockless.c): they hold no value anybody
     * can read, and giving them back needs no global lock. A kept entry
     * costs no live one: this runs before any entry is evicted here, and
     * a store evicts in its own shard only when no other shard keeps any
     * (sc_evict_gone_elsewhere). */
    flushed += (uint32_t)(sc_epoch_poll(seg, true) >> SC_PAGE_SHIFT);
    for (k = 0; k < seg->nshards && sc_alloc_pool_free_pages(&seg->ac) < need_pages; k++) {
        sc_shard *shard = &seg->shards[k];
        if (__atomic_load_n(&shard->alloc.spare_pages, __ATOMIC_RELAXED)
            || __atomic_load_n(&shard->retire.head, __ATOMIC_RELAXED) || sc_alloc_gone(&shard->alloc)) {
            sc_shard_lock(seg, shard, SC_LOCK_REPAIR);
            flushed += (uint32_t)(sc_epoch_reclaim(seg, shard, k == 0) >> SC_PAGE_SHIFT);
            gone += sc_evict_gone(seg, shard, false);
            flushed += sc_alloc_flush_spares(&seg->ac, &shard->alloc);
            sc_shard_unlock(shard);
        }
    }
    if ((flushed && sc_alloc_pool_free_pages(&seg->ac) >= need_pages) || gone) {
        /* The caller tries again; if that fails, the next call evicts.
         * With kept entries removed, even if the pool is still short: their
         * memory may be of the caller's shard and size, and the caller's
         * next round evicts in its own shard (one entry, not a share of
         * every shard as below). */
        return;
    }
    sc_mutex_lock(&hdr->global_lock);
    hdr->global_lock_count++;
    hdr->expunges++;
    /* Other stores changed the owners' bytes since this store looked. */
    sc_fair_stale(fp);
    /* Each round takes a growing share of every shard: 1/8, 1/4, 1/2, all
     * (of what the store may take, with fp: nothing of an owner within its
     * share, even if the store then fails). Another round follows while
     * the pool has fewer free pages than the target; four at most. */
    for (round = 0; round < 4 && sc_alloc_pool_free_pages(&seg->ac) < target; round++) {
        bool any = false;
        for (k = 0; k < seg->nshards && sc_alloc_pool_free_pages(&seg->ac) < target; k++) {
            sc_shard *shard = &seg->shards[hdr->evict_cursor++ & (seg->nshards - 1)];
            uint32_t share, n;
            sc_shard_lock_global(seg, shard, SC_LOCK_REPAIR);
            any |= sc_evict_expired(seg, shard, now, idle_ttl) > 0;
            share = round < 3 ? (sc_layout_head(shard)->table.used >> (3 - round)) + 1 : sc_layout_head(shard)->table.used;
            n = sc_evict_clock(seg, shard, share, 0, fp);
            any |= n > 0;
            sc_shard_unlock(shard);
        }
        if (!any) {
            break;
        }
    }
    sc_mutex_unlock(&hdr->global_lock);
}

uint64_t sc_evict_retired(sc_seg *seg)
{
    SC_ASSERT(sc_layout_holds_none(seg));

    if (!sc_epoch_rescan_due(seg)) {
        return 0;
    }
    return sc_evict_reclaimable(seg);
}

uint64_t sc_evict_reclaimable(sc_seg *seg)
{
    uint64_t freed = 0;
    uint32_t i;

    SC_ASSERT(sc_layout_holds_none(seg));

    for (i = 0; i < seg->nshards; i++) {
        sc_shard *shard = &seg->shards[i];
        if (!sc_epoch_reclaimable(seg, shard)) {
            continue;   /* nothing on its list is old enough (no lock taken) */
        }
        sc_shard_lock(seg, shard, SC_LOCK_REPAIR);
        freed += sc_epoch_reclaim(seg, shard, false);
        sc_shard_unlock(shard);
    }
    return freed;
}
