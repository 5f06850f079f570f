/*
 * sc_inplace.c - overwriting a scalar entry in place.
 *
 * When a store replaces a scalar (null, bool, int, float) with a scalar,
 * the entry keeps its memory, its slot and its key, so the store writes no
 * allocator line (slab descriptor, free list, figures) and no table slot:
 * only the entry, the shard's lock and its head (sequence counter and
 * update count).
 *
 * Owns: nothing shared of its own; it rewrites the header of an entry that
 * a table already refers to.
 * Locks: the caller holds the shard's REPAIR lock, which keeps out every
 * other writer, the locked readers, snapshots, the sampled-hit recorder
 * and the locked int updaters. The fields change inside the shard's odd
 * sequence window (sc_shard_write_begin also drains the pinned int
 * updaters of sc_update.c, which never start while it is odd), so an
 * optimistic reader that copied the entry meanwhile fails its check and
 * reads again: no reader returns a mix of the old and new value or of old
 * and new times. The stamp (a read of the coarse clock, a few ns) is
 * taken inside the window, above the entry's stamp (sc_entry_stamp_after:
 * no lockless writer changes it then).
 * Only values readers always copy are written in place, and never a
 * zero-copy entry (SC_ENTRY_ZC, sc_epoch.h: readers may hold pointers into
 * it): no pointer a reader may hold into an entry ever sees its bytes
 * change. Nothing is freed or retired here, so sc_epoch_release_entry (the one
 * hook in front of the allocator's free) is not bypassed.
 * The entry's version (sc_entry.ver) moves to its next even value, so
 * that no version token taken before this rewrite (sc_table_ever_begin)
 * validates afterwards.
 * Death: a process that dies here dies inside the window, holding the
 * REPAIR lock: the next locker finds the counter odd and repairs the shard
 * (sc_shard_repair.c). The entry's version is odd from before the first
 * field changes until after the last: the repair keeps the other entries,
 * and this one, odd, is settled as a dead lockless writer's would be (its
 * key dropped).
 */
#include "sc_inplace.h"
#include "sc_shard.h"
#include "sc_entry.h"
#include "sc_pin.h"
#include "sc_epoch_layout.h"
#include "sc_evict.h"

sc_inplace_result sc_inplace_store(sc_shard *shard, sc_entry *old, uint8_t vtype, int64_t scalar, uint32_t ttl,
                                   int64_t now, bool add_only)
{
    uint64_t stamp;
    bool gone;

    SC_ASSERT(sc_layout_shard_repair_held(shard));

    if ((old->flags & (SC_ENTRY_CHAINED | SC_ENTRY_ZC)) || old->val_len != 0) {
        return SC_INPLACE_NO;
    }
    sc_shard_write_begin(shard);
    /* Lockless stores and deletes are drained: old's ttl holds still. */
    if (add_only && !sc_evict_is_expired(old, now)) {
        sc_shard_write_end(shard);
        return SC_INPLACE_EXISTS;
    }
    gone = old->ttl == SC_TTL_GONE;
    stamp = sc_entry_stamp_after(old->stamp);
    /* Odd while the fields change: a process killed here leaves the entry
     * odd, and it is settled (its key dropped: sc_pin_settle) instead of
     * kept half rewritten by a repair. No lockless writer is active: the
     * window drained the pins. */
    __atomic_store_n(&old->ver, (uint16_t)(old->ver | 1), __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    /* The fields sc_entry_fill sets; hash, key, val_len (0), mem_size
     * (same allocation) and the lane bits stay as they are. */
    old->vtype = vtype;
    old->flags &= (uint8_t)(SC_ENTRY_LANE_MASK | SC_ENTRY_HOMED);
    old->ttl = ttl;
    __atomic_store_n(&old->scalar, scalar, __ATOMIC_RELAXED);
    old->ctime = now;
    __atomic_store_n(&old->mtime_after, 0, __ATOMIC_RELAXED);
    old->atime_after = 0;
    old->nhits = 0;
    old->stamp = stamp;
    /* Next even version (from an odd one too: a lockless writer that died
     * mid-write and was not seen by a drain, e.g. across a restart of a
     * named segment; every field it wrote is written again here). */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    __atomic_store_n(&old->ver, (uint16_t)(old->ver + 1), __ATOMIC_RELAXED);
    sc_shard_write_end(shard);
    if (gone) {
        sc_alloc_gone_add(&shard->alloc, sc_pin_lane(shard), -1);
        return SC_INPLACE_INSERTED;
    }
    return SC_INPLACE_UPDATED;
}
