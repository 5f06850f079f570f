/*
 * sc_alloc.c - the shared-memory allocator.
 *
 * Owns: the data area's pages and their descriptors (sc_page), the pool of
 * free runs (sc_pool, in the header) and each shard's allocator state
 * (sc_shard_alloc). It reaches them through sc_alloc_ctx only: it never
 * sees a shard or the segment header.
 *
 * Runs. The data area is cut into pages of SC_PAGE_SIZE, grouped in runs
 * that tile it with no gap: free runs (the pool's, binned by
 * floor(log2(pages))), slabs (1..16 pages of one size class, owned by one
 * shard) and large runs (one object over SC_MAX_SMALL). A run's neighbours
 * are always the tail of the previous run and the head of the next, which
 * is all that coalescing needs.
 *
 * Size classes. 64..128 bytes in steps of 16, then four per power of two
 * up to 32 KiB (at most 1.25x apart). A slab has the fewest pages that
 * waste at most 1/16 of it, or one page when no run that long is free.
 *
 * Spares and lanes. An emptied slab stays with its shard as a spare (up to
 * sc_alloc_spare_cap pages, while the pool keeps an eighth of its pages
 * free). Each shard keeps a partial-slab list per class and lane (the
 * caller's pin lane), so callers in different lanes fill different slabs.
 *
 * Locks: a shard's slabs, lanes and objects: that shard's REPAIR lock. The
 * pool (bins, free runs): the pool lock, taken only to move a run between
 * the pool and a shard. Free objects hold the offset+1 of the next free
 * object in their first four bytes.
 * Death: a shard whose writer died is rebuilt by its next locker from the
 * entries its table still refers to (sc_shard_repair.c, which calls
 * sc_alloc_rebuild_shard: every lane's lists and the slabs' free lists are
 * made anew); runs are marked with their owner before the pool lock is
 * released, so the repair finds them by walking the runs. Every pool
 * change (a take, a give) first writes its intent (pool->op and the pages
 * it may touch): a death inside one is undone (take) or finished (give)
 * by the next locker of the pool (sc_alloc_pool_repair,
 * src/sc_alloc_repair.c); a death between two changes of one holder costs
 * nothing. Only a death inside a full reset of the pool, or runs that no
 * longer tile the area, flag hdr->needs_reset (sc_alloc_reset_pool). A holder
 * in walk mode (sc_alloc_pool_lock_walk) leaves dirty clear; owner-tag
 * moves (sc_alloc_retag_locked, sc_alloc_give_owned_locked) leave each run
 * with one consistent owner at every step.
 *
 * Design: docs/internals.md#sc_alloc
 */
#include <string.h>
#include "sc_alloc.h"

static const uint32_t sc_class_size[SC_NCLASSES] = {
    64, 80, 96, 112, 128,
    160, 192, 224, 256,
    320, 384, 448, 512,
    640, 768, 896, 1024,
    1280, 1536, 1792, 2048,
    2560, 3072, 3584, 4096,
    5120, 6144, 7168, 8192,
    10240, 12288, 14336, 16384,
    20480, 24576, 28672, 32768,
};

static uint8_t sc_slab_pages[SC_NCLASSES];

static inline unsigned sc_alloc_class_of(uint64_t size)
{
    unsigned b;

    if (size <= 64) {
        return 0;
    }
    if (size <= 128) {
        return (unsigned)((size - 64 + 15) >> 4);
    }
    b = 63 - (unsigned)__builtin_clzll(size - 1);
    return 5 + (b - 7) * 4 + (unsigned)((size - 1 - (UINT64_C(1) << b)) >> (b - 2));
}

/* Objects in a slab: from its own length, which is its class's preferred
 * length or, when no run that long was free, a single page. */
static inline uint32_t sc_alloc_slab_objects(const sc_page *h)
{
    return (h->run << SC_PAGE_SHIFT) / sc_class_size[h->cls];
}

static inline char *sc_alloc_page_addr(sc_alloc_ctx *ac, uint32_t page)
{
    return ac->data + ((uint64_t)page << SC_PAGE_SHIFT);
}

static inline sc_off sc_alloc_off(const sc_alloc_ctx *ac, const char *p)
{
    return (sc_off)(p - ac->base);
}

static void sc_alloc_compute_slab_pages(void)
{
    unsigned cls;
    uint32_t n;

    for (cls = 0; cls < SC_NCLASSES; cls++) {
        uint32_t best = 1;
        uint64_t best_waste_num = UINT64_MAX, best_waste_den = 1;
        for (n = 1; n <= 16; n++) {
            uint64_t bytes = (uint64_t)n << SC_PAGE_SHIFT;
            uint64_t waste = bytes % sc_class_size[cls];
            if (bytes < sc_class_size[cls]) {
                continue;
            }
            if (waste * 16 <= bytes) {
                best = n;
                break;
            }
            if (waste * best_waste_den < best_waste_num * bytes) {
                best = n;
                best_waste_num = waste;
                best_waste_den = bytes;
            }
        }
        sc_slab_pages[cls] = (uint8_t)best;
    }
}

