/*
 * sc_shard_repair.c - the repair of a shard whose writer died: every entry
 * that can be proved whole is kept, the rest of the shard is rebuilt around
 * them.
 *
 * Owns: nothing of its own; it rewrites a shard's table (sc_table.c's
 * layout), its allocator state (through sc_alloc_rebuild_shard) and its
 * retire list (through sc_epoch_shard_retire_kept).
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
 *     (sc_shard.c).
 * Every other entry is kept when it passes: its offset is the start of an
 * object of a run this shard owns, its header, key and value (or chunk
 * list, every chunk a whole object of the shard) fit in that object,
 * its slot's tag is its hash's, and no other slot or chunk claims the
 * same object.
 *
 * Readers inside an epoch. A reader holds nothing of a shard but whole
 * zero-copy entries (one piece, never chained) that it found in the
 * table; the repair's window keeps any reader from trusting what it reads
 * meanwhile. With no reader inside at the start of the repair, every
 * object no kept entry uses goes back, the retire list's too. With one,
 * an object the kept entries do not use may still be in its hands only if
 * it is a zero-copy entry: one on the retire list, the one the dead writer
 * unlinked and had not retired yet (a writer retires each entry it
 * unlinks before it unlinks another, under the same lock), or one the
 * scan dropped. Each of those is whole (nothing writes a zero-copy
 * entry's flags, lengths or mem_size after it is made), so the repair
 * keeps in use every object of the shard that holds a whole zero-copy
 * entry (sc_shard_repair_zc_whole; free objects that once held one too)
 * and makes them the shard's retire list, stamped after the table was
 * repaired (sc_epoch_shard_retire_kept): sc_epoch_reclaim frees them once
 * every reader then inside has left. Everything else goes back. The retire
 * list as the dead writer left it (maybe cut in the middle of a link) is
 * never followed.
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
    bool readers;           /* a reader was inside an epoch at the start */
    sc_off *ret;            /* readers: the objects to retire, ascending */
    uint32_t nret, ret_cap;
    uint64_t ret_requested; /* what they asked for */
} sc_shard_repair_ctx;

/* arr (n used of *cap elements, elem bytes each), grown when full to
 * twice *cap (first when empty): the array with room for one more, or NULL
 * when out of memory (arr and *cap are then unchanged). */
static void *sc_shard_repair_room(void *arr, uint32_t n, uint32_t *cap, size_t elem, uint32_t first)
{
    uint32_t bigger_cap;
    void *bigger;

    if (n < *cap) {
        return arr;
    }
    bigger_cap = *cap ? *cap * 2 : first;
    bigger = realloc(arr, (size_t)bigger_cap * elem);
    if (bigger) {
        *cap = bigger_cap;
    }
    return bigger;
}

