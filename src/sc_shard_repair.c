/*
 * sc_shard_repair.c - the repair of a shard whose writer died: every entry
 * that can be proved whole is kept, the rest of the shard is rebuilt around
 * them.
 *
 * Owns: nothing of its own; it rewrites a shard's table (sc_table.c's
 * layout), its allocator state (through sc_alloc_rebuild_shard) and its
 * retire list figures (through sc_epoch_shard_forget).
 * Locks: the shard's REPAIR lock with the window open (sc_shard.c calls it
 * with every pin drained), and the pool lock inside, as the lock order
 * allows.
 * Death: the repair starts from the table and the runs the shard owns,
 * which it changes only in ways it accepts again: a slot it cannot prove
 * becomes a tombstone; a duplicate slot one too; the rehash is safe to cut
 * (sc_table_rehash); the allocator state is rebuilt from scratch. A
 * repairer killed anywhere leaves the shard "owner died" with the window
 * odd, and the next locker repairs again, keeping the same entries.
 *
 * What a dead writer of the shard costs, by where it died:
 *   - before it changed a slot, or between two operations: nothing; an
 *     entry it had made and not linked, or unlinked and not freed, is in
 *     no slot and goes back to its slab;
 *   - inside sc_table_set / sc_table_clear_slot: the one key it was
 *     storing or deleting has its old entry or its new one (a store), or
 *     is gone or not (a delete);
 *   - inside an in-place rewrite (sc_inplace.c) or a lockless one: that
 *     entry's version stays odd and its key is dropped when it is settled
 *     (sc_pin_settle), as before;
 *   - inside a resize or a rehash: nothing (sc_resize.c);
 *   - inside the allocator: nothing but the object or run in flight;
 *   - inside a clear that had frozen the shard: the shard is emptied (the
 *     clear meant to), as are shards whose table itself cannot be proved
 *     (sc_shard.c) and shards with zero-copy values while a reader is
 *     inside an epoch (an unlinked value might still be in use).
 * Every other entry is kept when it passes: its offset is the start of an
 * object of a run this shard owns, its header, key and value (or chunk
 * list, every chunk a whole object of the shard) fit in that object,
 * its slot's tag is its hash's, and no other slot or chunk claims the
 * same object.
 */
#include <stdlib.h>
#include <string.h>
#include "sc_shard.h"
#include "sc_epoch.h"

/* One object in use: an entry, a chunk run, or the table (slot SC_NONE). */
typedef struct sc_shard_repair_obj {
    sc_off off;
    uint32_t slot;
} sc_shard_repair_obj;

typedef struct sc_shard_repair_ctx {
    sc_seg *seg;
    sc_alloc_run *runs;
    uint32_t nruns;
    sc_shard_repair_obj *objs;
    uint32_t nobjs, cap;
    uint64_t requested;     /* what the kept entries asked for */
    int64_t gone;           /* kept entries of keys deleted without the lock */
    uint64_t zc_bytes;      /* kept zero-copy entries' mem_size */
} sc_shard_repair_ctx;

static bool sc_shard_repair_add(sc_shard_repair_ctx *x, sc_off off, uint32_t slot)
{
    if (x->nobjs == x->cap) {
        uint32_t cap = x->cap ? x->cap * 2 : 256;
        sc_shard_repair_obj *bigger = realloc(x->objs, (size_t)cap * sizeof(*bigger));
        if (!bigger) {
            return false;
        }
        x->objs = bigger;
        x->cap = cap;
    }
    x->objs[x->nobjs].off = off;
    x->objs[x->nobjs].slot = slot;
    x->nobjs++;
    return true;
}

/* Whether the chunk list of chained entry e (in an object of size bytes)
 * is whole: every chunk within an object of the shard, the lengths adding
 * up to the value's. Adds the chunks to x. */
static bool sc_shard_repair_chunks(sc_shard_repair_ctx *x, const sc_entry *e, uint64_t size, uint32_t slot)
{
    uint64_t at = SC_ALIGN_UP(sizeof(sc_entry) + (uint64_t)e->key_len, 4), total = 0, csize;
    uint32_t count, i;
    const sc_chunk *chunks;

    if (at + 4 > size) {
        return false;
    }
    memcpy(&count, (const char *)e + at, sizeof(count));
    at = SC_ALIGN_UP(at + 4, 8);
    if (count > SC_MAX_CHUNKS || at + (uint64_t)count * sizeof(sc_chunk) > size) {
        return false;
    }
    chunks = (const sc_chunk *)((const char *)e + at);
    for (i = 0; i < count; i++) {
        if (!sc_alloc_object_at(&x->seg->ac, x->runs, x->nruns, chunks[i].off, &csize) || chunks[i].len > csize || !sc_shard_repair_add(x, chunks[i].off, slot)) {
            return false;
        }
        total += chunks[i].len;
    }
    return total == e->val_len;
}

/* Whether the entry slot names can be kept (see the head of this file);
 * adds its objects to x when it can. */
static bool sc_shard_repair_entry(sc_shard_repair_ctx *x, uint8_t tag, uint32_t rel, uint32_t slot)
{
    sc_off off = (sc_off)rel << SC_SLOT_SHIFT;
    const sc_entry *e = (const sc_entry *)(x->seg->base + off);
    uint32_t mark = x->nobjs;
    uint64_t size;

    if (!sc_alloc_object_at(&x->seg->ac, x->runs, x->nruns, off, &size) || size < sizeof(sc_entry)
        || tag != sc_table_tag_of(e->hash) || sizeof(sc_entry) + (uint64_t)e->key_len > size) {
        return false;
    }
    if (e->flags & SC_ENTRY_CHAINED) {
        if (!sc_shard_repair_chunks(x, e, size, slot)) {
            x->nobjs = mark;
            return false;
        }
    } else if (sizeof(sc_entry) + (uint64_t)e->key_len + e->val_len > size) {
        return false;
    }
    if (!sc_shard_repair_add(x, off, slot)) {
        x->nobjs = mark;
        return false;
    }
    x->requested += sizeof(sc_entry) + (uint64_t)e->key_len + e->val_len;
    x->gone += e->ttl == SC_TTL_GONE;
    if (e->flags & SC_ENTRY_ZC) {
        x->zc_bytes += e->mem_size;
    }
    return true;
}

