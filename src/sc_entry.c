/*
 * sc_entry.c - the bytes of an entry.
 *
 * An entry is an sc_entry header, the key, and then either
 *   - the value bytes (inline), in one allocation, whenever the allocator
 *     can give one (always for values under half a page); or
 *   - (SC_ENTRY_CHAINED) a uint32 chunk count, padding to 8 and that many
 *     sc_chunk {offset, length} records, the value bytes being spread over
 *     that many page runs taken wherever the pool has them. A large value
 *     therefore never fails for want of one contiguous free run while
 *     enough pages are free.
 * Every allocation of an entry belongs to the shard the key hashes to and is
 * made and freed under that shard's REPAIR lock. An entry is immutable once
 * a table refers to it, except for in-place integer updates (sc_update.c),
 * scalar stores over a scalar (sc_inplace.c, inside the window) and the hit
 * figures (sc_cache.c), so an optimistic reader can copy it and trust the
 * copy once the sequence counter confirms it.
 *
 * Owns: the bytes of entries (header, key, value, chunk lists) and the
 * shard's requested_bytes figure.
 * Locks: sc_entry_create and sc_entry_free run under the shard's REPAIR
 * lock; sc_entry_copy_value runs with no lock (bounds-checked) or under
 * either lock mode.
 * Death: killed while making or freeing an entry (REPAIR lock held): the
 * next locker repairs the shard (sc_shard_repair.c); an entry no slot
 * refers to (half made, or unlinked and half freed) goes back to its slab
 * or the pool, chunks included; the shard's other entries are kept. A reader killed in sc_entry_copy_value wrote
 * nothing shared.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sc_entry.h"
#include "sc_pin.h"

static inline sc_chunk *sc_entry_chunk_table(sc_entry *e, uint32_t **count)
{
    char *p = SC_ENTRY_KEY(e) + e->key_len;
    *count = (uint32_t *)SC_ALIGN_UP((uintptr_t)p, 4);
    return (sc_chunk *)SC_ALIGN_UP((uintptr_t)(*count + 1), 8);
}

static uint64_t sc_entry_chained_head_size(uint32_t key_len, uint32_t nchunks)
{
    return sizeof(sc_entry) + key_len + 4 + 4 + 8 + (uint64_t)nchunks * sizeof(sc_chunk);
}

/* A store's place in the order of all stores: the coarse monotonic clock
 * (one clock for every process of the machine; read from the vDSO's data
 * page, without the TSC: about 4 ns where CLOCK_MONOTONIC's rdtscp took
 * 20 or more on every store), made strictly increasing within the thread
 * and above prev. Stores of different threads within one tick of that
 * clock (1/HZ: 1 to 10 ms) may be ordered either way, and stores in
 * different shards may get equal stamps; readers break such ties
 * themselves. A stamp runs ahead of the clock by at most 1 ns for each
 * store, of this thread or of the entry, that led to it within the tick
 * (unless prev comes from before a reboot, in a kept named segment: this
 * thread's stamps then carry on from it). Nothing shared is written to
 * get it. */
