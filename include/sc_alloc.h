/*
 * sc_alloc.h - the shared-memory allocator: a page pool and per-shard
 * size-class slabs. The layout and invariants are described at the top of
 * src/sc_alloc.c.
 *
 * Owns: the page descriptors (sc_page), the pool (sc_pool, in the header)
 * and each shard's allocator state (sc_shard_alloc, in the shard); the
 * allocator sees them through its own context (sc_alloc_ctx), never a
 * shard or the segment header.
 * Locks: the pool lock for the pool and free runs; the owning shard's
 * REPAIR lock for its slabs, runs and sc_shard_alloc (field blocks below).
 * Death: see src/sc_alloc.c (a shard's runs are found again by walking
 * the runs; a pool change killed half way is undone or completed from its
 * intent record, sc_pool.op).
 */
#ifndef SC_ALLOC_H
#define SC_ALLOC_H

#include "sc_common.h"
#include "sc_lock.h"

#define SC_PAGE_SHIFT 12
#define SC_PAGE_SIZE (UINT32_C(1) << SC_PAGE_SHIFT)
#define SC_NCLASSES 37              /* 64 B .. 32 KiB, at most 1.25x apart */
#define SC_MAX_SMALL 32768          /* larger objects are runs of whole pages */
#define SC_NBINS 32                 /* free-run bins, by floor(log2(pages)) */
/* Allocation lanes of a shard: one partial-slab list per size
 * class and lane, so that processes (threads in ZTS) storing into the same
 * shard fill different slabs and no cache line holds entries of two of
 * them. A caller's lane is its pin lane (sc_live_lane, sc_pin_lane), so
 * this equals SC_LIVE_LANES (sc_layout.h checks it). */
#define SC_ALLOC_LANES 8

/* One descriptor per page of the data area (the pages_off array).
 *   head and tail of a free run (kind FREE, run, head, next/prev in a
 *       bin): the pool lock. A run leaves the pool with its first and last
 *       descriptors already saying LARGE / INNER and owner set, under the
 *       pool lock, so a neighbour given back meanwhile never merges with it.
 *   descriptors of a slab or large run (kind, cls, owner, run, head, nused,
 *       free_obj, bump, next/prev in a partial list of one of the shard's
 *       lanes or in its spare list):
 *       the owning shard's REPAIR lock, until the run goes back to the pool
 *       (under the pool lock). The pool lock holder reads a neighbour's
 *       kind only to see whether it is FREE, which only it can make so.
 *   Read under the pool lock by sc_alloc_reclaim_shard and sc_info.c's walk
 *   (cls and nused with relaxed loads, bounds-checked: they may be a
 *   moment old).
 *   head of a slab or large run's head page: set to the page itself by
 *   whoever makes the run (as above) and read by nobody but the check of
 *   a restarted named segment: its last user links each shard's runs
 *   through it at detach (sc_verify_close, exclusive flock), the shard's
 *   first locker follows the links (sc_verify_shard). */
typedef struct sc_page {
    uint8_t kind;       /* SC_PAGE_* */
    uint8_t cls;        /* slab: size class */
    uint16_t owner;     /* slab/large: owning shard (or a tag of the
                           caller's, sc_alloc_retag_locked) */
    uint32_t run;       /* head of a run (free, slab, large): pages in the run;
                           tail of a free run: pages in the run */
    uint32_t head;      /* inner page of a slab, tail of a free run: head page;
                           head of a slab or large run of a shard: the next
                           run of that shard's chain (sc_verify.c), SC_NONE
                           at its end; nothing else reads it there */
    uint32_t nused;     /* slab: objects handed out */
    uint32_t free_obj;  /* slab: byte offset + 1 of the first free object, 0 = none */
    uint32_t bump;      /* slab: bytes at the start of the slab ever handed out */
    uint32_t next;      /* list link: free-run bin or shard's partial list */
    uint32_t prev;
} sc_page;

enum {
    SC_PAGE_FREE = 0,   /* head or tail of a free run in the pool */
    SC_PAGE_SLAB = 1,   /* head of a slab of one size class */
    SC_PAGE_LARGE = 2,  /* head of a run holding one large object */
    SC_PAGE_INNER = 3   /* a non-head page of a slab */
};

