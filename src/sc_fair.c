/*
 * sc_fair.c - each owner's fair share of memory when stores evict: which
 * entries a store may remove (see include/sc_fair.h for the rule).
 *
 * Owns: the segment's estimate of bytes per owner (sc_header.fair) and the
 * choice, entry by entry, of whether an eviction may take it.
 *
 * Locks: sc_fair_survey runs under the segment's global lock (so one
 * survey at a time in all processes) and holds one shard's lock at a time,
 * NO_REPAIR: it reads the table and entries and writes nothing shared.
 * sc_fair_victim and sc_fair_taken run under the evicting shard's REPAIR
 * lock; the estimate they read and lower is touched with relaxed atomics
 * only (evictions in two shards run at once).
 *
 * Death: a survey killed under a shard lock leaves the shard as it was
 * (NO_REPAIR: nothing to repair); killed while writing the estimate, it
 * leaves one mixed of two surveys (when is written last), which only
 * chooses victims less well until the next survey.
 */
#include "sc_fair.h"
#include "sc_shard.h"
#include <time.h>

#define SC_FAIR_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define SC_FAIR_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

/* The owner of e as the glue reads it from its hash and key. */
static inline bool sc_fair_owner(sc_fair_owner_fn owner_of, const sc_entry *e, uint32_t *o)
{
    return owner_of(e->hash, (const char *)(e + 1), e->key_len, o);
}

/* Index of owner among the first n of owner[], or -1. */
static int sc_fair_find(const uint32_t *owner, uint32_t n, uint32_t o)
{
    uint32_t i;

    for (i = 0; i < n; i++) {
        if (SC_FAIR_LOAD(&owner[i]) == o) {
            return (int)i;
        }
    }
    return -1;
}

/* CLOCK_MONOTONIC seconds, from 1 (0 means no survey). */
static int64_t sc_fair_clock(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (int64_t)ts.tv_sec + 1;
}

bool sc_fair_fresh(const sc_seg *seg)
{
    int64_t when = SC_FAIR_LOAD(&seg->hdr->fair.when), now = sc_fair_clock();

    return when && now >= when && now - when <= SC_FAIR_FRESH;
}

void sc_fair_survey(sc_seg *seg, sc_fair_owner_fn owner_of)
{
    sc_fair *fair = &seg->hdr->fair;
    uint32_t owner[SC_FAIR_OWNERS], n = 0, visited, first = SC_FAIR_LOAD(&fair->cursor), i;
    bool overflow = false;
    uint64_t bytes[SC_FAIR_OWNERS], sampled = 0, seen = 0;

    SC_ASSERT(sc_layout_global_held(seg));
    SC_ASSERT(owner_of != NULL);

    for (visited = 0; visited < seg->nshards && visited < SC_FAIR_SAMPLE_SHARDS && seen < SC_FAIR_SAMPLE_ENTRIES;
         visited++) {
        sc_shard *shard = &seg->shards[(first + visited) & (seg->nshards - 1)];
        const sc_table *table = &sc_layout_head(shard)->table;
        uint32_t slot;

        sc_shard_lock_global(seg, shard, SC_LOCK_NO_REPAIR);
        for (slot = 0; table->off && slot < table->capacity; slot++) {
            const sc_entry *e = sc_table_slot_entry(seg, table, slot);
            uint32_t o;
            int k;
            if (!e || e->ttl == SC_TTL_GONE) {
                continue;
            }
            seen++;
            sampled += e->mem_size;
            if (!sc_fair_owner(owner_of, e, &o)) {
                continue;
            }
            k = sc_fair_find(owner, n, o);
            if (k < 0 && n < SC_FAIR_OWNERS) {
                k = (int)n++;
                owner[k] = o;
                bytes[k] = 0;
            }
            if (k >= 0) {
                bytes[k] += e->mem_size;
            } else {
                overflow = true;
            }
        }
        sc_shard_unlock(shard);
    }
    SC_FAIR_STORE(&fair->cursor, first + visited);
    /* Scaled from the shards visited to all of them. */
    for (i = 0; i < n; i++) {
        SC_FAIR_STORE(&fair->owner[i], owner[i]);
        SC_FAIR_STORE(&fair->bytes[i], visited ? bytes[i] / visited * seg->nshards : 0);
    }
    SC_FAIR_STORE(&fair->n, n);
    SC_FAIR_STORE(&fair->overflow, (uint32_t)overflow);
    SC_FAIR_STORE(&fair->total, visited ? sampled / visited * seg->nshards : 0);
    SC_FAIR_STORE(&fair->when, sc_fair_clock());
}

