/*
 * sc_cache_zc.c - the zero-copy entry points of sc_cache.h: what the glue
 * does with the epoch (enter, leave) and reads of it (bytes, figures),
 * so that it reaches the segment only through the cache's functions.
 * Each is a call of sc_epoch.c or sc_evict.c on the cache's segment.
 *
 * Owns: nothing of its own: the epoch table and the retire lists are
 * sc_epoch.c's.
 * Locks: enter, inside, leave and bytes take none (atomics of the epoch
 * table and the thread's own slot); reclaim takes one shard lock at a time
 * (sc_evict_retired); the figures are relaxed loads, after a forced
 * sc_epoch_poll (which may take the pool lock).
 * Death: as in sc_epoch.c: a dead reader's epoch is released once its
 * liveness slot reads as gone; a death inside reclaim leaves its shard to
 * sc_shard.c's repair.
 */
#include "sc_cache.h"
#include "sc_epoch.h"
#include "sc_evict.h"

#define SC_LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

bool sc_cache_zc_enter(sc_cache *c)
{
    return sc_epoch_enter(&c->seg);
}

bool sc_cache_zc_inside(const sc_cache *c)
{
    return sc_epoch_inside(&c->seg);
}

void sc_cache_zc_leave(sc_cache *c)
{
    sc_epoch_leave(&c->seg);
}

uint64_t sc_cache_zc_bytes(const sc_cache *c)
{
    return sc_epoch_zc_bytes(&c->seg);
}

uint64_t sc_cache_zc_reclaim(sc_cache *c)
{
    return sc_evict_retired(&c->seg);
}

void sc_cache_zc_figures_get(sc_cache *c, sc_cache_zc_figures *f)
{
    sc_epoch_table *t = &c->seg.hdr->epochs;

    f->bytes = SC_LOAD(t->zc_bytes);
    f->retired_bytes = SC_LOAD(t->retired_bytes);
    f->retired = SC_LOAD(t->retired);
    f->reclaimed = SC_LOAD(t->reclaimed);
    sc_epoch_poll(&c->seg, true);
    f->held_bytes = sc_epoch_held_bytes(&c->seg);
    f->repairs_held = SC_LOAD(t->repairs_held);
    f->epoch = SC_LOAD(t->global);
    f->scans = SC_LOAD(t->scans);
    f->readers = sc_epoch_count_readers(&c->seg);
}
