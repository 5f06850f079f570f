/*
 * sc_resize.c - keeping room in a shard's table (sc_resize_reserve).
 *
 * Owns: when a shard's table is rebuilt (doubled, or rebuilt at the same
 * size to drop tombstones) or rehashed in place, and the publication of the
 * result in the shard's head (sc_shard_head.table). The table itself is
 * built by sc_table.c, which never sees a shard.
 * Locks: the caller holds the shard's REPAIR lock. A rebuilt table is made
 * in fresh memory outside the odd sequence window and published inside it
 * (sc_shard_write_begin/end, which also wait for pin holders); the old
 * table is freed after the window closed. An in-place rehash rewrites the
 * table inside one window.
 * Death: the shard is dirty (a writer held its REPAIR lock), so the
 * next locker empties and rebuilds it (sc_shard.c): a half-built new table
 * or a half-refilled old one is never used after that.
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
    sc_shard_write_begin(shard);
    *table = fresh;
    sc_shard_write_end(shard);

    if (old_off) {
        sc_alloc_free(&seg->ac, &shard->alloc, old_off, lane);
    }
    shard->stats.resizes++;
    return true;
}

/* Drops the tombstones without new shared memory: the full slots are
 * copied to process memory and put back into the emptied table, inside one
 * odd sequence window. */
static bool sc_resize_rehash_in_place(sc_seg *seg, sc_shard *shard)
{
    sc_table *table = &sc_layout_head(shard)->table;
    sc_table_saved saved;

    if (!sc_table_save(seg, table, &saved)) {
        return false;
    }
    sc_shard_write_begin(shard);
    sc_table_refill(seg, table, &saved);
    sc_shard_write_end(shard);
    sc_table_saved_free(&saved);
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