static int sc_shard_repair_cmp(const void *a, const void *b)
{
    sc_off x = ((const sc_shard_repair_obj *)a)->off, y = ((const sc_shard_repair_obj *)b)->off;

    return x < y ? -1 : x > y;
}

/* One look at every full slot: a slot whose entry fails is made a
 * tombstone. Then the objects are sorted, and of two slots claiming one
 * object the later becomes a tombstone. Returns -1 on malloc failure, else
 * the tombstones made by the second step (the caller looks again then). */
static int sc_shard_repair_scan(sc_shard_repair_ctx *x, sc_table *table)
{
    uint8_t *tags = (uint8_t *)(x->seg->base + table->off);
    uint32_t *slots = (uint32_t *)(x->seg->base + table->off + SC_ALIGN_UP((uint64_t)table->capacity, 8));
    uint32_t i;
    int dropped = 0;

    x->nobjs = 0;
    x->requested = 0;
    x->gone = 0;
    x->zc_bytes = 0;
    if (!sc_shard_repair_add(x, table->off, SC_NONE)) {
        return -1;
    }
    for (i = 0; i < table->capacity; i++) {
        if ((tags[i] & SC_TAG_FULL) && !sc_shard_repair_entry(x, tags[i], slots[i], i)) {
            tags[i] = SC_TAG_TOMB;
        }
    }
    qsort(x->objs, x->nobjs, sizeof(*x->objs), sc_shard_repair_cmp);
    for (i = 1; i < x->nobjs; i++) {
        if (x->objs[i].off == x->objs[i - 1].off) {
            uint32_t slot = x->objs[i].slot != SC_NONE ? x->objs[i].slot : x->objs[i - 1].slot;
            if (tags[slot] & SC_TAG_FULL) {
                tags[slot] = SC_TAG_TOMB;
                dropped++;
            }
        }
    }
    return dropped;
}

/* The shard's table, as the dead writer left it: the one it was publishing
 * if it died doing so. True when it is a whole object of the shard. */
static bool sc_shard_repair_table(sc_shard_repair_ctx *x, sc_shard *shard)
{
    sc_table *table = &sc_layout_head(shard)->table;
    uint64_t size;

    if (shard->pending_set) {
        table->off = shard->pending_off;
        table->capacity = shard->pending_cap;
        table->used = table->tombs = 0;    /* counted by the rehash */
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        shard->pending_set = 0;
    }
    if (!table->off) {
        return !table->capacity;
    }
    return sc_is_pow2(table->capacity) && sc_alloc_object_at(&x->seg->ac, x->runs, x->nruns, table->off, &size)
           && sc_table_bytes(table->capacity) <= size;
}

/* The work of sc_shard_repair_keep with the pool lock held. */
static bool sc_shard_repair_locked(sc_shard_repair_ctx *x, sc_shard *shard)
{
    sc_table *table = &sc_layout_head(shard)->table;
    sc_off *live;
    uint32_t i, rounds;
    int dropped = 0;

    if (!sc_alloc_owned_runs(&x->seg->ac, (uint16_t)shard->index, &x->runs, &x->nruns)) {
        return false;
    }
    if (!sc_shard_repair_table(x, shard)) {
        return false;
    }
    if (table->off) {
        for (rounds = 0; rounds < 4 && (dropped = sc_shard_repair_scan(x, table)) > 0; rounds++) {
        }
        if (dropped != 0) {
            return false;
        }
        (void)sc_table_rehash(x->seg, table);
    } else {
        x->nobjs = 0;
    }
    table->clock_hand = 0;
    /* The objects in use, sorted and unique (the scan dropped duplicates;
     * the table's own object is among them). */
    live = malloc(((size_t)x->nobjs + 1) * sizeof(*live));
    if (!live) {
        return false;
    }
    for (i = 0; i < x->nobjs; i++) {
        live[i] = x->objs[i].off;
    }
    sc_alloc_rebuild_shard(&x->seg->ac, &shard->alloc, x->runs, x->nruns, live, x->nobjs, x->requested, x->gone);
    free(live);
    return true;
}

bool sc_shard_repair_keep(sc_seg *seg, sc_shard *shard)
{
    sc_shard_repair_ctx x;
    bool ok;

    SC_ASSERT(sc_layout_in_window(shard));

    memset(&x, 0, sizeof(x));
    x.seg = seg;
    if (!sc_alloc_pool_lock(&seg->ac)) {
        return false;   /* the pool waits for a full reset */
    }
    ok = sc_shard_repair_locked(&x, shard);
    sc_alloc_pool_unlock(&seg->ac);
    free(x.runs);
    free(x.objs);
    if (ok) {
        /* Retired entries are in no table: they went back with the rest
         * (no reader is inside an epoch: sc_shard.c). */
        sc_epoch_shard_forget(seg, shard, x.zc_bytes);
        /* Hook: per-owner byte counts of this shard are recounted here
         * (sc_fair_recount_shard(seg, shard)), once the entries kept are
         * known. */
    }
    return ok;
}