/* ---- pool (caller holds the pool lock) ---- */

/* For SC_ASSERT: the calling thread holds the pool lock; the REPAIR lock of
 * the shard whose allocator state sa is; the global lock and every shard's
 * REPAIR lock (the hooks of sc_alloc_ctx, set where the segment is bound). */
#define SC_ALLOC_POOL_HELD(ac) sc_mutex_held_by_me(&(ac)->pool->lock)
#define SC_ALLOC_SHARD_HELD(ac, sa) (!(ac)->check_shard || (ac)->check_shard((ac), (sa)))
#define SC_ALLOC_ALL_HELD(ac) (!(ac)->check_all || (ac)->check_all(ac))

static inline unsigned sc_alloc_bin_of(uint32_t pages)
{
    return 31 - (unsigned)__builtin_clz(pages);
}

void sc_alloc_pool_link(sc_alloc_ctx *ac, uint32_t head, uint32_t run)
{
    sc_pool *pool = ac->pool;
    sc_page *h = &ac->pages[head], *t = &ac->pages[head + run - 1];
    unsigned bin = sc_alloc_bin_of(run);

    t->kind = SC_PAGE_FREE;
    t->run = run;
    t->head = head;
    h->kind = SC_PAGE_FREE;
    h->run = run;
    h->head = head;
    h->prev = SC_NONE;
    h->next = pool->bin_head[bin];
    if (h->next != SC_NONE) {
        ac->pages[h->next].prev = head;
    }
    pool->bin_head[bin] = head;
    pool->bin_mask |= UINT32_C(1) << bin;
    pool->free_pages += run;
}

static void sc_alloc_pool_unlink(sc_alloc_ctx *ac, uint32_t head)
{
    sc_pool *pool = ac->pool;
    sc_page *h = &ac->pages[head];
    unsigned bin = sc_alloc_bin_of(h->run);

    if (h->prev != SC_NONE) {
        ac->pages[h->prev].next = h->next;
    } else {
        pool->bin_head[bin] = h->next;
        if (h->next == SC_NONE) {
            pool->bin_mask &= ~(UINT32_C(1) << bin);
        }
    }
    if (h->next != SC_NONE) {
        ac->pages[h->next].prev = h->prev;
    }
    pool->free_pages -= h->run;
}

/* The intent record (sc_pool.op): written before a change touches the
 * bins or a descriptor, cleared once both are whole. The compiler fences
 * keep the stores in this order in the code: a process killed at any
 * instruction leaves the record naming what it may have half done. */