/* The pool of free pages (sc_header.pool).
 *   lock: the pool lock; always taken last (global -> shard -> pool).
 *   dirty: set by a holder that changes bins or runs (sc_alloc_pool_lock), right
 *       after taking lock; cleared by it right before unlocking.
 *   op, op_lo, op_hi: the one pool change under way (the intent record):
 *       op_lo and op_hi first, then op (SC_POOL_OP_*), before the change
 *       touches anything; op back to NONE once the bins and descriptors are
 *       whole again. Pool lock. A locker that finds the previous holder
 *       dead with dirty set looks at op: NONE, the pool is whole (the holder
 *       died between two changes); TAKE or GIVE, the pages op_lo..op_hi-1
 *       become one free run and the bins are rebuilt from the runs
 *       (sc_alloc_pool_repair: the take is undone, the give completed);
 *       RESET, or a repair that finds the runs not tiling the area, flags
 *       the segment for a full reset (sc_header.needs_reset).
 *   bin_head, bin_mask, total_pages, slab_returns, lock_count: the pool
 *       lock.
 *   free_pages: the pool lock; read with relaxed atomic loads and no lock
 *       (spares cap, eviction, figures), so it may be a moment old.
 *   slab_refills, large_allocs: atomic add with no lock (after the pool
 *       lock was released); read with no lock. */
typedef struct sc_pool {
    sc_mutex lock;
    uint32_t dirty;             /* a writer holds lock (set and cleared by it) */
    uint32_t op;                /* SC_POOL_OP_*: the change under way */
    uint32_t op_lo;             /* its pages: op_lo .. op_hi - 1 */
    uint32_t op_hi;
    uint32_t bin_head[SC_NBINS];
    uint32_t bin_mask;          /* bit b set <=> bin b is not empty */
    uint32_t free_pages;
    uint32_t total_pages;
    uint64_t lock_count;        /* acquisitions of lock */
    uint64_t slab_refills;      /* slabs handed to shards */
    uint64_t slab_returns;      /* empty slabs given back */
    uint64_t large_allocs;
} sc_pool;

/* sc_pool.op. TAKE: a free run op_lo..op_hi-1 is being cut (undone by a
 * repair: the taker died before it could use any of it). GIVE: a run is
 * being merged with its free neighbours into op_lo..op_hi-1 (completed by
 * a repair: the giver had unlinked it). RESET: the pool is being rebuilt
 * from scratch (a repair cannot tell what is done: full reset). */
enum { SC_POOL_OP_NONE = 0, SC_POOL_OP_TAKE = 1, SC_POOL_OP_GIVE = 2, SC_POOL_OP_RESET = 3 };

/* One allocation lane of a shard (the shard's REPAIR lock, as the rest of
 * sc_shard_alloc).
 *   partial: the slabs of each class with a free object that this lane
 *       allocates from first. Read on every small allocation of a caller
 *       of the lane, written when one of its slabs fills, when a freeing
 *       caller of the lane makes a full slab not-full, when a slab on it
 *       empties, and when another lane takes a slab from it (sc_alloc.c).
 *   used_bytes, requested_bytes, nobjects: the shard's figures, counted by
 *       the lane of the caller that allocates or frees (sc_alloc.c;
 *       requested_bytes: sc_entry.c), so that an allocation writes no line
 *       another lane's caller writes. A lane may free what another
 *       allocated: one lane's count alone means nothing (it may even wrap
 *       below zero); the shard's figure is the sum over its lanes
 *       (sc_alloc_figures), exact under the lock, a moment old without it.
 *   gone: not the allocator's own figure, kept here because a lane's lines
 *       are its callers' and are reset with the shard: how many of the
 *       shard's entries are deleted without the lock and kept for a store
 *       of their key (ttl SC_TTL_GONE, sc_lockless.c). Changed with an
 *       atomic add by a lockless delete or store (under a pin: +1 / -1), by
 *       whoever frees such an entry (sc_entry_free: -1) and set by a
 *       recount (sc_pin_gone_recount, inside the shard's window with every pin
 *       drained). As above, only the sum over the lanes means something.
 * Each lane on its own cache lines. */