void sc_fair_forget(sc_seg *seg)
{
    SC_FAIR_STORE(&seg->hdr->fair.when, 0);
}

void sc_fair_refresh(sc_seg *seg, sc_fair_owner_fn owner_of)
{
    SC_ASSERT(sc_layout_holds_none(seg));

    sc_mutex_lock(&seg->hdr->global_lock);
    seg->hdr->global_lock_count++;
    if (!sc_fair_fresh(seg)) {      /* unless another store just took one */
        sc_fair_survey(seg, owner_of);
    }
    sc_mutex_unlock(&seg->hdr->global_lock);
}

/* The storing owner, read from the stored key once. */
static bool sc_fair_caller(sc_fair_pass *fp, uint32_t *caller)
{
    if (!fp->caller_known) {
        fp->caller_valid = fp->owner_of(fp->hash, fp->key, fp->key_len, &fp->caller);
        fp->caller_known = true;
    }
    *caller = fp->caller;
    return fp->caller_valid;
}

/* Whether an owner other than index `except` holds more than share. */
static bool sc_fair_any_over(sc_fair *fair, uint32_t n, uint64_t share, int except)
{
    uint32_t i;

    for (i = 0; i < n; i++) {
        if ((int)i != except && SC_FAIR_LOAD(&fair->bytes[i]) > share) {
            return true;
        }
    }
    return false;
}

int sc_fair_victim(sc_fair_pass *fp, const sc_entry *e)
{
    sc_fair *fair;
    uint32_t o, caller, n;
    uint64_t share;
    int k, kc;

    if (!fp) {
        return SC_FAIR_UNTRACKED;
    }
    if (!sc_fair_caller(fp, &caller) || !sc_fair_owner(fp->owner_of, e, &o)) {
        return SC_FAIR_UNTRACKED;
    }
    fair = fp->fair;
    n = SC_FAIR_LOAD(&fair->n);
    if (n > SC_FAIR_OWNERS) {
        n = SC_FAIR_OWNERS;
    }
    k = sc_fair_find(fair->owner, n, o);
    kc = o == caller ? k : sc_fair_find(fair->owner, n, caller);
    share = SC_FAIR_LOAD(&fair->total) / (n + (kc < 0));
    if (k < 0) {
        /* Not in the estimate: too few bytes to be seen (within its share),
         * unless more owners were seen than it can name. */
        if (SC_FAIR_LOAD(&fair->overflow)) {
            return SC_FAIR_UNTRACKED;
        }
        return o == caller && !sc_fair_any_over(fair, n, share, -1) ? SC_FAIR_UNTRACKED : SC_FAIR_KEEP;
    }
    if (SC_FAIR_LOAD(&fair->bytes[k]) > share) {
        return k;
    }
    /* The caller's own, within its share: taken only while no other owner
     * is above its share (those go first). */
    return o == caller && !sc_fair_any_over(fair, n, share, k) ? k : SC_FAIR_KEEP;
}

void sc_fair_taken(sc_fair_pass *fp, int idx, uint32_t mem_size)
{
    uint64_t *b;
    uint64_t have;

    if (!fp || idx < 0) {
        return;
    }
    b = &fp->fair->bytes[idx];
    have = SC_FAIR_LOAD(b);
    SC_FAIR_STORE(b, have > mem_size ? have - mem_size : 0);
}
