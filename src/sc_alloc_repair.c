/*
 * sc_alloc_repair.c - the allocator's repairs after a death: the pool's
 * bins rebuilt from its intent record, a shard's allocator state rebuilt
 * from the objects still in use, and the sanity check of a pool found in a
 * segment file.
 *
 * Owns: nothing of its own; it rewrites what sc_alloc.c owns (the bins,
 * the free runs' descriptors, a shard's slabs, lists and figures).
 * Locks: the pool lock for the pool (sc_alloc_pool_repair runs while the
 * pool lock is taken, before the locker uses the pool); the owning
 * shard's REPAIR lock and the pool lock for sc_alloc_rebuild_shard.
 * Death: both repairs start from what they do not change: the run heads'
 * kind and length outside the intent's pages (pool), the shard's table and
 * the runs it owns (shard). A repairer killed inside leaves the intent
 * record, or the shard "owner died", as it found them, and the next locker
 * repairs again from the same start: each repair can be cut at any
 * instruction and run again.
 *
 * Design: docs/internals.md#sc_alloc
 */
#include <stdlib.h>
#include <string.h>
#include "sc_alloc.h"

static inline unsigned sc_alloc_repair_bin(uint32_t pages)
{
    return 31 - (unsigned)__builtin_clz(pages);
}

/* Whether the pool's free lists can be followed without leaving the page
 * array: every bin's list holds free runs of that bin's size, inside the
 * area, linked both ways, bin_mask says which bins hold any, and the runs
 * add up to free_pages. For a segment file whose users stopped without
 * closing it (sc_file.c): nobody else maps it. O(npages). */
bool sc_alloc_pool_sane(const sc_alloc_ctx *ac)
{
    const sc_pool *pool = ac->pool;
    uint64_t free_pages = 0, steps = 0;
    uint32_t bin, mask = 0;

    if (pool->total_pages != ac->npages || pool->free_pages > ac->npages) {
        return false;
    }
    for (bin = 0; bin < SC_NBINS; bin++) {
        uint32_t p = pool->bin_head[bin], prev = SC_NONE;
        if (p != SC_NONE) {
            mask |= UINT32_C(1) << bin;
        }
        while (p != SC_NONE) {
            const sc_page *h;
            if (p >= ac->npages || ++steps > ac->npages) {
                return false;
            }
            h = &ac->pages[p];
            if (h->kind != SC_PAGE_FREE || h->run == 0 || h->run > ac->npages - p
                || sc_alloc_repair_bin(h->run) != bin || h->prev != prev) {
                return false;
            }
            free_pages += h->run;
            prev = p;
            p = h->next;
        }
    }
    return mask == pool->bin_mask && free_pages == pool->free_pages;
}