typedef struct sc_alloc_lane {
    _Alignas(SC_CACHELINE) uint32_t partial[SC_NCLASSES]; /* head slab by class, SC_NONE = none */
    uint32_t kept;                  /* emptied one-page slabs kept on this lane: 0 or 1 */
    uint64_t used_bytes;            /* bytes handed out, rounded to class */
    uint64_t requested_bytes;       /* bytes entries need (sc_entry.c); tables
                                       are not counted */
    uint64_t nobjects;
    int64_t gone;                   /* entries deleted without the lock, kept */
} sc_alloc_lane;

/* Allocator state of one shard (sc_shard.alloc).
 *   every field: the shard's REPAIR lock (sc_alloc.c, sc_entry.c adds
 *       requested_bytes); reset by repair (sc_shard.c) and clear.
 *   spare_reuses, spare_pages, lane_steals and the lanes' figures: also
 *       read with relaxed atomic loads and no lock (figures,
 *       sc_evict_global's scan for shards with spares), so they may be a
 *       moment old.
 *   Nothing here is written by every allocation: the figures
 *       that are (used, requested, objects) are counted per lane, on the
 *       lane's own lines (sc_alloc_lane).
 *   lane_steals: slabs one lane took from another's partial list because
 *       the pool was down to its reserve (sc_alloc.c); a figure. */
typedef struct sc_shard_alloc {
    uint64_t spare_reuses;          /* slabs and runs taken from the spares */
    uint32_t pages;                 /* pages owned (slabs and large runs) */
    uint32_t spare_head;            /* empty slabs kept for reuse (any class) */
    uint32_t spare_pages;           /* pages in them, and in emptied one-page
                                       slabs kept on a lane (sc_alloc_free) */
    uint32_t kept_pages;            /* of spare_pages, those kept on lanes */
    uint64_t lane_steals;           /* partial slabs taken from another lane */
    sc_alloc_lane lanes[SC_ALLOC_LANES]; /* slabs with a free object, by lane and class */
} sc_shard_alloc;

/* The allocator's own view of a mapped segment: where the pages, their
 * descriptors and the pool are in this process. Process-local, filled once
 * when the segment is mapped (sc_layout_format, sc_layout_bind) and embedded in
 * the segment handle (sc_seg.ac); the allocator sees nothing else of the
 * segment, and no shard: a shard hands in its sc_shard_alloc and its index. */
typedef struct sc_alloc_ctx {
    char *base;                 /* the mapping: offsets are from here */
    char *data;                 /* base + the data area's offset (page 0) */
    sc_off data_off;
    sc_page *pages;             /* one descriptor per data page */
    sc_pool *pool;              /* in the segment header */
    uint32_t *needs_reset;      /* the header's needs_reset flag */
    uint32_t npages;
    uint32_t nshards;           /* sizes the spares cap */
    /* For SC_ASSERT only (sc_common.h), set by sc_layout_bind (NULL: not
     * checked): whether the calling thread holds the REPAIR lock of the
     * shard whose allocator state sa is; whether it holds the global lock
     * and every shard's REPAIR lock. The allocator sees no shard: these
     * look for it. */
    bool (*check_shard)(const struct sc_alloc_ctx *ac, const sc_shard_alloc *sa);
    bool (*check_all)(const struct sc_alloc_ctx *ac);
} sc_alloc_ctx;

/* Takes the pool lock (counted) to change the pool. False when the pool
 * must not be used: its previous writer died mid-change, or the segment
 * waits for a full reset; the lock is not held then. Release with
 * sc_alloc_pool_unlock. */
/* Whether the pool's free lists and figures are whole (sc_alloc.c). */
bool sc_alloc_pool_sane(const sc_alloc_ctx *ac);
bool sc_alloc_pool_lock(sc_alloc_ctx *ac);
/* Same, for a holder that only reads the pool: if it dies holding the lock,
 * nothing is reset. */
bool sc_alloc_pool_lock_walk(sc_alloc_ctx *ac);
void sc_alloc_pool_unlock(sc_alloc_ctx *ac);

