/*
 * sc_info.c - read-only figures for the info functions.
 *
 * Owns: nothing in shared memory: it only reads.
 * Locks:
 *  - A shard's table, allocator and statistics fields are copied while the
 *    shard's lock is held (sc_shard_lock, SC_LOCK_NO_REPAIR), so entries, slots and
 *    bytes agree with each other. The miss and nomem counters, which other
 *    code bumps atomically without the lock, are read atomically.
 *  - The page pool is walked while the pool lock is held. Under that lock
 *    the runs tile the data area (free runs, slabs, large runs; see
 *    sc_alloc.c), so the walk steps from run head to run head. A slab's
 *    class and object count are written by its owning shard under the
 *    shard's lock, not the pool's: they are read with relaxed atomic loads
 *    and bounds-checked, and may be a moment old - these are statistics.
 *    The lock is taken as a walker (sc_alloc_pool_lock_walk): a process killed
 *    during the walk leaves nothing to repair. If the pool's previous
 *    writer died, the pool is flagged for the full reset exactly as
 *    sc_alloc.c does, and the walk is skipped.
 *  - The stores made without a shard lock are counted per thread in the
 *    liveness slots (sc_live.h) and summed with relaxed loads, no lock.
 * Results go into process memory (malloc for the run list); no lock is held
 * when the caller gets them, and nothing here can jump out while a lock is
 * held.
 * Death: nothing to repair: the shard lock is held in NO_REPAIR mode and
 * the pool lock as a walker, and nothing shared is written.
 */
#include <stdlib.h>
#include <string.h>
#include "sc_info.h"
#include "sc_shard.h"

/* One hit (miss) in this many is recorded in the shard figures: must equal
 * SC_HIT_SAMPLE and SC_MISS_SAMPLE of sc_cache.c. */

#define SC_LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

uint32_t sc_info_hit_sample(void)
{
    return SC_HIT_SAMPLE;
}

uint64_t sc_info_live_failed_scans(void)
{
    return sc_live_failed_scans();
}

void sc_info_local_unrecorded(const sc_cache *c, uint64_t *hits, uint64_t *misses)
{
    (void)c; /* the counts are the calling thread's (sc_local) */
    *hits = sc_local.hits & (SC_HIT_SAMPLE - 1);
    *misses = sc_local.misses & (SC_HIT_SAMPLE - 1);
}

uint64_t sc_info_nominal_slots(const sc_cache *c)
{
    uint64_t slots = 0, initial = c->seg.hdr->initial_capacity;
    uint32_t i;

    for (i = 0; i < c->seg.nshards; i++) {
        uint32_t cap = SC_LOAD(c->seg.heads[i].table.capacity);
        slots += cap ? cap : initial;
    }
    return slots;
}

uint64_t sc_info_initial_slots(const sc_cache *c)
{
    return (uint64_t)c->seg.nshards * c->seg.hdr->initial_capacity;
}

uint64_t sc_info_lockless(const sc_cache *c, unsigned what)
{
    return sc_live_total(&c->seg.hdr->live, what);
}

void sc_info_shard_get(sc_cache *c, uint32_t index, sc_info_shard *out)
{
    sc_seg *seg = &c->seg;
    sc_shard *shard;
    const sc_table *table;
    uint64_t table_bytes = 0;

    memset(out, 0, sizeof(*out));
    if (index >= seg->nshards) {
        return;
    }
    shard = &seg->shards[index];
    table = &seg->heads[index].table;
    sc_shard_lock(seg, shard, SC_LOCK_NO_REPAIR);
    out->entries = sc_layout_shard_entries(shard);
    out->slots = table->capacity;
    out->tombstones = table->tombs;
    if (table->off && table->capacity) {
        table_bytes = sc_alloc_usable(sc_table_bytes(table->capacity));
    }
    out->pages = shard->alloc.pages;
    {
        sc_alloc_figures af;
        sc_alloc_figures_get(&shard->alloc, &af);
        out->mem_used = af.used_bytes;
        out->mem_requested = af.requested_bytes;
        out->objects = af.nobjects;
    }
    out->inserts = sc_layout_head(shard)->inserts;
    out->updates = sc_layout_head(shard)->updates;
    out->deletes = sc_layout_head(shard)->deletes;
    out->expired = shard->stats.expired;
    out->evicted = shard->stats.evicted;
    out->repairs = shard->stats.repairs;
    out->cleanups = shard->stats.cleanups;
    out->lock_waits = __atomic_load_n(&shard->stats.lock_waits, __ATOMIC_RELAXED);
    out->optimistic_retries = __atomic_load_n(&shard->stats.optimistic_retries, __ATOMIC_RELAXED);
    out->hits = shard->stats.hits;
    out->nomem = SC_LOAD(shard->stats.nomem);
    out->misses = SC_LOAD(shard->stats.misses);
    sc_shard_unlock(shard);
    out->mem_entries = out->mem_used > table_bytes ? out->mem_used - table_bytes : 0;
}