static inline void sc_alloc_pool_intent(sc_pool *pool, uint32_t op, uint32_t lo, uint32_t hi)
{
    pool->op_lo = lo;
    pool->op_hi = hi;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    pool->op = op;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline void sc_alloc_pool_done(sc_pool *pool)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    pool->op = SC_POOL_OP_NONE;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

uint32_t sc_alloc_class_bytes(unsigned cls)
{
    return cls < SC_NCLASSES ? sc_class_size[cls] : 0;
}

/* Takes a run of exactly n pages for owner; SC_NONE when no free run is
 * long enough. */
static uint32_t sc_alloc_pool_take(sc_alloc_ctx *ac, uint32_t n, uint16_t owner)
{
    sc_pool *pool = ac->pool;
    unsigned bin = sc_alloc_bin_of(n);
    uint32_t head = SC_NONE, p, run;
    int budget = 16;
    uint32_t higher;

    SC_ASSERT(SC_ALLOC_POOL_HELD(ac));

    /* Runs in n's own bin may be shorter than n: look at a few. */
    for (p = pool->bin_head[bin]; p != SC_NONE && budget-- > 0; p = ac->pages[p].next) {
        if (ac->pages[p].run >= n) {
            head = p;
            break;
        }
    }
    if (head == SC_NONE) {
        higher = bin + 1 < SC_NBINS ? pool->bin_mask & ~((UINT32_C(2) << bin) - 1) : 0;
        if (!higher) {
            return SC_NONE;
        }
        head = pool->bin_head[__builtin_ctz(higher)];
    }
    run = ac->pages[head].run;
    sc_alloc_pool_intent(pool, SC_POOL_OP_TAKE, head, head + run);
    sc_alloc_pool_unlink(ac, head);
    if (run > n) {
        sc_alloc_pool_link(ac, head + n, run - n);
    }
    /* Before the pool lock is released, the run's first and last pages
     * must stop saying FREE, or a neighbour given back meanwhile would
     * merge with them. The caller fills in the real descriptors. */
    ac->pages[head].kind = SC_PAGE_LARGE;
    ac->pages[head].run = n;
    ac->pages[head].owner = owner;
    if (n > 1) {
        ac->pages[head + n - 1].kind = SC_PAGE_INNER;
        ac->pages[head + n - 1].head = head;
    }
    sc_alloc_pool_done(pool);
    return head;
}

/* Gives a run back, merging it with free neighbours. */
void sc_alloc_pool_give(sc_alloc_ctx *ac, uint32_t head, uint32_t run)
{
    uint32_t next = head + run, lo = head, hi = head + run;

    SC_ASSERT(SC_ALLOC_POOL_HELD(ac));

    /* The pages the merged run will cover, before anything changes. */
    if (head > 0 && ac->pages[head - 1].kind == SC_PAGE_FREE) {
        lo = ac->pages[head - 1].head;
    }
    if (next < ac->npages && ac->pages[next].kind == SC_PAGE_FREE) {
        hi = next + ac->pages[next].run;
    }
    sc_alloc_pool_intent(ac->pool, SC_POOL_OP_GIVE, lo, hi);
    if (head > 0 && ac->pages[head - 1].kind == SC_PAGE_FREE) {
        uint32_t left = ac->pages[head - 1].head;
        uint32_t left_run = ac->pages[left].run;
        sc_alloc_pool_unlink(ac, left);
        head = left;
        run += left_run;
    }
    if (next < ac->npages && ac->pages[next].kind == SC_PAGE_FREE) {
        uint32_t right_run = ac->pages[next].run;
        sc_alloc_pool_unlink(ac, next);
        run += right_run;
    }
    sc_alloc_pool_link(ac, head, run);
    sc_alloc_pool_done(ac->pool);
}

/* Takes the pool lock. Returns false when the pool cannot be used: its
 * previous holder died in the middle of a change, or that happened before
 * and the segment waits for a full reset (hdr->needs_reset). A writer
 * (changes bins or runs) sets pool->dirty while it holds the lock; a
 * walker does not, so a walker's death costs nothing. */
static bool sc_alloc_pool_lock_mode(sc_alloc_ctx *ac, bool writer)
{
    sc_pool *pool = ac->pool;

    if (sc_mutex_lock(&pool->lock) && pool->dirty && pool->op != SC_POOL_OP_NONE) {
        /* The holder died inside one change (pool->op): undo or finish
         * it; only a pool that cannot be made whole is reset. */
        if (pool->op == SC_POOL_OP_RESET || !sc_alloc_pool_repair(ac)) {
            __atomic_store_n(ac->needs_reset, 1, __ATOMIC_RELEASE);
        }
    }
    pool->dirty = 0;
    pool->lock_count++;
    if (__atomic_load_n(ac->needs_reset, __ATOMIC_ACQUIRE)) {
        sc_mutex_unlock(&pool->lock);
        return false;
    }
    if (writer) {
        pool->dirty = 1;
    }
    return true;
}

bool sc_alloc_pool_lock(sc_alloc_ctx *ac)
{
    return sc_alloc_pool_lock_mode(ac, true);
}

bool sc_alloc_pool_lock_walk(sc_alloc_ctx *ac)
{
    return sc_alloc_pool_lock_mode(ac, false);
}

void sc_alloc_pool_unlock(sc_alloc_ctx *ac)
{
    ac->pool->dirty = 0;
    sc_mutex_unlock(&ac->pool->lock);
}

static uint32_t sc_alloc_pool_take_locked(sc_alloc_ctx *ac, uint32_t n, uint16_t owner)
{
    uint32_t head;

    if (!sc_alloc_pool_lock(ac)) {
        return SC_NONE;
    }
    head = sc_alloc_pool_take(ac, n, owner);
    sc_alloc_pool_unlock(ac);
    return head;
}

static void sc_alloc_pool_give_locked(sc_alloc_ctx *ac, uint32_t head, uint32_t run, bool slab)
{
    sc_pool *pool = ac->pool;

    if (!sc_alloc_pool_lock(ac)) {
        return; /* the full reset will take it back */
    }
    if (slab) {
        pool->slab_returns++;
    }
    sc_alloc_pool_give(ac, head, run);
    sc_alloc_pool_unlock(ac);
}

/* Gives back (give) or moves to owner `to` every slab or large run owned by
 * `owner`, walking the runs from page 0 (pool lock held). A walk that finds the runs no longer tiling
 * the area flags the segment for a full reset and stops. */
static uint32_t sc_alloc_walk_owned(sc_alloc_ctx *ac, uint16_t owner, uint16_t to, bool give)
{
    uint32_t p = 0, pages = 0;

    SC_ASSERT(SC_ALLOC_POOL_HELD(ac));

    while (p < ac->npages) {
        sc_page *d = &ac->pages[p];
        uint32_t run = d->run;
        if (run == 0 || run > ac->npages - p || d->kind == SC_PAGE_INNER) {
            /* The runs no longer tile the data area. */
            __atomic_store_n(ac->needs_reset, 1, __ATOMIC_RELEASE);
            break;
        }
        if ((d->kind == SC_PAGE_SLAB || d->kind == SC_PAGE_LARGE) && d->owner == owner) {
            pages += run;
            if (give) {
                /* Merging with free neighbours keeps the extents the walk
                 * reads ahead correct. The pool is marked dirty for this
                 * one run only: a holder killed between two runs leaves
                 * a consistent pool and the rest still owned. */
                __atomic_store_n(&ac->pool->dirty, 1, __ATOMIC_SEQ_CST);
                __atomic_signal_fence(__ATOMIC_SEQ_CST);
                sc_alloc_pool_give(ac, p, run);
                __atomic_signal_fence(__ATOMIC_SEQ_CST);
                __atomic_store_n(&ac->pool->dirty, 0, __ATOMIC_SEQ_CST);
            } else {
                d->owner = to;
            }
        }
        p += run;
    }
    return pages;
}

void sc_alloc_reclaim_shard(sc_alloc_ctx *ac, uint16_t owner)
{
    /* Walk mode: the walk marks the pool dirty around each run it gives,
     * so a repairer killed between two runs costs no reset (the shard is
     * still "owner died": the next locker repairs again). */
    if (!sc_alloc_pool_lock_walk(ac)) {
        return;
    }
    sc_alloc_walk_owned(ac, owner, 0, true);
    sc_alloc_pool_unlock(ac);
}

uint32_t sc_alloc_give_owned_locked(sc_alloc_ctx *ac, uint16_t owner)
{
    SC_ASSERT(SC_ALLOC_POOL_HELD(ac));

    return sc_alloc_walk_owned(ac, owner, 0, true);
}

uint32_t sc_alloc_retag_locked(sc_alloc_ctx *ac, uint16_t from, uint16_t to)
{
    SC_ASSERT(SC_ALLOC_POOL_HELD(ac));

    return sc_alloc_walk_owned(ac, from, to, false);
}

void sc_alloc_init_process(void)
{
    if (!sc_slab_pages[0]) {
        sc_alloc_compute_slab_pages();
    }
}

void sc_alloc_init_pool(sc_alloc_ctx *ac)
{
    sc_pool *pool = ac->pool;
    unsigned b;

    sc_alloc_init_process();
    for (b = 0; b < SC_NBINS; b++) {
        pool->bin_head[b] = SC_NONE;
    }
    pool->bin_mask = 0;
    pool->free_pages = 0;
    pool->total_pages = ac->npages;
    pool->op = SC_POOL_OP_NONE;
    memset(ac->pages, 0, (size_t)ac->npages * sizeof(sc_page));
    sc_alloc_pool_link(ac, 0, ac->npages);
}

void sc_alloc_reset_pool(sc_alloc_ctx *ac)
{
    SC_ASSERT(SC_ALLOC_ALL_HELD(ac));

    (void)sc_alloc_reset_pool_holding(ac, NULL, 0);
}

uint32_t sc_alloc_reset_pool_holding(sc_alloc_ctx *ac, const uint8_t *hold, uint16_t tag)
{
    sc_pool *pool = ac->pool;
    uint32_t p = 0, held = 0;
    unsigned b;

    SC_ASSERT(SC_ALLOC_ALL_HELD(ac));

    sc_mutex_lock(&pool->lock); /* a dead holder's changes are discarded here */
    pool->lock_count++;
    pool->dirty = 1;
    sc_alloc_pool_intent(pool, SC_POOL_OP_RESET, 0, ac->npages);
    for (b = 0; b < SC_NBINS; b++) {
        pool->bin_head[b] = SC_NONE;
    }
    pool->bin_mask = 0;
    pool->free_pages = 0;
    /* Runs that tile the area: each maximal span of held pages becomes a
     * large run owned by tag, each span between them a free run. */
    while (p < ac->npages) {
        bool h = tag && (!hold || (hold[p >> 3] >> (p & 7)) & 1);
        uint32_t q = p + 1;
        while (q < ac->npages && (tag && (!hold || ((hold[q >> 3] >> (q & 7)) & 1))) == h) {
            q++;
        }
        if (h) {
            sc_page *d = &ac->pages[p];
            memset(d, 0, sizeof(*d));
            d->kind = SC_PAGE_LARGE;
            d->run = q - p;
            d->owner = tag;
            d->next = d->prev = SC_NONE;
            if (q - p > 1) {
                ac->pages[q - 1].kind = SC_PAGE_INNER;
                ac->pages[q - 1].head = p;
            }
            held += q - p;
        } else {
            sc_alloc_pool_link(ac, p, q - p);
        }
        p = q;
    }
    sc_alloc_pool_done(pool);
    __atomic_store_n(ac->needs_reset, 0, __ATOMIC_RELEASE);
    sc_alloc_pool_unlock(ac);
    return held;
}

void sc_alloc_init_shard(sc_shard_alloc *sa)
{
    unsigned c, l;

    memset(sa, 0, sizeof(*sa));
    for (l = 0; l < SC_ALLOC_LANES; l++) {
        for (c = 0; c < SC_NCLASSES; c++) {
            sa->lanes[l].partial[c] = SC_NONE;
        }
    }
    sa->spare_head = SC_NONE;
}

/* ---- shard side (caller holds the shard's REPAIR lock) ---- */

void sc_alloc_partial_push(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint32_t lane, uint32_t head)
{
    sc_page *h = &ac->pages[head];
    uint32_t *list = &sa->lanes[lane].partial[h->cls];

    h->prev = SC_NONE;
    h->next = *list;
    if (*list != SC_NONE) {
        ac->pages[*list].prev = head;
    }
    *list = head;
}

/* Unlinks a slab from the partial list it is on: lane `lane`'s if it is
 * there, else (a slab that empties, on whichever lane it was) the list
 * whose head it is, found with one compare per lane (`lane` first: most
 * often the freeing caller's own). */
static void sc_alloc_partial_remove(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint32_t lane, uint32_t head)
{
    sc_page *h = &ac->pages[head];
    uint32_t k;

    if (h->prev != SC_NONE) {
        ac->pages[h->prev].next = h->next;
    } else {
        for (k = 0; k < SC_ALLOC_LANES; k++) {
            uint32_t *list = &sa->lanes[(lane + k) % SC_ALLOC_LANES].partial[h->cls];
            if (*list == head) {
                *list = h->next;
                break;
            }
        }
    }
    if (h->next != SC_NONE) {
        ac->pages[h->next].prev = h->prev;
    }
}

/* ---- spares (caller holds the shard's REPAIR lock) ---- */

static inline uint32_t sc_alloc_spare_cap(const sc_alloc_ctx *ac)
{
    uint32_t cap = ac->npages / ac->nshards / 32;
    return cap > 16 ? 16 : cap;
}

/* Whether an empty slab of run pages may be kept: within the cap, and only
 * while the pool has pages to spare (1/8 of all free), so that spares never
 * stand between a store and memory it needs. */
static inline bool sc_alloc_spare_room(const sc_alloc_ctx *ac, const sc_shard_alloc *sa, uint32_t run)
{
    return sa->spare_pages - sa->kept_pages + run <= sc_alloc_spare_cap(ac)
           && sc_alloc_pool_free_pages(ac) >= ac->npages / 8;
}

static void sc_alloc_spare_push(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint32_t head)
{
    sc_page *h = &ac->pages[head];

    h->prev = SC_NONE;
    h->next = sa->spare_head;
    if (sa->spare_head != SC_NONE) {
        ac->pages[sa->spare_head].prev = head;
    }
    sa->spare_head = head;
    sa->spare_pages += h->run;
}

static void sc_alloc_spare_remove(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint32_t head)
{
    sc_page *h = &ac->pages[head];

    if (h->prev != SC_NONE) {
        ac->pages[h->prev].next = h->next;
    } else {
        sa->spare_head = h->next;
    }
    if (h->next != SC_NONE) {
        ac->pages[h->next].prev = h->prev;
    }
    sa->spare_pages -= h->run;
}

/* Makes pages head..head+run-1 an empty slab run (every page after the head
 * names it) and keeps it as a spare. */
/* Makes the run of `run` pages at `head` an empty slab of class `cls`
 * owned by `owner`: its inner pages name the head, then the head page. */
static void sc_alloc_slab_format(sc_alloc_ctx *ac, uint32_t head, uint32_t run, unsigned cls, uint16_t owner)
{
    sc_page *h = &ac->pages[head];
    uint32_t i;

    for (i = 1; i < run; i++) {
        ac->pages[head + i].kind = SC_PAGE_INNER;
        ac->pages[head + i].head = head;
        ac->pages[head + i].owner = owner;
    }
    h->cls = (uint8_t)cls;
    h->nused = 0;
    h->free_obj = 0;
    h->bump = 0;
    h->owner = owner;
    h->run = run;
    h->head = head;
    h->kind = SC_PAGE_SLAB;
}

static void sc_alloc_spare_keep(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint16_t owner, uint32_t head, uint32_t run)
{
    sc_alloc_slab_format(ac, head, run, 0, owner);
    sc_alloc_spare_push(ac, sa, head);
}

/* Takes a spare for a run of `pages` pages: a longer spare is split (its
 * tail stays a spare), so a slab cut from a spare is no bigger than a new
 * one would be. For slabs (bytes: the object size) a shorter spare also
 * does when it wastes at most 1/8 of itself on `bytes`-sized objects, as
 * the one-page fallback of sc_alloc_slab_new does. Returns the head, SC_NONE when
 * no spare fits. */
static uint32_t sc_alloc_spare_take(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint16_t owner, uint32_t pages, uint32_t bytes)
{
    uint32_t p;

    for (p = sa->spare_head; p != SC_NONE; p = ac->pages[p].next) {
        uint32_t run = ac->pages[p].run;
        uint64_t len = (uint64_t)run << SC_PAGE_SHIFT;
        bool shorter_ok = bytes && len >= bytes && (len % bytes) * 8 <= len;
        if (run < pages && !shorter_ok) {
            continue;
        }
        sc_alloc_spare_remove(ac, sa, p);
        if (run > pages) {
            /* The tail first becomes a spare of its own; only then does the
             * head stop covering it, so the runs always tile the area. */
            sc_alloc_spare_keep(ac, sa, owner, p + pages, run - pages);
            ac->pages[p].run = pages;
        }
        sa->spare_reuses++;
        return p;
    }
    return SC_NONE;
}

uint32_t sc_alloc_flush_spares(sc_alloc_ctx *ac, sc_shard_alloc *sa)
{
    uint32_t pages = 0, l, cls;

    SC_ASSERT(SC_ALLOC_SHARD_HELD(ac, sa));

    if (sa->spare_pages == 0 || !sc_alloc_pool_lock(ac)) {
        return 0;
    }
    while (sa->spare_head != SC_NONE) {
        uint32_t head = sa->spare_head;
        uint32_t run = ac->pages[head].run;
        sc_alloc_spare_remove(ac, sa, head);
        sa->pages -= run;
        pages += run;
        sc_alloc_pool_give(ac, head, run);
    }
    /* The empty one-page slab kept on each lane that has one (sc_alloc_free;
     * lanes[l].kept): the only slab on that lane's lists with no object
     * in use. */
    for (l = 0; l < SC_ALLOC_LANES && sa->kept_pages; l++) {
        for (cls = 0; cls < SC_NCLASSES && sa->lanes[l].kept; cls++) {
            uint32_t p = sa->lanes[l].partial[cls];
            while (p != SC_NONE && ac->pages[p].nused != 0) {
                p = ac->pages[p].next;
            }
            if (p != SC_NONE) {
                uint32_t run = ac->pages[p].run;
                sc_alloc_partial_remove(ac, sa, l, p);
                sa->spare_pages -= run;
                sa->kept_pages -= run;
                sa->lanes[l].kept = 0;
                sa->pages -= run;
                pages += run;
                sc_alloc_pool_give(ac, p, run);
            }
        }
    }
    sc_alloc_pool_unlock(ac);
    return pages;
}

/* Slab head, taken from lane l's list, is about to hand out an object: if
 * it is an emptied slab kept on that lane (sc_alloc_free: no object in use, some
 * handed out before), it stops counting as a spare. */
static inline void sc_alloc_kept_reuse(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint32_t l, uint32_t head)
{
    sc_page *h = &ac->pages[head];

    if (SC_UNLIKELY(h->nused == 0 && h->bump != 0)) {
        sa->spare_pages -= h->run;
        sa->kept_pages -= h->run;
        sa->lanes[l].kept = 0;
    }
}

/* Another lane's first partial slab of class cls moves to lane (its
 * free objects are used there); counted in lane_steals. */
static uint32_t sc_alloc_lane_steal(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint32_t other, uint32_t lane, unsigned cls)
{
    uint32_t head = sa->lanes[other].partial[cls];

    sc_alloc_kept_reuse(ac, sa, other, head);
    sc_alloc_partial_remove(ac, sa, other, head);
    sc_alloc_partial_push(ac, sa, lane, head);
    sa->lane_steals++;
    return head;
}

/* A slab for lane `lane` of class cls, pushed on its partial list: an
 * empty spare of the shard, else a new one from the pool - while the pool
 * keeps its reserve (an eighth of all pages free) or no other lane has a
 * slab of the class with a free object - else another lane's partial slab,
 * else (the pool below its reserve) a new one from the pool after all.
 * SC_NONE when nothing is left. */
static uint32_t sc_alloc_slab_new(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint16_t owner, unsigned cls, uint32_t lane)
{
    uint32_t n = sc_slab_pages[cls], head, other = SC_ALLOC_LANES, k;
    sc_page *h;

    head = sc_alloc_spare_take(ac, sa, owner, n, sc_class_size[cls]);
    if (head != SC_NONE) {
        /* A spare's pages already name it and are counted in sa->pages. */
        h = &ac->pages[head];
        h->cls = (uint8_t)cls;
        h->nused = 0;
        h->free_obj = 0;
        h->bump = 0;
        sc_alloc_partial_push(ac, sa, lane, head);
        return head;
    }
    for (k = 1; k < SC_ALLOC_LANES; k++) {
        uint32_t l = (lane + k) % SC_ALLOC_LANES;
        if (sa->lanes[l].partial[cls] != SC_NONE) {
            other = l;
            break;
        }
    }
    if (other < SC_ALLOC_LANES && sc_alloc_pool_free_pages(ac) < ac->npages / 8) {
        /* The pool is down to its reserve: use the free objects another
         * lane has (a lane whose process left keeps its slabs only until
         * then). The slab moves to this lane. */
        return sc_alloc_lane_steal(ac, sa, other, lane, cls);
    }
    head = sc_alloc_pool_take_locked(ac, n, owner);
    if (head == SC_NONE && n > 1 && sc_class_size[cls] <= SC_PAGE_SIZE) {
        /* No run that long: a one-page slab wastes more but never fails
         * for want of contiguous pages. */
        n = 1;
        head = sc_alloc_pool_take_locked(ac, n, owner);
    }
    if (head == SC_NONE) {
        if (other < SC_ALLOC_LANES) {
            /* The pool had its reserve a moment ago but not now. */
            return sc_alloc_lane_steal(ac, sa, other, lane, cls);
        }
        return SC_NONE;
    }
    __atomic_fetch_add(&ac->pool->slab_refills, 1, __ATOMIC_RELAXED);
    sc_alloc_slab_format(ac, head, n, cls, owner);
    sa->pages += n;
    sc_alloc_partial_push(ac, sa, lane, head);
    return head;
}

sc_off sc_alloc(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint16_t owner, uint64_t size, uint32_t lane)
{
    uint32_t head, obj;
    sc_page *h;
    char *slab;
    unsigned cls;

    SC_ASSERT(SC_ALLOC_SHARD_HELD(ac, sa));

    lane %= SC_ALLOC_LANES;
    if (size == 0) {
        size = 1;
    }
    if (size > SC_MAX_SMALL) {
        uint64_t n64 = (size + SC_PAGE_SIZE - 1) >> SC_PAGE_SHIFT;
        uint32_t n;
        if (n64 > ac->npages) {
            return 0;
        }
        n = (uint32_t)n64;
        head = sc_alloc_spare_take(ac, sa, owner, n, 0);
        if (head != SC_NONE) {
            sa->pages -= n; /* counted again below */
        } else {
            head = sc_alloc_pool_take_locked(ac, n, owner);
            if (head == SC_NONE) {
                return 0;
            }
            __atomic_fetch_add(&ac->pool->large_allocs, 1, __ATOMIC_RELAXED);
        }
        h = &ac->pages[head];
        h->kind = SC_PAGE_LARGE;
        h->owner = owner;
        h->run = n;
        h->head = head;
        if (n > 1) {
            ac->pages[head + n - 1].kind = SC_PAGE_INNER;
            ac->pages[head + n - 1].head = head;
        }
        sa->pages += n;
        sa->lanes[lane].used_bytes += (uint64_t)n << SC_PAGE_SHIFT;
        sa->lanes[lane].nobjects++;
        return sc_alloc_off(ac, sc_alloc_page_addr(ac, head));
    }

    cls = sc_alloc_class_of(size);
    head = sa->lanes[lane].partial[cls];
    if (head == SC_NONE) {
        head = sc_alloc_slab_new(ac, sa, owner, cls, lane);
        if (head == SC_NONE) {
            return 0;
        }
    } else {
        sc_alloc_kept_reuse(ac, sa, lane, head);
    }
    h = &ac->pages[head];
    slab = sc_alloc_page_addr(ac, head);
    if (h->free_obj) {
        obj = h->free_obj - 1;
        memcpy(&h->free_obj, slab + obj, sizeof(uint32_t));
    } else {
        obj = h->bump;
        h->bump += sc_class_size[cls];
    }
    h->nused++;
    if (h->nused == sc_alloc_slab_objects(h)) {
        sc_alloc_partial_remove(ac, sa, lane, head);
    }
    sa->lanes[lane].used_bytes += sc_class_size[cls];
    sa->lanes[lane].nobjects++;
    return sc_alloc_off(ac, slab + obj);
}

sc_off sc_alloc_run_upto(sc_alloc_ctx *ac, sc_shard_alloc *sa, uint16_t owner, uint32_t max_pages, uint32_t *got,
                         uint32_t lane)
{
    sc_pool *pool = ac->pool;
    uint32_t head, run;
    sc_page *h;

    SC_ASSERT(SC_ALLOC_SHARD_HELD(ac, sa));

    *got = 0;
    if (max_pages == 0 || !sc_alloc_pool_lock(ac)) {
        return 0;
    }
    head = sc_alloc_pool_take(ac, max_pages, owner);
    if (head == SC_NONE && pool->bin_mask) {
        /* Nothing that long: the first run of the highest bin, whole. */
        head = pool->bin_head[31 - __builtin_clz(pool->bin_mask)];
        run = ac->pages[head].run;
        head = sc_alloc_pool_take(ac, run < max_pages ? run : max_pages, owner);
    }
    sc_alloc_pool_unlock(ac);
    if (head == SC_NONE) {
        return 0;
    }
    h = &ac->pages[head];
    run = h->run;
    __atomic_fetch_add(&pool->large_allocs, 1, __ATOMIC_RELAXED);
    h->kind = SC_PAGE_LARGE;
    h->owner = owner;
    h->head = head;
    if (run > 1) {
        ac->pages[head + run - 1].kind = SC_PAGE_INNER;
        ac->pages[head + run - 1].head = head;
    }
    sa->pages += run;
    lane %= SC_ALLOC_LANES;
    sa->lanes[lane].used_bytes += (uint64_t)run << SC_PAGE_SHIFT;
    sa->lanes[lane].nobjects++;
    *got = run;
    return sc_alloc_off(ac, sc_alloc_page_addr(ac, head));
}

void sc_alloc_free(sc_alloc_ctx *ac, sc_shard_alloc *sa, sc_off off, uint32_t lane)
{
    uint32_t page = (uint32_t)((off - ac->data_off) >> SC_PAGE_SHIFT);
    uint32_t obj, cap;
    sc_page *h = &ac->pages[page];
    char *slab;
    bool was_full;
    sc_alloc_lane *l;

    SC_ASSERT(SC_ALLOC_SHARD_HELD(ac, sa));

    lane %= SC_ALLOC_LANES;
    l = &sa->lanes[lane];

    if (h->kind == SC_PAGE_INNER) {
        page = h->head;
        h = &ac->pages[page];
    }
    l->nobjects--;
    if (h->kind == SC_PAGE_LARGE) {
        uint32_t run = h->run;
        l->used_bytes -= (uint64_t)run << SC_PAGE_SHIFT;
        sa->pages -= run;
        sc_alloc_pool_give_locked(ac, page, run, false);
        return;
    }
    /* SC_PAGE_SLAB */
    slab = sc_alloc_page_addr(ac, page);
    obj = (uint32_t)(ac->base + off - slab);
    memcpy(slab + obj, &h->free_obj, sizeof(uint32_t));
    h->free_obj = obj + 1;
    cap = sc_alloc_slab_objects(h);
    was_full = h->nused == cap;
    h->nused--;
    l->used_bytes -= sc_class_size[h->cls];
    if (h->nused == 0) {
        uint32_t run = h->run;
        if (!was_full && run == 1 && h->prev == SC_NONE && h->next == SC_NONE && !l->kept
            && l->partial[h->cls] == page && sc_alloc_pool_free_pages(ac) >= ac->npages / 8) {
            /* The only partial slab of its class on the caller's lane: it
             * stays there, counted as a spare (only while the pool keeps
             * its reserve, one page per lane and shard at most - not under
             * the spares' cap: with more lanes storing than the cap has
             * pages, their slabs would go to the pool and back at every
             * store; given back by sc_alloc_flush_spares), so that a
             * process storing and deleting its own keys does not move its
             * slab to the spares and back at every store. */
            sa->spare_pages += run;
            sa->kept_pages += run;
            l->kept = 1;
            return;
        }
        if (!was_full) {
            sc_alloc_partial_remove(ac, sa, lane, page); /* whichever lane has it */
        }
        if (sc_alloc_spare_room(ac, sa, run)) {
            sc_alloc_spare_push(ac, sa, page);
            return;
        }
        sa->pages -= run;
        sc_alloc_pool_give_locked(ac, page, run, true);
    } else if (was_full) {
        sc_alloc_partial_push(ac, sa, lane, page);
    }
}

void sc_alloc_figures_get(const sc_shard_alloc *sa, sc_alloc_figures *out)
{
    uint64_t used = 0, requested = 0, n = 0;
    unsigned l;

    for (l = 0; l < SC_ALLOC_LANES; l++) {
        used += __atomic_load_n(&sa->lanes[l].used_bytes, __ATOMIC_RELAXED);
        requested += __atomic_load_n(&sa->lanes[l].requested_bytes, __ATOMIC_RELAXED);
        n += __atomic_load_n(&sa->lanes[l].nobjects, __ATOMIC_RELAXED);
    }
    out->used_bytes = (int64_t)used < 0 ? 0 : used;
    out->requested_bytes = (int64_t)requested < 0 ? 0 : requested;
    out->nobjects = (int64_t)n < 0 ? 0 : n;
}

uint64_t sc_alloc_usable(uint64_t size)
{
    if (size > SC_MAX_SMALL) {
        return SC_ALIGN_UP(size, SC_PAGE_SIZE);
    }
    return sc_class_size[sc_alloc_class_of(size ? size : 1)];
}

uint64_t sc_alloc_max_request(const sc_alloc_ctx *ac)
{
    return (uint64_t)ac->npages << SC_PAGE_SHIFT;
}

uint32_t sc_alloc_pool_free_pages(const sc_alloc_ctx *ac)
{
    return __atomic_load_n(&ac->pool->free_pages, __ATOMIC_RELAXED);
}