/* Process-local tables (pages per slab of each class), derived from the
 * constants alone: every process that maps a segment, made by it or not,
 * calls this before allocating (sc_alloc_init_pool calls it too). */
void sc_alloc_init_process(void);

/* Called once while the segment is created (single process). */
void sc_alloc_init_pool(sc_alloc_ctx *ac);
void sc_alloc_init_shard(sc_shard_alloc *sa);

/* The caller holds shard `owner`'s REPAIR lock. Returns an offset of `size`
 * usable bytes aligned to 8, or 0 when no memory is left. lane: the
 * caller's allocation lane (its pin lane, sc_pin_lane; any value is safe:
 * it is taken modulo SC_ALLOC_LANES). */
sc_off sc_alloc(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint16_t owner, uint64_t size, uint32_t lane);
/* Like sc_alloc for a run of whole pages: the longest free run up to
 * max_pages pages (*got says how many). 0 when the pool is empty. */
sc_off sc_alloc_run_upto(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint16_t owner, uint32_t max_pages,
                         uint32_t *got, uint32_t lane);
/* The caller holds the REPAIR lock of the shard that allocated off. lane:
 * the caller's lane (a full slab that gets a free object joins it). */
void sc_alloc_free(sc_alloc_ctx *ac, sc_shard_alloc *sa, sc_off off, uint32_t lane);

/* The caller holds shard `owner`'s REPAIR lock: gives the shard's spare
 * slabs back to the pool (before evicting anything). Returns the pages. */
uint32_t sc_alloc_flush_spares(sc_alloc_ctx *ac, sc_shard_alloc *sa);

/* Usable bytes behind an allocation of `size` (its class or page run). */
uint64_t sc_alloc_usable(uint64_t size);

/* Whole-cache reset: the caller holds the global lock and, for every
 * shard, its REPAIR lock or the freeze of a clear (sc_shard_freeze);
 * every shard's allocator must be reset with sc_alloc_init_shard.
 * Every page goes back to the pool (sc_alloc_reset_pool_holding, none held). */
void sc_alloc_reset_pool(sc_alloc_ctx *ac);
/* The same reset, except that the pages whose bit is set in hold (a bitmap
 * of npages bits; NULL: every page) are not given to the pool: each span
 * of them becomes one run owned by tag (given back later with
 * sc_alloc_give_owned_locked). Tag 0 holds none (the plain reset).
 * Returns the pages held. */
uint32_t sc_alloc_reset_pool_holding(sc_alloc_ctx *ac, const uint8_t *hold, uint16_t tag);

/* A shard whose writer died gives back every run it owns (its caller holds
 * the shard lock and then resets the shard's allocator state). */
void sc_alloc_reclaim_shard(sc_alloc_ctx *ac, uint16_t owner);
/* The caller holds the pool lock (sc_alloc_pool_lock_walk is enough: the pool
 * is marked dirty around each run given back, so a caller killed between
 * two runs leaves a usable pool and the other runs still owned): gives
 * back every run owned by `owner`. Returns the pages. */
uint32_t sc_alloc_give_owned_locked(sc_alloc_ctx *ac, uint16_t owner);
/* The caller holds the pool lock (sc_alloc_pool_lock_walk is enough: the pool
 * does not change) and whatever keeps `from`'s runs still: every run owned
 * by `from` is owned by `to` afterwards (a caller's tag for runs it holds
 * back). Returns the pages moved. */
uint32_t sc_alloc_retag_locked(sc_alloc_ctx *ac, uint16_t from, uint16_t to);

/* ---- repair (src/sc_alloc_repair.c) ---- */

/* The pool lock was found "owner died" with dirty set and op TAKE or GIVE
 * (pool lock held): rebuilds the bins from the runs, op_lo..op_hi-1 made
 * one free run. False when the runs do not tile the area (the caller then
 * flags a full reset). A repairer killed inside leaves op as it was: the
 * next locker repairs again. */
bool sc_alloc_pool_repair(sc_alloc_ctx *ac);

/* One slab or large run a shard owns, as sc_alloc_owned_runs finds it. */
typedef struct sc_alloc_run {
    uint32_t head;
    uint32_t pages;
    uint8_t kind;       /* SC_PAGE_SLAB or SC_PAGE_LARGE */
    uint8_t cls;        /* slab: size class */
} sc_alloc_run;