bool sc_alloc_pool_repair(sc_alloc_ctx *ac)
{
    sc_pool *pool = ac->pool;
    uint32_t lo = pool->op_lo, hi = pool->op_hi, p = 0, free_start = SC_NONE, b;

    SC_ASSERT(sc_mutex_held_by_me(&pool->lock));

    if (lo >= hi || hi > ac->npages) {
        return false;
    }
    /* First check that the runs tile the area (nothing written yet). */
    while (p < ac->npages) {
        const sc_page *d = &ac->pages[p];
        if (p == lo) {
            p = hi;
            continue;
        }
        if (d->run == 0 || d->run > ac->npages - p || d->kind == SC_PAGE_INNER || (p < lo && p + d->run > lo)) {
            return false;
        }
        p += d->run;
    }
    for (b = 0; b < SC_NBINS; b++) {
        pool->bin_head[b] = SC_NONE;
    }
    pool->bin_mask = 0;
    pool->free_pages = 0;
    /* Then link every free run again; free neighbours merge (a repair cut
     * short may have left two). */
    for (p = 0; p <= ac->npages;) {
        bool is_free = p < ac->npages && (p == lo || ac->pages[p].kind == SC_PAGE_FREE);
        uint32_t run = p == lo ? hi - lo : (p < ac->npages ? ac->pages[p].run : 1);
        if (!is_free && free_start != SC_NONE) {
            sc_alloc_pool_link(ac, free_start, p - free_start);
            free_start = SC_NONE;
        } else if (is_free && free_start == SC_NONE) {
            free_start = p;
        }
        p += run;
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    pool->op = SC_POOL_OP_NONE;
    return true;
}

bool sc_alloc_owned_runs(const sc_alloc_ctx *ac, uint16_t owner, sc_alloc_run **runs, uint32_t *n)
{
    uint32_t p = 0, cap = 16, k = 0;
    sc_alloc_run *out = malloc(cap * sizeof(*out));

    if (!out) {
        return false;
    }
    while (p < ac->npages) {
        const sc_page *d = &ac->pages[p];
        uint32_t run = d->run;
        if (run == 0 || run > ac->npages - p || d->kind == SC_PAGE_INNER) {
            free(out);
            return false;
        }
        if ((d->kind == SC_PAGE_SLAB || d->kind == SC_PAGE_LARGE) && d->owner == owner
            && (d->kind == SC_PAGE_LARGE
                || (d->cls < SC_NCLASSES && run <= 16 && ((uint64_t)run << SC_PAGE_SHIFT) >= sc_alloc_class_bytes(d->cls)))) {
            if (k == cap) {
                sc_alloc_run *bigger = realloc(out, (size_t)cap * 2 * sizeof(*out));
                if (!bigger) {
                    free(out);
                    return false;
                }
                out = bigger;
                cap *= 2;
            }
            out[k].head = p;
            out[k].pages = run;
            out[k].kind = d->kind;
            out[k].cls = d->cls;
            k++;
        }
        p += run;
    }
    *runs = out;
    *n = k;
    return true;
}

/* The index of the run holding page, or n. */
static uint32_t sc_alloc_run_index(const sc_alloc_run *runs, uint32_t n, uint32_t page)
{
    uint32_t lo = 0, hi = n;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (runs[mid].head + runs[mid].pages <= page) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < n && runs[lo].head <= page ? lo : n;
}

bool sc_alloc_object_at(const sc_alloc_ctx *ac, const sc_alloc_run *runs, uint32_t n, sc_off off, uint64_t *size)
{
    uint64_t rel, start;
    uint32_t i, bytes;
    const sc_alloc_run *r;

    if (off < ac->data_off || ((off - ac->data_off) >> SC_PAGE_SHIFT) >= ac->npages) {
        return false;
    }
    rel = off - ac->data_off;
    i = sc_alloc_run_index(runs, n, (uint32_t)(rel >> SC_PAGE_SHIFT));
    if (i == n) {
        return false;
    }
    r = &runs[i];
    start = (uint64_t)r->head << SC_PAGE_SHIFT;
    if (r->kind == SC_PAGE_LARGE) {
        *size = (uint64_t)r->pages << SC_PAGE_SHIFT;
        return rel == start;
    }
    bytes = sc_alloc_class_bytes(r->cls);
    if ((rel - start) % bytes != 0 || rel - start + bytes > ((uint64_t)r->pages << SC_PAGE_SHIFT)) {
        return false;
    }
    *size = bytes;
    return true;
}

/* Slab r gets the objects of live[*k..] that lie in it as its objects in
 * use and every other one on its free list; returns how many are in use. */
static uint32_t sc_alloc_rebuild_slab(sc_alloc_ctx *ac, const sc_alloc_run *r, const sc_off *live, uint32_t nlive,
                                      uint32_t *k)
{
    sc_page *h = &ac->pages[r->head];
    char *slab = ac->data + ((uint64_t)r->head << SC_PAGE_SHIFT);
    sc_off start = ac->data_off + ((uint64_t)r->head << SC_PAGE_SHIFT);
    uint32_t bytes = sc_alloc_class_bytes(r->cls);
    uint32_t nobj = (r->pages << SC_PAGE_SHIFT) / bytes, used = 0, j, first = 0;
    uint64_t in_use[(16 * SC_PAGE_SIZE / 64 + 63) / 64] = {0};

    SC_ASSERT(nobj <= 16 * SC_PAGE_SIZE / 64);

    for (; *k < nlive && live[*k] < start + ((uint64_t)r->pages << SC_PAGE_SHIFT); (*k)++) {
        j = (uint32_t)((live[*k] - start) / bytes);
        in_use[j >> 6] |= UINT64_C(1) << (j & 63);
        used++;
    }
    /* The free list is built from the last object down, so that it runs
     * upwards. */
    for (j = nobj; j-- > 0;) {
        if (in_use[j >> 6] >> (j & 63) & 1) {
            continue;
        }
        memcpy(slab + (uint64_t)j * bytes, &first, sizeof(uint32_t));
        first = j * bytes + 1;
    }
    h->free_obj = first;
    h->bump = nobj * bytes;
    h->nused = used;
    return used;
}

void sc_alloc_rebuild_shard(sc_alloc_ctx *ac, sc_shard_alloc *sa, const sc_alloc_run *runs, uint32_t n,
                            const sc_off *live, uint32_t nlive, uint64_t requested, int64_t gone)
{
    uint32_t i, k = 0;
    sc_alloc_lane *l0 = &sa->lanes[0];

    SC_ASSERT(sc_mutex_held_by_me(&ac->pool->lock));
    SC_ASSERT(!ac->check_shard || ac->check_shard(ac, sa));

    sc_alloc_init_shard(sa);
    for (i = 0; i < n; i++) {
        const sc_alloc_run *r = &runs[i];
        sc_off start = ac->data_off + ((uint64_t)r->head << SC_PAGE_SHIFT);
        uint32_t used;
        while (k < nlive && live[k] < start) {
            k++;   /* not in an owned run: the caller checked; skip */
        }
        if (r->kind == SC_PAGE_LARGE) {
            used = k < nlive && live[k] == start;
            if (used) {
                k++;
                l0->used_bytes += (uint64_t)r->pages << SC_PAGE_SHIFT;
            }
        } else {
            used = sc_alloc_rebuild_slab(ac, r, live, nlive, &k);
            l0->used_bytes += (uint64_t)used * sc_alloc_class_bytes(r->cls);
            if (used && used < (r->pages << SC_PAGE_SHIFT) / sc_alloc_class_bytes(r->cls)) {
                sc_alloc_partial_push(ac, sa, 0, r->head);
            }
        }
        if (!used) {
            sc_alloc_pool_give(ac, r->head, r->pages);
            continue;
        }
        l0->nobjects += used;
        sa->pages += r->pages;
    }
    l0->requested_bytes = requested;
    l0->gone = gone;
}