uint64_t sc_entry_stamp_after(uint64_t prev)
{
    /* initial-exec: read by every store (8 bytes of the static TLS
     * surplus, as sc_local in sc_cache.h). */
    static _Thread_local __attribute__((tls_model("initial-exec"))) uint64_t last;
    struct timespec ts;
    uint64_t now;

    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    now = (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
    if (now <= last) {
        now = last + 1;
    }
    if (now <= prev) {
        now = prev + 1;
    }
    last = now;
    return now;
}

uint64_t sc_entry_stamp(void)
{
    return sc_entry_stamp_after(0);
}

static void sc_entry_fill(sc_entry *e, uint64_t hash, const char *key, uint32_t key_len, uint8_t vtype,
                          int64_t scalar, uint32_t value_len, uint32_t ttl, int64_t now, uint64_t mem,
                          uint32_t lane)
{
    e->hash = hash;
    e->key_len = key_len;
    e->val_len = value_len;
    e->vtype = vtype;
    e->flags = (uint8_t)((lane % SC_ALLOC_LANES) << SC_ENTRY_LANE_SHIFT);
    e->ver = 0;
    e->ttl = ttl;
    e->scalar = scalar;
    e->ctime = now;
    e->mtime_after = 0;
    e->atime_after = 0;
    e->nhits = 0;
    e->mem_size = mem > UINT32_MAX ? UINT32_MAX : (uint32_t)mem;
    e->stamp = sc_entry_stamp();
    memcpy(SC_ENTRY_KEY(e), key, key_len);
}

/* Bytes an entry asked the allocator for (what its payload needs); the
 * difference to what it got is the allocator's internal waste. */
static uint64_t sc_entry_requested(const sc_entry *e)
{
    return sizeof(sc_entry) + (uint64_t)e->key_len + e->val_len;
}

sc_off sc_entry_create(sc_seg *seg, sc_shard *shard, uint64_t hash, const char *key, uint32_t key_len,
                       uint8_t vtype, int64_t scalar, const char *value, uint32_t value_len, uint32_t ttl,
                       int64_t now, uint32_t lane)
{
    uint64_t size = sizeof(sc_entry) + (uint64_t)key_len + value_len;
    uint16_t owner = (uint16_t)shard->index;
    uint32_t n, i, *count;
    uint64_t left = value_len, mem;
    sc_chunk *table;
    sc_entry *e;
    sc_off off;

    SC_ASSERT(sc_layout_shard_repair_held(shard));

    off = sc_alloc(&seg->ac, &shard->alloc, owner, size, lane);
    if (off) {
        e = (sc_entry *)(seg->base + off);
        sc_entry_fill(e, hash, key, key_len, vtype, scalar, value_len, ttl, now, sc_alloc_usable(size), lane);
        if (value_len) {
            memcpy(SC_ENTRY_VAL(e), value, value_len);
        }
        sc_alloc_requested_add(&shard->alloc, lane, (int64_t)sc_entry_requested(e));
        return off;
    }
    if (value_len < SC_PAGE_SIZE / 2) {
        return 0;
    }

    /* No single run is long enough: spread the value over several. The
     * head is made first, with room for one chunk per page at worst. */
    n = (uint32_t)((value_len + SC_PAGE_SIZE - 1) >> SC_PAGE_SHIFT);
    if (n > SC_MAX_CHUNKS) {
        n = SC_MAX_CHUNKS;
    }
    size = sc_entry_chained_head_size(key_len, n);
    off = sc_alloc(&seg->ac, &shard->alloc, owner, size, lane);
    if (!off) {
        return 0;
    }
    e = (sc_entry *)(seg->base + off);
    sc_entry_fill(e, hash, key, key_len, vtype, scalar, value_len, ttl, now, 0, lane);
    e->flags |= SC_ENTRY_CHAINED;
    table = sc_entry_chunk_table(e, &count);
    mem = sc_alloc_usable(size);
    n = 0;
    while (left > 0) {
        uint32_t want = (uint32_t)((left + SC_PAGE_SIZE - 1) >> SC_PAGE_SHIFT), got = 0;
        sc_off c;
        if (n == SC_MAX_CHUNKS) {
            goto fail;
        }
        c = sc_alloc_run_upto(&seg->ac, &shard->alloc, owner, want, &got, lane);
        if (!c) {
            goto fail;
        }
        table[n].off = c;
        table[n].len = (uint64_t)got << SC_PAGE_SHIFT;
        if (table[n].len > left) {
            table[n].len = left;
        }
        memcpy(seg->base + c, value + (value_len - left), table[n].len);
        left -= table[n].len;
        mem += (uint64_t)got << SC_PAGE_SHIFT;
        n++;
    }
    e->mem_size = mem > UINT32_MAX ? UINT32_MAX : (uint32_t)mem;
    *count = n;
    sc_alloc_requested_add(&shard->alloc, lane, (int64_t)sc_entry_requested(e));
    return off;

fail:
    for (i = 0; i < n; i++) {
        sc_alloc_free(&seg->ac, &shard->alloc, table[i].off, lane);
    }
    sc_alloc_free(&seg->ac, &shard->alloc, off, lane);
    return 0;
}

void sc_entry_free(sc_seg *seg, sc_shard *shard, sc_entry *e)
{
    /* Frees come from stores, deletes, eviction, retired zero-copy
     * entries: the lane is the calling thread's, looked up here. */
    uint32_t lane = sc_pin_lane(shard);

    SC_ASSERT(sc_layout_shard_repair_held(shard));

    sc_alloc_requested_add(&shard->alloc, lane, -(int64_t)sc_entry_requested(e));
    if (e->ttl == SC_TTL_GONE) {
        /* A key deleted without the lock whose entry was kept (the caller
         * unlinked it inside the window: no lockless writer changes it). */
        sc_alloc_gone_add(&shard->alloc, lane, -1);
    }
    if (e->flags & SC_ENTRY_CHAINED) {
        uint32_t *count, i;
        sc_chunk *table = sc_entry_chunk_table(e, &count);
        for (i = 0; i < *count; i++) {
            sc_alloc_free(&seg->ac, &shard->alloc, table[i].off, lane);
        }
    }
    sc_alloc_free(&seg->ac, &shard->alloc, sc_seg_off(seg, e), lane);
}

bool sc_entry_copy_value(const sc_seg *seg, const sc_entry *e, uint32_t key_len, char *dst, uint64_t len)
{
    sc_off base = sc_seg_off(seg, e);
    const uint32_t *count;
    const sc_chunk *table;
    uint32_t n, i;
    uint64_t done = 0;

    if (!(__atomic_load_n(&e->flags, __ATOMIC_RELAXED) & SC_ENTRY_CHAINED)) {
        const char *src = sc_seg_ptr(seg, base + sizeof(sc_entry) + key_len, len);
        if (!src) {
            return false;
        }
        memcpy(dst, src, len);
        return true;
    }
    table = sc_entry_chunk_table((sc_entry *)e, (uint32_t **)&count);
    if (!sc_seg_ptr(seg, sc_seg_off(seg, count), sizeof(uint32_t))) {
        return false;
    }
    n = *(const volatile uint32_t *)count;
    if (n > SC_MAX_CHUNKS || !sc_seg_ptr(seg, sc_seg_off(seg, table), (uint64_t)n * sizeof(sc_chunk))) {
        return false;
    }
    for (i = 0; i < n; i++) {
        sc_off off = table[i].off;
        uint64_t clen = table[i].len;
        const char *src;
        if (clen > len - done || !(src = sc_seg_ptr(seg, off, clen))) {
            return false;
        }
        memcpy(dst + done, src, clen);
        done += clen;
    }
    return done == len;
}
