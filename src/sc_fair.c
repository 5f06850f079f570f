/*
 * sc_fair.c - each owner's fair share of memory when stores evict: the
 * bytes each shard counts per owner, and which entries a store may remove
 * (see include/sc_fair.h for the rule).
 *
 * Owns: the owners' slots (sc_header.fair), each shard's bytes per slot
 * (sc_shard.fair), and the choice, entry by entry, of whether an eviction
 * may take it.
 *
 * Locks: a slot is claimed with a compare-and-swap from 0, never written
 * again. A shard's bytes are written under its REPAIR lock (sc_fair_count,
 * sc_fair_zero_shard, sc_fair_recount_shard) with relaxed atomic stores,
 * and summed by sc_fair_victim's pass with relaxed loads and no lock: a sum
 * is a moment old, off by at most the entries being stored or removed in
 * other shards meanwhile.
 *
 * Death: see sc_fair.h: counts change only under the shard's REPAIR lock,
 * so a death between a table change and its count leaves the shard to its
 * repair, which recounts it.
 */
#include <string.h>
#include "sc_fair.h"

#define SC_FAIR_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define SC_FAIR_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

/* The calling thread's writer (owner 0 until the glue says: the owner of
 * keys with no salt) and last slot (sc_fair.h). */
_Thread_local sc_fair_local sc_fair_here __attribute__((tls_model("initial-exec"))) = {SC_FAIR_TAG, 0};

uint32_t sc_fair_slot_find(sc_seg *seg, uint32_t owner)
{
    uint64_t *tag = seg->hdr->fair.tag, want = SC_FAIR_TAG | owner;
    uint32_t s;

    /* Slots are claimed in order: the owner is in the first ones, or the
     * first free one becomes its own. */
    for (s = SC_FAIR_NONE + 1; s < SC_FAIR_OVERFLOW; s++) {
        uint64_t t = SC_FAIR_LOAD(&tag[s]);
        if (!t && __atomic_compare_exchange_n(&tag[s], &t, want, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            t = want;
        }
        if (t == want) {
            sc_fair_here.last = s;
            return s;
        }
    }
    return SC_FAIR_OVERFLOW;
}

uint32_t sc_fair_entry_slot(sc_seg *seg, const sc_entry *e)
{
    uint32_t o;

    if (!seg->owner_of || !seg->owner_of(e->hash, (const char *)(e + 1), e->key_len, &o)) {
        return SC_FAIR_NONE;
    }
    return sc_fair_slot(seg, o);
}

void sc_fair_zero_shard(sc_shard *shard)
{
    uint32_t i;

    for (i = 0; i < SC_FAIR_SLOTS; i++) {
        SC_FAIR_STORE(&shard->fair.bytes[i], 0);
    }
}

void sc_fair_recount_shard(sc_seg *seg, sc_shard *shard)
{
    const sc_table *table = &sc_layout_head(shard)->table;
    uint64_t bytes[SC_FAIR_SLOTS] = {0};
    uint32_t slot, i;

    SC_ASSERT(sc_layout_shard_held(shard));

    for (slot = 0; table->off && slot < table->capacity; slot++) {
        const sc_entry *e = sc_table_slot_entry(seg, table, slot);
        if (e) {
            bytes[sc_fair_entry_slot(seg, e)] += e->mem_size;
        }
    }
    for (i = 0; i < SC_FAIR_SLOTS; i++) {
        SC_FAIR_STORE(&shard->fair.bytes[i], bytes[i]);
    }
}

/* The share and whether an owner other than the caller is above it, from
 * bytes[] and total: the segment's pages (or all entries' bytes, if more)
 * divided by the owners that hold bytes, the caller counted. Measured
 * against the whole segment, not against what is stored now, an owner's
 * share does not shrink when another owner's entries go: an owner within
 * it stays within it however the others' bytes rise and fall. */
static void sc_fair_judge(sc_fair_pass *fp)
{
    uint64_t room = (uint64_t)fp->seg->npages << SC_PAGE_SHIFT;
    uint32_t i, owners = 0;

    for (i = SC_FAIR_NONE + 1; i < SC_FAIR_SLOTS; i++) {
        owners += fp->bytes[i] != 0 || i == fp->caller;
    }
    fp->share = (fp->total > room ? fp->total : room) / (owners ? owners : 1);
    fp->others_over = false;
    for (i = SC_FAIR_NONE + 1; i < SC_FAIR_SLOTS; i++) {
        if (i != fp->caller && fp->bytes[i] > fp->share) {
            fp->others_over = true;
        }
    }
}

/* Every shard's bytes per slot, summed (no lock: a moment old). */
static void sc_fair_sum(sc_fair_pass *fp)
{
    sc_seg *seg = fp->seg;
    const uint64_t *tag = seg->hdr->fair.tag;
    uint32_t n = SC_FAIR_NONE + 1, k, i;

    while (n < SC_FAIR_OVERFLOW && SC_FAIR_LOAD(&tag[n])) {
        n++;
    }
    memset(fp->bytes, 0, sizeof(fp->bytes));
    for (k = 0; k < seg->nshards; k++) {
        const uint64_t *b = seg->shards[k].fair.bytes;
        for (i = 0; i < n; i++) {
            fp->bytes[i] += SC_FAIR_LOAD(&b[i]);
        }
        fp->bytes[SC_FAIR_OVERFLOW] += SC_FAIR_LOAD(&b[SC_FAIR_OVERFLOW]);
    }
    fp->total = 0;
    for (i = 0; i < SC_FAIR_SLOTS; i++) {
        /* A sum read while another shard's count changed may be off by
         * that change; a wrapped (negative) one counts as nothing. */
        if (fp->bytes[i] > (UINT64_MAX >> 1)) {
            fp->bytes[i] = 0;
        }
        fp->total += fp->bytes[i];
    }
    fp->nslots = n;
    fp->summed = true;
    sc_fair_judge(fp);
}

int sc_fair_victim(sc_fair_pass *fp, const sc_entry *e)
{
    uint32_t o;

    if (!fp || fp->caller == SC_FAIR_NONE) {
        return SC_FAIR_UNTRACKED;
    }
    o = sc_fair_entry_slot(fp->seg, e);
    if (o == SC_FAIR_NONE) {
        return SC_FAIR_UNTRACKED;
    }
    if (!fp->summed) {
        sc_fair_sum(fp);
    }
    if (fp->bytes[o] > fp->share) {
        return (int)o;
    }
    /* The caller's own, within its share: taken only while no other owner
     * is above its share (those go first). */
    return o == fp->caller && !fp->others_over ? (int)o : SC_FAIR_KEEP;
}

void sc_fair_taken(sc_fair_pass *fp, int slot, uint32_t mem_size)
{
    uint64_t *b;

    if (!fp || slot < 0 || !fp->summed) {
        return;
    }
    b = &fp->bytes[(uint32_t)slot & (SC_FAIR_SLOTS - 1)];
    *b = *b > mem_size ? *b - mem_size : 0;
    fp->total = fp->total > mem_size ? fp->total - mem_size : 0;
    sc_fair_judge(fp);
}