bool sc_info_pool_get(sc_cache *c, bool with_runs, sc_info_pool *out)
{
    sc_seg *seg = &c->seg;
    sc_pool *pool = &seg->hdr->pool;
    uint64_t s = 1, max_runs = 0, nruns = 0;
    sc_info_run *runs = NULL;
    uint32_t p, i;
    bool ok = true;

    memset(out, 0, sizeof(*out));
    for (i = 0; i < SC_NCLASSES; i++) {
        out->classes[i].size = (uint32_t)sc_alloc_usable(s);
        s = (uint64_t)out->classes[i].size + 1;
    }
    out->total_pages = seg->npages;

    /* Free runs never outnumber half the pages plus one (two free runs are
     * never adjacent), so one allocation made before locking is enough. */
    if (with_runs) {
        max_runs = (uint64_t)seg->npages / 2 + 1;
        runs = malloc(max_runs * sizeof(*runs));
        if (!runs) {
            ok = false;
            with_runs = false;
        }
    }

    if (!sc_alloc_pool_lock_walk(&seg->ac)) {
        out->free_pages = SC_LOAD(pool->free_pages);
        free(runs);
        return ok;
    }
    out->free_pages = pool->free_pages;
    p = 0;
    while (p < seg->npages) {
        const sc_page *d = &seg->pages[p];
        uint8_t kind = SC_LOAD(d->kind);
        uint32_t run = SC_LOAD(d->run);

        if (run == 0 || run > seg->npages - p || kind == SC_PAGE_INNER) {
            break; /* the runs do not tile the area: stop, report what was seen */
        }
        if (kind == SC_PAGE_FREE) {
            uint64_t bytes = (uint64_t)run << SC_PAGE_SHIFT;
            if (bytes > out->largest_free_run) {
                out->largest_free_run = bytes;
            }
            if (with_runs && nruns < max_runs) {
                runs[nruns].offset = seg->hdr->data_off + ((uint64_t)p << SC_PAGE_SHIFT);
                runs[nruns].size = bytes;
                nruns++;
            }
            out->free_runs++;
        } else if (kind == SC_PAGE_SLAB && SC_LOAD(d->nused) == 0) {
            /* A spare (sc_alloc.c): free, but only for its shard. */
            out->spare_pages += run;
            out->spare_runs++;
            if (with_runs && nruns < max_runs) {
                runs[nruns].offset = seg->hdr->data_off + ((uint64_t)p << SC_PAGE_SHIFT);
                runs[nruns].size = (uint64_t)run << SC_PAGE_SHIFT;
                nruns++;
            }
        } else if (kind == SC_PAGE_SLAB) {
            uint8_t cls = SC_LOAD(d->cls);
            if (cls < SC_NCLASSES) {
                sc_info_class *k = &out->classes[cls];
                k->slabs++;
                k->slab_pages += run;
                k->objects_used += SC_LOAD(d->nused);
                k->objects_total += ((uint64_t)run << SC_PAGE_SHIFT) / k->size;
            }
        } else {
            out->large_runs++;
            out->large_pages += run;
        }
        p += run;
    }
    sc_alloc_pool_unlock(&seg->ac);
    out->walked = true;
    if (with_runs) {
        out->runs = runs;
        out->nruns = nruns;
    } else {
        free(runs);
    }
    return ok;
}

void sc_info_pool_free(sc_info_pool *p)
{
    free(p->runs);
    p->runs = NULL;
}
