/*
 * sc_resize.c - keeping room in a shard's table (sc_resize_reserve).
 *
 * Owns: when a shard's table is rebuilt (doubled, or rebuilt at the same
 * size to drop tombstones) or rehashed in place, and the publication of the
 * result in the shard's head (sc_shard_head.table, with shard->pending_*). The table itself is
 * built by sc_table.c, which never sees a shard.
 * Locks: the caller holds the shard's REPAIR lock. A rebuilt table is made
 * in fresh memory outside the odd sequence window and published inside it
 * (sc_shard_write_begin/end, which also wait for pin holders); the old
 * table is freed after the window closed. An in-place rehash rewrites the
 * table inside one window.
 * Death: the shard is dirty (a writer held its REPAIR lock), so the next
 * locker repairs it (sc_shard_repair.c), keeping every entry it can prove
 * whole: killed while building a new table, the old one is kept and the
 * half-built one is freed (no entry refers to it); killed while publishing
 * it, the publication record (shard->pending_off, pending_cap) names the
 * new table, which
 * the repair publishes again; killed after that, the old table is freed;
 * killed inside an in-place rehash, the repair runs it again
 * (sc_table_rehash). No entry is lost in any of these.
 */
#include "sc_resize.h"
#include "sc_shard.h"
#include "sc_pin.h"
#include "sc_evict.h"

/* Builds a table of new_capacity holding every entry of the current one and
 * publishes it. */
static bool sc_resize_grow(sc_seg *seg, sc_shard *shard, uint32_t new_capacity)
{
    sc_table *table = &sc_layout_head(shard)->table;
    sc_table fresh;
    sc_off old_off = table->off;
    uint32_t lane = sc_pin_lane(shard);

    if (!sc_table_rebuild(seg, &shard->alloc, (uint16_t)shard->index, lane, table, new_capacity, &fresh)) {
        return false;
    }
    /* The new table is whole: named first in the shard's publication
     * record, so that a repair after a death in the middle of the copy
     * below uses it (sc_shard_repair.c), never a mix of old and new. */
    shard->pending_off = fresh.off;
    shard->pending_cap = fresh.capacity;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    shard->pending_set = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    sc_shard_write_begin(shard);
    *table = fresh;
    sc_shard_write_end(shard);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    shard->pending_set = 0;

    if (old_off) {
        sc_alloc_free(&seg->ac, &shard->alloc, old_off, lane);
    }
    shard->stats.resizes++;
    return true;
}

/* Drops the tombstones without new shared memory, inside one odd sequence
 * window (sc_table_rehash: safe to cut at any instruction). */
static bool sc_resize_rehash_in_place(sc_seg *seg, sc_shard *shard)
{
    sc_shard_write_begin(shard);
    (void)sc_table_rehash(seg, &sc_layout_head(shard)->table);
    sc_shard_write_end(shard);
    return true;
}

bool sc_resize_reserve(sc_seg *seg, sc_shard *shard)
{
    sc_table *table = &sc_layout_head(shard)->table;
    uint64_t capacity = table->capacity, load;

    SC_ASSERT(sc_layout_shard_repair_held(shard));

    if (!table->off) {
        return sc_resize_grow(seg, shard, seg->hdr->initial_capacity);
    }
    load = (uint64_t)table->used + table->tombs + 1;
    if (load * 4 <= capacity * 3) {
        return true;
    }
    /* Entries of keys deleted without the lock (sc_lockless.c) never make
     * a table grow: they go first, except those whose key came back since
     * the last such pass (SC_ENTRY_REVIVED): a key stored and deleted over
     * and over keeps its entry, else its next store would go through the
     * lock to make it again. */
    if (sc_evict_gone(seg, shard, true)) {
        load = (uint64_t)table->used + table->tombs + 1;
        if (load * 4 <= capacity * 3) {
            return true;
        }
    }
    /* Mostly tombstones: rehash at the same size; otherwise double. */
    if (((uint64_t)table->used + 1) * 2 <= capacity) {
        if (sc_resize_grow(seg, shard, (uint32_t)capacity) || sc_resize_rehash_in_place(seg, shard)) {
            return true;
        }
    } else if (capacity < (UINT64_C(1) << 30) && sc_resize_grow(seg, shard, (uint32_t)capacity * 2)) {
        return true;
    }
    /* No memory for a new table: drop tombstones in place, then tolerate a
     * fuller table. */
    if (table->tombs && sc_resize_rehash_in_place(seg, shard)) {
        load = (uint64_t)table->used + 1;
    }
    return load * 16 <= capacity * 15;
}