/* Pool lock held: the runs owned by owner, in page order, in *runs
 * (malloc'd; free() it) and their number in *n. False when the runs do
 * not tile the area or malloc fails. */
bool sc_alloc_owned_runs(const sc_alloc_ctx *ac, uint16_t owner, sc_alloc_run **runs, uint32_t *n);
/* The allocation (object of a slab, or a whole large run) among runs (from
 * sc_alloc_owned_runs) that starts exactly at off: true and its usable
 * bytes in *size; false when off is no such start. */
bool sc_alloc_object_at(const sc_alloc_ctx *ac, const sc_alloc_run *runs, uint32_t n, sc_off off, uint64_t *size);
/* Shard repair (the shard's REPAIR lock and the pool lock held, writer
 * mode): sa is made anew from the objects still in use, live (sorted,
 * no duplicates, each a start sc_alloc_object_at accepts). Every slab
 * gets a free list of its other objects and, if any, a place on lane 0's
 * partial list; a slab or large run with no object in use goes back to
 * the pool; the figures are those of the live objects (in lane 0), with
 * requested and gone as the caller counted them. Killed inside: the
 * caller repairs again from its table; nothing here depends on sa or on
 * the free lists it is rebuilding. */
void sc_alloc_rebuild_shard(sc_alloc_ctx *ac, sc_shard_alloc *sa, const sc_alloc_run *runs, uint32_t n,
                            const sc_off *live, uint32_t nlive, uint64_t requested, int64_t gone);

/* Internal to sc_alloc.c and sc_alloc_repair.c. */
void sc_alloc_pool_link(sc_alloc_ctx *ac, uint32_t head, uint32_t run);
void sc_alloc_pool_give(sc_alloc_ctx *ac, uint32_t head, uint32_t run);
void sc_alloc_partial_push(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint32_t lane, uint32_t head);
uint32_t sc_alloc_class_bytes(unsigned cls);

/* A shard's figures: the sums over its lanes (relaxed loads: exact under
 * the shard's lock, a moment old without it; a sum that a racing change
 * makes look negative reads as 0). */
typedef struct sc_alloc_figures {
    uint64_t used_bytes;
    uint64_t requested_bytes;
    uint64_t nobjects;
} sc_alloc_figures;
void sc_alloc_figures_get(const sc_shard_alloc *sa, sc_alloc_figures *out);

/* The caller holds the shard's REPAIR lock: adds delta (may be negative) to
 * the bytes entries need, in the caller's lane (sc_entry.c). */
static inline void sc_alloc_requested_add(sc_shard_alloc *sa, uint32_t lane, int64_t delta)
{
    sc_alloc_lane *l = &sa->lanes[lane % SC_ALLOC_LANES];

    __atomic_store_n(&l->requested_bytes, l->requested_bytes + (uint64_t)delta, __ATOMIC_RELAXED);
}

/* Counts delta entries deleted without the lock and kept (sc_alloc_lane.gone)
 * in lane's figure. */
static inline void sc_alloc_gone_add(sc_shard_alloc *sa, uint32_t lane, int64_t delta)
{
    __atomic_fetch_add(&sa->lanes[lane % SC_ALLOC_LANES].gone, delta, __ATOMIC_RELAXED);
}

/* The shard's entries deleted without the lock and kept: the sum over its
 * lanes (a moment old without the shard's window; a sum that a racing
 * change makes look negative reads as 0). */
static inline uint64_t sc_alloc_gone(const sc_shard_alloc *sa)
{
    int64_t sum = 0;
    unsigned l;

    for (l = 0; l < SC_ALLOC_LANES; l++) {
        sum += __atomic_load_n(&sa->lanes[l].gone, __ATOMIC_RELAXED);
    }
    return sum < 0 ? 0 : (uint64_t)sum;
}

/* Largest request that can ever succeed. */
uint64_t sc_alloc_max_request(const sc_alloc_ctx *ac);

/* Free pages in the pool (approximate unless the pool lock is held). */
uint32_t sc_alloc_pool_free_pages(const sc_alloc_ctx *ac);

#endif