static bool sc_shard_repair_add(sc_shard_repair_ctx *x, sc_off off, uint32_t slot)
{
    sc_shard_repair_obj *objs = sc_shard_repair_room(x->objs, x->nobjs, &x->cap, sizeof(*objs), 256);

    if (!objs) {
        return false;
    }
    x->objs = objs;
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

/* Whether the object e (size bytes), which no kept entry uses, holds a
 * zero-copy entry whole enough to be retired: flagged zero-copy (never
 * chained), its header, key and value inside the object, and its mem_size
 * (what sc_epoch_reclaim counts out) no more than the object. Every
 * zero-copy entry a writer made passes: it is one piece, and nothing
 * changes its flags, lengths or mem_size once it is made (a retirement
 * writes ttl, scalar and stamp only). A free object that once held one
 * passes too (a free list link writes its first 4 bytes: hash), as may
 * stale bytes: those are retired as well, never handed out early. */
static bool sc_shard_repair_zc_whole(const sc_entry *e, uint64_t size)
{
    return size >= sizeof(sc_entry) && (e->flags & (SC_ENTRY_ZC | SC_ENTRY_CHAINED)) == SC_ENTRY_ZC
           && sizeof(sc_entry) + (uint64_t)e->key_len + e->val_len <= size && e->mem_size <= size;
}

/* A reader is inside an epoch: every object of the shard's runs that no
 * kept entry uses and that holds a zero-copy entry (sc_shard_repair_zc_whole)
 * goes to x->ret, in offset order (x->objs is sorted). These are the
 * entries of the retire list, the one the dead writer unlinked and had
 * not retired yet, and any the scan dropped: all that a reader may hold,
 * since a reader holds nothing but whole zero-copy entries it found in the
 * table. False on malloc failure. */
static bool sc_shard_repair_find_zc(sc_shard_repair_ctx *x)
{
    const sc_alloc_ctx *ac = &x->seg->ac;
    uint32_t i, k = 0;

    for (i = 0; i < x->nruns; i++) {
        const sc_alloc_run *r = &x->runs[i];
        sc_off start = ac->data_off + ((uint64_t)r->head << SC_PAGE_SHIFT);
        uint64_t len = (uint64_t)r->pages << SC_PAGE_SHIFT, j;
        uint64_t bytes = r->kind == SC_PAGE_LARGE ? len : sc_alloc_class_bytes(r->cls);
        for (j = 0; j + bytes <= len; j += bytes) {
            const sc_entry *e = (const sc_entry *)(x->seg->base + start + j);
            while (k < x->nobjs && x->objs[k].off < start + j) {
                k++;
            }
            if ((k < x->nobjs && x->objs[k].off == start + j) || !sc_shard_repair_zc_whole(e, bytes)) {
                continue;
            }
            sc_off *ret = sc_shard_repair_room(x->ret, x->nret, &x->ret_cap, sizeof(*ret), 64);
            if (!ret) {
                return false;
            }
            x->ret = ret;
            x->ret[x->nret++] = start + j;
            x->ret_requested += sizeof(sc_entry) + (uint64_t)e->key_len + e->val_len;
        }
    }
    return true;
}

/* The objects in use, sorted and unique: the kept entries' (the scan
 * dropped duplicates; the table's own object is among them) merged with
 * those to retire (none of them a kept one's). NULL on malloc failure. */
static sc_off *sc_shard_repair_live(const sc_shard_repair_ctx *x)
{
    sc_off *live = malloc(((size_t)x->nobjs + x->nret + 1) * sizeof(*live));
    uint32_t i = 0, j = 0, n = 0;

    if (!live) {
        return NULL;
    }
    while (i < x->nobjs || j < x->nret) {
        if (j == x->nret || (i < x->nobjs && x->objs[i].off < x->ret[j])) {
            live[n++] = x->objs[i++].off;
        } else {
            live[n++] = x->ret[j++];
        }
    }
    return live;
}

/* The work of sc_shard_repair_keep with the pool lock held. */
static bool sc_shard_repair_locked(sc_shard_repair_ctx *x, sc_shard *shard)
{
    sc_table *table = &sc_layout_head(shard)->table;
    sc_off *live;
    uint32_t rounds;
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
    if (x->readers && !sc_shard_repair_find_zc(x)) {
        return false;
    }
    live = sc_shard_repair_live(x);
    if (!live) {
        return false;
    }
    sc_alloc_rebuild_shard(&x->seg->ac, &shard->alloc, x->runs, x->nruns, live, x->nobjs + x->nret,
                           x->requested + x->ret_requested, x->gone);
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
    /* The window is odd since before this look: a reader that enters
     * after it trusts nothing until the window ends, and then finds only
     * kept entries. */
    x.readers = sc_epoch_any_reader(seg);
    if (!sc_alloc_pool_lock(&seg->ac)) {
        return false;   /* the pool waits for a full reset */
    }
    ok = sc_shard_repair_locked(&x, shard);
    sc_alloc_pool_unlock(&seg->ac);
    free(x.runs);
    free(x.objs);
    if (ok) {
        /* Without a reader, retired entries went back with the rest; with
         * one, x.ret (in use for the allocator) become the retire list. */
        sc_epoch_shard_retire_kept(seg, shard, x.zc_bytes, x.ret, x.nret);
        /* Hook: per-owner byte counts of this shard are recounted here
         * (sc_fair_recount_shard(seg, shard)), once the entries kept are
         * known. */
    }
    free(x.ret);
    return ok;
}
