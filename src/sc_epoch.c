/*
 * sc_epoch.c - epoch-based reclamation of zero-copy entries.
 *
 * Owns: the epoch table in the segment header (sc_epoch_table: the global
 * epoch, one published epoch per liveness slot, the held sets, the
 * zero-copy figures), the per-shard retire lists (sc_retire_list in each
 * sc_shard) and the calling thread's own epoch (thread-local).
 *
 * Readers set their slot's inside bit, publish global + 1 in their
 * liveness slot's epoch slot (store, full fence) before reading any table,
 * and keep it until the request's memory is gone (then 0, bit cleared).
 * Writers free an unlinked SC_ENTRY_ZC entry at once when no live thread
 * is inside (sc_epoch_any_reader: fence, the slots whose bit is set, the
 * covers), else retire it: fence, bump the global epoch, stamp the entry
 * with the new value s, append it to the shard's retire list. It is freed
 * once every live published epoch is > s. Scans are throttled (once a
 * second or 64 retirements, unless forced); their result, and a look that
 * found nobody inside, only raise table->safe.
 *
 * Forks. A thread that forks inside an epoch covers the child until it
 * has a slot of its own (sc_epoch_prepare and sc_epoch_child here; the
 * cover cells, held by record locks that end with their holders, are
 * sc_epoch_cover.c's).
 *
 * Repairs and resets. A shard repaired with its entries kept while a live
 * reader is inside an epoch gets a new retire list: every zero-copy entry
 * of its runs that no kept entry uses, stamped anew
 * (sc_epoch_shard_retire_kept; sc_shard_repair.c says why that is all a
 * reader may hold). A shard emptied by a repair in that case moves its
 * runs to a held set (sc_epoch_shard_hold), given back once the readers
 * inside have left. A full reset of the pool with readers
 * inside keeps every page they may hold out of the new pool as held set 0
 * (sc_epoch_reset_collect, sc_epoch_reset_holding).
 *
 * Locks: retire lists: their shard's REPAIR lock. The epoch slots, the
 * inside bits and the figures: atomics (the cover cells: see
 * sc_epoch_cover.c). Held sets: the pool
 * lock in walk mode, or the clearer's global and shard locks. reset_open:
 * the clearer's locks.
 * Death: a reader killed inside an epoch is ignored by scans once its
 * liveness slot reads gone. A writer killed while retiring leaves the
 * figures approximate (they saturate at 0) and its shard is repaired
 * (sc_shard.c, which calls sc_epoch_shard_retire_kept or
 * sc_epoch_shard_hold). A repairer killed while writing the new retire
 * list leaves the shard "owner died": the next locker repairs again and
 * finds the same entries (their flags and sizes are not written). A repairer killed while
 * moving runs leaves them split between the shard and the set: the next
 * locker repairs again. A death inside a full reset leaves reset_open set:
 * the next reset holds every page of the pool. A fork child killed before
 * its handler ran, or while it has no slot, and a fork that failed, leave
 * no cover: the kernel releases its lock (sc_epoch_cover.c).
 *
 * Design: docs/internals.md#sc_epoch
 */
#include "sc_epoch.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sc_layout.h"
#include "sc_entry.h"
#include "sc_table.h"
#include "sc_pin.h"
#include "sc_epoch_cover.h"

_Static_assert(SC_EPOCH_SLOTS == SC_LIVE_SLOTS, "one epoch slot per liveness slot");

static _Thread_local struct {
    char *base;             /* the mapping the epoch was published in */
    uint32_t idx;           /* slot index (not when covered) */
    int lock_fd;            /* that mapping's lock file (sc_epoch_lock_fd) */
    sc_epoch_hold hold;     /* covered: the cover share that holds epoch */
    bool covered;           /* a fork child without a slot: epoch is held
                               by a cover (hold), not by a slot; it may not
                               borrow anything new */
    uint64_t epoch;         /* 0: not inside */
} sc_epoch_mine;

static uint64_t sc_epoch_held_free(sc_seg *seg, uint64_t safe);

static pthread_once_t sc_epoch_once = PTHREAD_ONCE_INIT;
/* Set by the prepare handler, read by the parent and child handlers: all
 * three run in the forking thread (the child's one thread is its copy),
 * so two threads forking at once each keep their own. */
static _Thread_local sc_epoch_table *sc_epoch_fork_table;
static _Thread_local sc_live_table *sc_epoch_fork_live;
static _Thread_local sc_epoch_hold sc_epoch_fork_hold;  /* the child's cover share */

static uint64_t sc_epoch_sat_sub(uint64_t *p, uint64_t v)
{
    uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED), nv;

    /* Repeats while another thread changed *p between the load and the
     * swap (or the weak swap failed spuriously). */
    do {
        nv = old > v ? old - v : 0;
    } while (!__atomic_compare_exchange_n(p, &old, nv, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return nv;
}

static inline uint64_t sc_epoch_bit(uint32_t idx)
{
    return UINT64_C(1) << (idx % 64);
}

/* Before a nonzero epoch (sc_epoch_table.inside): a scanner that does not
 * see the bit read it before this thread reads any table. */
static void sc_epoch_mark_inside(sc_epoch_table *t, uint32_t idx)
{
    __atomic_fetch_or(&t->inside[idx / 64].bits, sc_epoch_bit(idx), __ATOMIC_SEQ_CST);
}

/* After the slot's epoch went back to 0. */
static void sc_epoch_mark_outside(sc_epoch_table *t, uint32_t idx)
{
    __atomic_fetch_and(&t->inside[idx / 64].bits, ~sc_epoch_bit(idx), __ATOMIC_RELEASE);
}

/* Runs the statement after it for each slot i whose inside bit is set
 * (each word read once, seq_cst: after the caller's unlink and fence). */
#define SC_EPOCH_FOR_INSIDE(t, i)                                                                   \
    for (uint32_t sc_w_ = 0; sc_w_ < SC_EPOCH_SLOTS / 64; sc_w_++)                                   \
        for (uint64_t sc_m_ = __atomic_load_n(&(t)->inside[sc_w_].bits, __ATOMIC_SEQ_CST); sc_m_;          \
             sc_m_ &= sc_m_ - 1)                                                                     \
            if (((i) = sc_w_ * 64 + (uint32_t)__builtin_ctzll(sc_m_)), 1)

static void sc_epoch_publish(sc_epoch_table *t, uint32_t idx, sc_owner token, uint64_t epoch)
{
    SC_ASSERT(idx < SC_EPOCH_SLOTS && epoch != 0);

    sc_epoch_mark_inside(t, idx);
    __atomic_store_n(&t->slots[idx].owner, token, __ATOMIC_RELAXED);
    __atomic_store_n(&t->slots[idx].epoch, epoch, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* The descriptor of seg's lock file in this process (sc_epoch_cover.h):
 * a named segment's file, an anonymous one's memfd; -1 when none. */
static int sc_epoch_lock_fd(const sc_seg *seg)
{
    return seg->named ? seg->fd : seg->cover_fd;
}

/* Fork inside an epoch. The child inherits pointers into zero-copy values
 * and must keep them safe until it has an epoch slot of its own, whatever
 * the parent does meanwhile (leave, exit, be killed) and however late the
 * child runs: the parent adds it to a cover cell before the fork, holding
 * the cell's lock through a file description the child inherits
 * (sc_epoch_cover.c); the parent closes its copy after fork() returns,
 * the child once published. A failed fork or a child killed before its
 * handler leaves nobody holding the lock: the cell is emptied. Nothing
 * waits. */
static void sc_epoch_prepare(void)
{
    sc_epoch_fork_table = NULL;
    if (sc_epoch_mine.epoch) {
        sc_header *hdr = (sc_header *)sc_epoch_mine.base;
        uint32_t cell = sc_epoch_mine.covered ? sc_epoch_mine.hold.cell : sc_epoch_mine.idx % SC_EPOCH_COVERS;
        sc_epoch_fork_table = &hdr->epochs;
        sc_epoch_fork_live = &hdr->live;
        sc_epoch_cover_add(&hdr->epochs, sc_epoch_mine.lock_fd, cell, sc_epoch_mine.epoch, &sc_epoch_fork_hold);
    }
}

/* Runs whether the fork succeeded or not. */
static void sc_epoch_parent(void)
{
    if (sc_epoch_fork_table) {
        sc_epoch_cover_parent_done(sc_epoch_fork_table, sc_epoch_mine.lock_fd, &sc_epoch_fork_hold);
    }
    sc_epoch_fork_table = NULL;
}

/* Publishes the covered epoch in a slot of the caller's own, then gives
 * the cover share up. fork_ack is bumped in between: a scan that ran
 * across both (it may have read the slot before and the cell after) sees
 * it change and does not trust what it found. */
static void sc_epoch_uncover(sc_epoch_table *t, sc_owner token)
{
    sc_epoch_mine.idx = (uint32_t)(token & UINT32_MAX) - 1;
    sc_epoch_publish(t, sc_epoch_mine.idx, token, sc_epoch_mine.epoch);
    __atomic_fetch_add(&t->fork_ack, 1, __ATOMIC_SEQ_CST);
    sc_epoch_cover_release(t, sc_epoch_mine.lock_fd, &sc_epoch_mine.hold);
    sc_epoch_mine.covered = false;
}

static void sc_epoch_child(void)
{
    sc_epoch_table *t = sc_epoch_fork_table;
    sc_owner token;

    sc_epoch_fork_table = NULL;
    if (!t || !sc_epoch_mine.epoch) {
        return;
    }
    /* Forked by a coverless child: its share is its own, not this one's. */
    if (sc_epoch_mine.covered) {
        sc_epoch_cover_forget(&sc_epoch_mine.hold);
    }
    /* sc_live's own child handler (registered first) forgot the parent's
     * token: this takes a slot of the child's own. */
    token = sc_live_self(sc_epoch_fork_live);
    sc_epoch_mine.hold = sc_epoch_fork_hold;
    sc_epoch_mine.covered = true;
    if (token) {
        sc_epoch_uncover(t, token);
    }
    /* Else no slot: the cover stays, so what the child inherited stays
     * valid; it borrows nothing new (sc_epoch_inside is false) and gives
     * the cover up when it gets a slot (sc_epoch_enter) or leaves. */
}

static void sc_epoch_register_atfork(void)
{
    pthread_atfork(sc_epoch_prepare, sc_epoch_parent, sc_epoch_child);
}

bool sc_epoch_inside(const sc_seg *seg)
{
    return sc_epoch_mine.epoch && !sc_epoch_mine.covered && sc_epoch_mine.base == seg->base;
}

bool sc_epoch_enter(sc_seg *seg)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    sc_owner token;
    uint32_t idx;
    uint64_t epoch;

    if (sc_epoch_mine.epoch && sc_epoch_mine.base == seg->base) {
        if (SC_LIKELY(!sc_epoch_mine.covered)) {
            return true;
        }
        /* A fork child without a slot: one now (sc_live_self looks again
         * only every few thousand calls) takes its cover over. */
        token = sc_live_self(&seg->hdr->live);
        if (!token) {
            return false;
        }
        sc_epoch_uncover(t, token);
        return true;
    }
    token = sc_live_self(&seg->hdr->live);
    if (!token) {
        return false;
    }
    pthread_once(&sc_epoch_once, sc_epoch_register_atfork);
    idx = (uint32_t)(token & UINT32_MAX) - 1;
    epoch = __atomic_load_n(&t->global, __ATOMIC_SEQ_CST) + 1;
    sc_epoch_publish(t, idx, token, epoch);
    sc_epoch_mine.base = seg->base;
    sc_epoch_mine.lock_fd = sc_epoch_lock_fd(seg);
    sc_epoch_mine.idx = idx;
    sc_epoch_mine.covered = false;
    sc_epoch_mine.epoch = epoch;
    return true;
}

void sc_epoch_leave(sc_seg *seg)
{
    if (!sc_epoch_mine.epoch) {
        return;
    }
    if (seg->base == sc_epoch_mine.base && sc_epoch_mine.covered) {
        sc_epoch_cover_release(&seg->hdr->epochs, sc_epoch_mine.lock_fd, &sc_epoch_mine.hold);
        __atomic_fetch_add(&seg->hdr->epochs.leaves, 1, __ATOMIC_RELEASE);
        sc_epoch_mine.epoch = 0;
        sc_epoch_mine.covered = false;
        return;
    }
    if (seg->base == sc_epoch_mine.base) {
        __atomic_store_n(&seg->hdr->epochs.slots[sc_epoch_mine.idx].epoch, 0, __ATOMIC_RELEASE);
        sc_epoch_mark_outside(&seg->hdr->epochs, sc_epoch_mine.idx);
        __atomic_fetch_add(&seg->hdr->epochs.leaves, 1, __ATOMIC_RELEASE);
        sc_epoch_mine.epoch = 0;
        sc_epoch_poll(seg, false);  /* held sets this leave may free */
        return;
    }
    /* Another mapping's epoch: its cover ends with the description. */
    if (sc_epoch_mine.covered) {
        sc_epoch_cover_forget(&sc_epoch_mine.hold);
    }
    sc_epoch_mine.epoch = 0;
    sc_epoch_mine.covered = false;
}

/* Raises t->safe to min (compare-and-swap, no lock; never lowers it). */
static void sc_epoch_raise_safe(sc_epoch_table *t, uint64_t min)
{
    uint64_t safe = __atomic_load_n(&t->safe, __ATOMIC_RELAXED);

    /* Repeats while another thread changed t->safe between the load and
     * the swap (or the weak swap failed spuriously), until it is min or
     * above. */
    while (safe < min && !__atomic_compare_exchange_n(&t->safe, &safe, min, true, __ATOMIC_RELAXED,
                                                      __ATOMIC_RELAXED)) {
    }
}

/* One pass of sc_epoch_scan: the smallest epoch published (global + 1
 * when none) in *min_out, where (at: the slot's index + 1, 0 for a fork
 * cover or none) and whose (owner), and t->safe as read at its end in
 * *safe_out. False when a cover moved to a slot during the pass (fork_ack
 * moved), which may have read the slot before and the cell after: the
 * pass tells nothing then. */
static bool sc_epoch_scan_pass(sc_seg *seg, int64_t now, uint64_t *min_out, uint32_t *at_out, uint64_t *owner_out,
                               uint64_t *safe_out)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    uint64_t min, owner = 0, acks;
    uint32_t i, at = 0;

    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    acks = __atomic_load_n(&t->fork_ack, __ATOMIC_SEQ_CST);
    min = __atomic_load_n(&t->global, __ATOMIC_SEQ_CST) + 1;
    __atomic_store_n(&t->scan_time, now, __ATOMIC_RELAXED);
    __atomic_store_n(&t->scan_global, min - 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&t->scans, 1, __ATOMIC_RELAXED);
    SC_EPOCH_FOR_INSIDE(t, i) {
        uint64_t e = __atomic_load_n(&t->slots[i].epoch, __ATOMIC_ACQUIRE), o;
        if (!e || e >= min) {
            continue;
        }
        o = __atomic_load_n(&t->slots[i].owner, __ATOMIC_RELAXED);
        if (sc_live_gone(&seg->hdr->live, o)) {
            continue;
        }
        min = e;
        at = i + 1;
        owner = o;
    }
    /* Fork children that hold inherited values without a slot of their
     * own (sc_epoch_prepare). */
    SC_EPOCH_FOR_COVERS(t, i) {
        uint64_t e = sc_epoch_cover_epoch(t, sc_epoch_lock_fd(seg), i);
        if (e && e < min) {
            min = e;
            at = 0;
        }
    }
    *safe_out = __atomic_load_n(&t->safe, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    *min_out = min;
    *at_out = at;
    *owner_out = owner;
    return __atomic_load_n(&t->fork_ack, __ATOMIC_SEQ_CST) == acks;
}

/* The smallest epoch a live thread has published (global + 1 when none),
 * raising t->safe to it. Remembers which slot held it back (blocker). */
static uint64_t sc_epoch_scan(sc_seg *seg, int64_t now)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    uint64_t min, safe = 0, owner;
    uint32_t at, tries;

    /* Repeats while a cover moves to a slot during the pass (a fork child
     * took a slot of its own): at most 4 passes, then nothing is raised
     * (t->safe as the last pass read it). */
    for (tries = 0; tries < 4; tries++) {
        if (sc_epoch_scan_pass(seg, now, &min, &at, &owner, &safe)) {
            __atomic_store_n(&t->blocker_epoch, min, __ATOMIC_RELAXED);
            __atomic_store_n(&t->blocker_owner, owner, __ATOMIC_RELAXED);
            __atomic_store_n(&t->blocker, at, __ATOMIC_RELAXED);
            sc_epoch_raise_safe(t, min);
            return min;
        }
    }
    return safe;
}

/* True when a scan now could raise nothing: within the second of the last
 * scan, the reader that held it back is still inside with the same epoch
 * (every epoch published since is newer; its liveness slot says it is
 * alive: a trylock that fails, no syscall), or nothing happened since (no
 * leave, fewer than 64 retirements). */
static bool sc_epoch_blocked(sc_seg *seg, int64_t now, bool leaves_too)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    uint64_t b, owner;

    if (now != __atomic_load_n(&t->scan_time, __ATOMIC_RELAXED)) {
        return false;
    }
    b = __atomic_load_n(&t->blocker, __ATOMIC_RELAXED);
    owner = __atomic_load_n(&t->blocker_owner, __ATOMIC_RELAXED);
    if (b && b <= SC_EPOCH_SLOTS
        && __atomic_load_n(&t->slots[b - 1].epoch, __ATOMIC_RELAXED) == __atomic_load_n(&t->blocker_epoch, __ATOMIC_RELAXED)
        && __atomic_load_n(&t->slots[b - 1].owner, __ATOMIC_RELAXED) == owner
        && !sc_live_gone(&seg->hdr->live, owner)) {
        return true;
    }
    return (!leaves_too || __atomic_load_n(&t->leaves, __ATOMIC_ACQUIRE) == __atomic_load_n(&t->scan_leaves, __ATOMIC_RELAXED))
           && __atomic_load_n(&t->global, __ATOMIC_RELAXED) - __atomic_load_n(&t->scan_global, __ATOMIC_RELAXED) < 64;
}

bool sc_epoch_any_reader(sc_seg *seg)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    uint64_t acks, any;
    uint32_t i;

    /* Slots, then covers, in the order of sc_epoch_scan (a parent adds
     * its child's cover while still in its slot; a child publishes in its
     * slot, bumps fork_ack, then drops its cover): a change of fork_ack
     * meanwhile counts as a reader. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    acks = __atomic_load_n(&t->fork_ack, __ATOMIC_SEQ_CST);
    /* The usual answer when nobody reads: every inside word 0 (one pass,
     * no branch a word), no cover. */
    for (i = 0, any = 0; i < SC_EPOCH_SLOTS / 64; i++) {
        any |= __atomic_load_n(&t->inside[i].bits, __ATOMIC_SEQ_CST);
    }
    if (any) {
        SC_EPOCH_FOR_INSIDE(t, i) {
            if (__atomic_load_n(&t->slots[i].epoch, __ATOMIC_ACQUIRE)
                && !sc_live_gone(&seg->hdr->live, __atomic_load_n(&t->slots[i].owner, __ATOMIC_RELAXED))) {
                return true;
            }
        }
    }
    if (!__atomic_load_n(&t->cover_mask, __ATOMIC_SEQ_CST)) {
        return false;
    }
    SC_EPOCH_FOR_COVERS(t, i) {
        if (sc_epoch_cover_epoch(t, sc_epoch_lock_fd(seg), i)) {
            return true;
        }
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return __atomic_load_n(&t->fork_ack, __ATOMIC_SEQ_CST) != acks;
}

uint32_t sc_epoch_count_readers(sc_seg *seg)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    uint32_t i, n = 0;

    /* A cover cell counts as one reader while anybody holds it. */
    SC_EPOCH_FOR_COVERS(t, i) {
        n += sc_epoch_cover_epoch(t, sc_epoch_lock_fd(seg), i) != 0;
    }
    for (i = 0; i < SC_EPOCH_SLOTS; i++) {
        if (__atomic_load_n(&t->slots[i].epoch, __ATOMIC_ACQUIRE)
            && !sc_live_gone(&seg->hdr->live, __atomic_load_n(&t->slots[i].owner, __ATOMIC_RELAXED))) {
            n++;
        }
    }
    return n;
}

static inline sc_entry *sc_epoch_retired_at(sc_seg *seg, sc_off off)
{
    return (sc_entry *)(seg->base + off);
}

void sc_epoch_adopt(sc_seg *seg, sc_shard *shard, sc_entry *e)
{
    SC_ASSERT(sc_layout_shard_repair_held(shard));

    e->flags |= SC_ENTRY_ZC;
    shard->retire.zc_bytes += e->mem_size;
    __atomic_fetch_add(&seg->hdr->epochs.zc_bytes, e->mem_size, __ATOMIC_RELAXED);
}

uint64_t sc_epoch_reclaim(sc_seg *seg, sc_shard *shard, bool force)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    sc_retire_list *l = &shard->retire;
    uint64_t safe, freed = 0, n = 0;

    SC_ASSERT(sc_layout_shard_repair_held(shard));

    if (!l->head) {
        return 0;
    }
    safe = __atomic_load_n(&t->safe, __ATOMIC_RELAXED);
    if (sc_epoch_retired_at(seg, l->head)->stamp >= safe) {
        int64_t now = (int64_t)time(NULL);
        if (!force && sc_epoch_blocked(seg, now, false)) {
            return 0;
        }
        safe = sc_epoch_scan(seg, now);
        sc_epoch_held_free(seg, safe);
    }
    while (l->head && sc_epoch_retired_at(seg, l->head)->stamp < safe) {
        sc_entry *e = sc_epoch_retired_at(seg, l->head);
        uint64_t mem = e->mem_size;
        l->head = (sc_off)e->scalar;
        if (!l->head) {
            l->tail = 0;
        }
        l->bytes = l->bytes > mem ? l->bytes - mem : 0;
        l->zc_bytes = l->zc_bytes > mem ? l->zc_bytes - mem : 0;
        sc_entry_free(seg, shard, e);
        freed += mem;
        n++;
    }
    if (freed) {
        sc_epoch_sat_sub(&t->retired_bytes, freed);
        sc_epoch_sat_sub(&t->zc_bytes, freed);
        __atomic_fetch_add(&t->reclaimed, n, __ATOMIC_RELAXED);
    }
    return freed;
}

bool sc_epoch_release_entry(sc_seg *seg, sc_shard *shard, sc_entry *e)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    sc_retire_list *l = &shard->retire;
    uint64_t stamp, min;

    SC_ASSERT(sc_layout_shard_repair_held(shard));

    if (SC_LIKELY(!(e->flags & SC_ENTRY_ZC))) {
        sc_entry_free(seg, shard, e);
        return false;
    }
    /* The unlink (a table store) happened before. With no thread inside an
     * epoch now (sc_epoch_any_reader fences first), nobody holds the value:
     * a thread entering from here on reads the tables after its publish and
     * cannot find the entry. */
    min = __atomic_load_n(&t->global, __ATOMIC_SEQ_CST) + 1;
    if (!sc_epoch_any_reader(seg)) {
        uint64_t mem = e->mem_size;
        /* Whatever was retired before the look (stamp < min), in every
         * shard, was unlinked before it: a thread that entered since reads
         * the tables after and cannot hold it. So min is safe, as after a
         * scan (which reads global first too); this shard's list goes now. */
        sc_epoch_raise_safe(t, min);
        l->zc_bytes = l->zc_bytes > mem ? l->zc_bytes - mem : 0;
        sc_epoch_sat_sub(&t->zc_bytes, mem);
        sc_entry_free(seg, shard, e);
        if (l->head) {
            sc_epoch_reclaim(seg, shard, false);
        }
        /* Other shards' retired entries are free to go too. */
        return __atomic_load_n(&t->retired_bytes, __ATOMIC_RELAXED) != 0;
    }
    /* Else order the unlink before the bump and before any scan that could
     * free the entry. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (e->ttl == SC_TTL_GONE) {
        /* A key deleted without the lock, counted as a kept entry until
         * now (sc_entry_free would count it out only when it is freed):
         * it is in no table any more. Nothing reads a retired entry's ttl
         * (its unlink moved the shard's counter: an optimistic reader that
         * found it does not trust what it read). */
        sc_alloc_gone_add(&shard->alloc, sc_pin_lane(shard), -1);
        e->ttl = 0;
    }
    stamp = __atomic_fetch_add(&t->global, 1, __ATOMIC_SEQ_CST) + 1;
    e->stamp = stamp;
    e->scalar = 0;
    if (l->tail) {
        sc_epoch_retired_at(seg, l->tail)->scalar = (int64_t)sc_seg_off(seg, e);
    } else {
        l->head = sc_seg_off(seg, e);
    }
    l->tail = sc_seg_off(seg, e);
    l->bytes += e->mem_size;
    __atomic_fetch_add(&t->retired_bytes, e->mem_size, __ATOMIC_RELAXED);
    __atomic_fetch_add(&t->retired, 1, __ATOMIC_RELAXED);
    sc_epoch_reclaim(seg, shard, false);
    return false;
}

bool sc_epoch_reclaimable(sc_seg *seg, sc_shard *shard)
{
    sc_off head = __atomic_load_n(&shard->retire.head, __ATOMIC_RELAXED);
    uint64_t stamp;

    if (!head) {
        return false;
    }
    if (head > seg->size - sizeof(sc_entry)) {
        return true;    /* torn or stale: let the locked look decide */
    }
    /* No lock: the head may be freed and reused meanwhile; the stamp read
     * is a hint (a wrong one costs a lock, or one pass's delay). */
    stamp = __atomic_load_n(&sc_epoch_retired_at(seg, head)->stamp, __ATOMIC_RELAXED);
    return stamp < __atomic_load_n(&seg->hdr->epochs.safe, __ATOMIC_RELAXED);
}

bool sc_epoch_rescan_due(sc_seg *seg)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    uint64_t leaves = __atomic_load_n(&t->leaves, __ATOMIC_ACQUIRE);
    int64_t now = (int64_t)time(NULL);

    SC_ASSERT(sc_layout_holds_none(seg));

    if (sc_epoch_blocked(seg, now, true)) {
        return false;
    }
    __atomic_store_n(&t->scan_leaves, leaves, __ATOMIC_RELAXED);
    sc_epoch_held_free(seg, sc_epoch_scan(seg, now));
    return true;
}

void sc_epoch_forget_all(sc_seg *seg)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    uint32_t i;

    for (i = 0; i < seg->nshards; i++) {
        memset(&seg->shards[i].retire, 0, sizeof(sc_retire_list));
    }
    __atomic_store_n(&t->zc_bytes, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&t->retired_bytes, 0, __ATOMIC_RELAXED);
    /* The pool was reset: no run carries a held set's tag any more. */
    __atomic_store_n(&t->held_mask, 0, __ATOMIC_RELAXED);
    memset(t->held, 0, sizeof(t->held));
    t->reset_open = 0;
}

/* Gives back every held set whose stamp is below safe (no reader can hold
 * a pointer into it any more). Takes the pool lock as a writer. */
static uint64_t sc_epoch_held_free(sc_seg *seg, uint64_t safe)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    uint32_t mask = __atomic_load_n(&t->held_mask, __ATOMIC_RELAXED), i;
    uint64_t pages = 0;
    bool due = false;

    for (i = 0; i < SC_HELD_SETS; i++) {
        if ((mask & (UINT32_C(1) << i)) && __atomic_load_n(&t->held[i].stamp, __ATOMIC_RELAXED) < safe) {
            due = true;
        }
    }
    /* Walk mode: each run given back marks the pool dirty only while it
     * is being linked (sc_alloc.c), so a process killed in here leaves the
     * set in use with its remaining runs, which the next pass gives back. */
    if (!due || !sc_alloc_pool_lock_walk(&seg->ac)) {
        return 0;
    }
    mask = t->held_mask;
    for (i = 0; i < SC_HELD_SETS; i++) {
        if ((mask & (UINT32_C(1) << i)) && t->held[i].stamp < safe) {
            uint32_t given = sc_alloc_give_owned_locked(&seg->ac, (uint16_t)(SC_HELD_TAG0 + i));
            /* Held pages count in the zero-copy bytes until given back. */
            sc_epoch_sat_sub(&t->zc_bytes, (uint64_t)given << SC_PAGE_SHIFT);
            pages += given;
            __atomic_store_n(&t->held[i].pages, 0, __ATOMIC_RELAXED);
            __atomic_store_n(&t->held[i].stamp, 0, __ATOMIC_RELAXED);
            __atomic_and_fetch(&t->held_mask, ~(UINT32_C(1) << i), __ATOMIC_RELAXED);
        }
    }
    sc_alloc_pool_unlock(&seg->ac);
    return pages << SC_PAGE_SHIFT;
}

void sc_epoch_shard_retire_kept(sc_seg *seg, sc_shard *shard, uint64_t zc_kept, const sc_off *ret, uint32_t n)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    sc_retire_list *l = &shard->retire;
    uint64_t stamp, bytes = 0;
    uint32_t i;

    SC_ASSERT(sc_layout_in_window(shard));
    SC_ASSERT(sc_layout_shard_repair_held(shard));

    if (l->bytes != SC_RETIRE_HOLD_RUNS) {
        sc_epoch_sat_sub(&t->retired_bytes, l->bytes);
    }
    sc_epoch_sat_sub(&t->zc_bytes, l->zc_bytes);
    memset(l, 0, sizeof(*l));
    l->zc_bytes = zc_kept;
    __atomic_fetch_add(&t->zc_bytes, zc_kept, __ATOMIC_RELAXED);
    if (!n) {
        return;
    }
    /* The repaired table refers to none of them: order that before the
     * bump, as for a retired entry. A reader inside now published an
     * epoch no later than the stamp and holds them back; one that enters
     * later cannot find them. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    stamp = __atomic_fetch_add(&t->global, 1, __ATOMIC_SEQ_CST) + 1;
    for (i = 0; i < n; i++) {
        sc_entry *e = sc_epoch_retired_at(seg, ret[i]);
        SC_ASSERT(e->flags & SC_ENTRY_ZC);
        e->ttl = 0;     /* not counted as a gone key (the repair counted none) */
        e->stamp = stamp;
        e->scalar = i + 1 < n ? (int64_t)ret[i + 1] : 0;
        bytes += e->mem_size;
    }
    l->head = ret[0];
    l->tail = ret[n - 1];
    l->bytes = bytes;
    l->zc_bytes += bytes;
    __atomic_fetch_add(&t->zc_bytes, bytes, __ATOMIC_RELAXED);
    __atomic_fetch_add(&t->retired_bytes, bytes, __ATOMIC_RELAXED);
    __atomic_fetch_add(&t->retired, n, __ATOMIC_RELAXED);
}

bool sc_epoch_shard_hold(sc_seg *seg, sc_shard *shard)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    sc_retire_list *l = &shard->retire;
    uint32_t mask, i, pick = SC_HELD_SETS, newest = 0, moved;
    uint64_t stamp;

    if (!l->zc_bytes && !l->head) {
        return false;
    }
    sc_epoch_sat_sub(&t->zc_bytes, l->zc_bytes);
    sc_epoch_sat_sub(&t->retired_bytes, l->bytes);
    memset(l, 0, sizeof(*l));
    if (!sc_epoch_any_reader(seg)) {
        return false;
    }
    /* The table was emptied before: order that before the bump, as for a
     * retired entry. A reader that publishes the new epoch cannot find
     * anything of this shard's old table. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    stamp = __atomic_fetch_add(&t->global, 1, __ATOMIC_SEQ_CST) + 1;
    /* Walk mode: the pool itself does not change, so a repairer killed in
     * here costs no reset (the next locker of the shard, which is still
     * "owner died", repairs again and moves the runs left). */
    if (!sc_alloc_pool_lock_walk(&seg->ac)) {
        /* The pool waits for a full reset: that reset keeps every run
         * this shard owns out of the pool (sc_epoch_reset_collect). */
        l->bytes = SC_RETIRE_HOLD_RUNS;
        return true;
    }
    mask = t->held_mask;
    for (i = 0; i < SC_HELD_SETS; i++) {
        if (!(mask & (UINT32_C(1) << i))) {
            pick = i;
            break;
        }
        if (t->held[i].stamp > t->held[newest].stamp) {
            newest = i;
        }
    }
    if (pick == SC_HELD_SETS) {
        pick = newest;  /* all in use: join the newest, whose wait grows */
    }
    /* Stamp first, then the bit, then the runs: a set whose bit is clear
     * has no run tagged for it. */
    __atomic_store_n(&t->held[pick].stamp, stamp, __ATOMIC_RELAXED);
    __atomic_or_fetch(&t->held_mask, UINT32_C(1) << pick, __ATOMIC_RELAXED);
    moved = sc_alloc_retag_locked(&seg->ac, (uint16_t)shard->index, (uint16_t)(SC_HELD_TAG0 + pick));
    __atomic_fetch_add(&t->held[pick].pages, moved, __ATOMIC_RELAXED);
    /* The held pages count in the zero-copy bytes (against
     * shardcache.zero_copy_max) until given back: once they fill the
     * budget no new zero-copy value is made, so no later repair holds
     * anything more. What readers can hold back stays bounded. */
    __atomic_fetch_add(&t->zc_bytes, (uint64_t)moved << SC_PAGE_SHIFT, __ATOMIC_RELAXED);
    sc_alloc_pool_unlock(&seg->ac);
    __atomic_fetch_add(&t->repairs_held, 1, __ATOMIC_RELAXED);
    return true;
}

uint64_t sc_epoch_poll(sc_seg *seg, bool force)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    int64_t now;

    SC_ASSERT(sc_mutex_free_of(&seg->hdr->pool.lock, sc_lock_tid()));

    if (SC_LIKELY(!__atomic_load_n(&t->held_mask, __ATOMIC_RELAXED))) {
        return 0;
    }
    now = (int64_t)time(NULL);
    if (!force && sc_epoch_blocked(seg, now, false)) {
        return 0;
    }
    return sc_epoch_held_free(seg, sc_epoch_scan(seg, now));
}

uint64_t sc_epoch_held_bytes(const sc_seg *seg)
{
    const sc_epoch_table *t = &seg->hdr->epochs;
    uint32_t mask = __atomic_load_n(&t->held_mask, __ATOMIC_RELAXED), i;
    uint64_t pages = 0;

    for (i = 0; i < SC_HELD_SETS; i++) {
        if (mask & (UINT32_C(1) << i)) {
            pages += __atomic_load_n(&t->held[i].pages, __ATOMIC_RELAXED);
        }
    }
    return pages << SC_PAGE_SHIFT;
}

void sc_epoch_boot(sc_seg *seg)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    uint32_t i;

    for (i = 0; i < SC_EPOCH_SLOTS; i++) {
        t->slots[i].epoch = 0;
        t->slots[i].owner = 0;
    }
    memset(t->inside, 0, sizeof(t->inside));
    memset(t->covers, 0, sizeof(t->covers));
    memset(t->cover_pins, 0, sizeof(t->cover_pins));
    t->cover_mask = 0;
}

uint64_t sc_epoch_zc_bytes(const sc_seg *seg)
{
    return __atomic_load_n(&seg->hdr->epochs.zc_bytes, __ATOMIC_RELAXED);
}

/* ---- full reset of the pool (needs_reset) with readers inside ---- */

/* Sets the bits of the pages [p, p + bytes) of the data area, ignoring
 * what lies outside it (nothing read from the segment is trusted). */
static void sc_epoch_hold_mark(const sc_alloc_ctx *ac, uint8_t *hold, const char *p, uint64_t bytes)
{
    uint64_t area = (uint64_t)ac->npages << SC_PAGE_SHIFT, start, end, pg;

    if (p < ac->data || (uint64_t)(p - ac->data) >= area) {
        return;
    }
    start = (uint64_t)(p - ac->data);
    end = bytes && bytes <= area - start ? start + bytes - 1 : start;
    for (pg = start >> SC_PAGE_SHIFT; pg <= end >> SC_PAGE_SHIFT; pg++) {
        hold[pg >> 3] |= (uint8_t)(1u << (pg & 7));
    }
}

bool sc_epoch_reset_collect(sc_seg *seg, uint8_t **bitmap)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    sc_alloc_ctx *ac = &seg->ac;
    uint64_t limit = ((uint64_t)ac->npages << SC_PAGE_SHIFT) / sizeof(sc_entry) + 1;
    uint8_t *hold;
    uint32_t i, slot, p;

    bool marked = false;

    SC_ASSERT(sc_layout_global_held(seg));
    SC_ASSERT(sc_layout_holds_every_shard(seg, true));

    *bitmap = NULL;
    for (i = 0; i < seg->nshards; i++) {
        if (!seg->shards[i].retire.head && seg->shards[i].retire.bytes == SC_RETIRE_HOLD_RUNS) {
            marked = true;
        }
    }
    if ((!sc_epoch_zc_bytes(seg) && !__atomic_load_n(&t->held_mask, __ATOMIC_RELAXED) && !marked
         && !t->reset_open)
        || !sc_epoch_any_reader(seg)) {
        return false;
    }
    if (t->reset_open) {
        /* The reset before this one died inside (after emptying some of
         * what would say which pages readers hold): every page is held. */
        return true;
    }
    /* From here until the pool is rebuilt, a death leaves this mark. */
    t->reset_open = 1;
    hold = calloc(((size_t)ac->npages + 7) / 8, 1);
    *bitmap = hold;
    if (!hold) {
        return true;    /* every page is held */
    }
    for (i = 0; i < seg->nshards; i++) {
        sc_shard *shard = &seg->shards[i];
        const sc_table *table = &sc_layout_head(shard)->table;
        sc_off off = shard->retire.head;
        uint64_t n = 0;
        for (slot = 0; table->off && slot < table->capacity; slot++) {
            const sc_entry *e = sc_table_slot_entry(seg, table, slot);
            if (e && (e->flags & SC_ENTRY_ZC)) {
                sc_epoch_hold_mark(ac, hold, (const char *)e, e->mem_size);
            }
        }
        while (off && off < seg->size - sizeof(sc_entry) && n++ < limit) {
            const sc_entry *e = (const sc_entry *)(seg->base + off);
            sc_epoch_hold_mark(ac, hold, (const char *)e, e->mem_size);
            off = (sc_off)e->scalar;
        }
    }
    /* Runs of held sets (their pages wait for readers already) and every
     * run of a shard repaired while the pool waited for this reset (its
     * table is gone: SC_RETIRE_HOLD_RUNS): kept. The pool may not tile
     * any more, so every descriptor is looked at; a stale one holds a few
     * pages more, never fewer. */
    if (__atomic_load_n(&t->held_mask, __ATOMIC_RELAXED) || marked) {
        for (p = 0; p < ac->npages; p++) {
            const sc_page *d = &ac->pages[p];
            bool keep = (d->owner >= SC_HELD_TAG0 && d->owner < SC_HELD_TAG0 + SC_HELD_SETS)
                        || (d->owner < seg->nshards && !seg->shards[d->owner].retire.head
                            && seg->shards[d->owner].retire.bytes == SC_RETIRE_HOLD_RUNS);
            if ((d->kind == SC_PAGE_SLAB || d->kind == SC_PAGE_LARGE) && keep && d->run) {
                uint32_t run = d->run <= ac->npages - p ? d->run : ac->npages - p;
                sc_epoch_hold_mark(ac, hold, ac->data + ((uint64_t)p << SC_PAGE_SHIFT), (uint64_t)run << SC_PAGE_SHIFT);
            }
        }
    }
    return true;
}

void sc_epoch_reset_holding(sc_seg *seg, uint8_t *bitmap)
{
    sc_epoch_table *t = &seg->hdr->epochs;
    uint64_t stamp;
    uint32_t pages;

    SC_ASSERT(sc_layout_global_held(seg));
    SC_ASSERT(sc_layout_holds_every_shard(seg, true));

    /* The tables were emptied before: order that before the bump, as for
     * a retired entry. A reader that publishes the new epoch cannot find
     * anything of the old tables. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    stamp = __atomic_fetch_add(&t->global, 1, __ATOMIC_SEQ_CST) + 1;
    /* Set 0 is taken for the held pages: its stamp is written before the
     * pool is reset and its bit after (a scan that sees the bit took the
     * pool lock after the reset released it, so it sees the stamp). */
    sc_epoch_forget_all(seg);
    t->reset_open = 1;  /* forget_all cleared it: the pool is not rebuilt yet */
    __atomic_store_n(&t->held[0].stamp, stamp, __ATOMIC_RELAXED);
    pages = sc_alloc_reset_pool_holding(&seg->ac, bitmap, (uint16_t)SC_HELD_TAG0);
    free(bitmap);
    if (pages) {
        __atomic_store_n(&t->held[0].pages, pages, __ATOMIC_RELAXED);
        __atomic_fetch_add(&t->zc_bytes, (uint64_t)pages << SC_PAGE_SHIFT, __ATOMIC_RELAXED);
        __atomic_or_fetch(&t->held_mask, UINT32_C(1), __ATOMIC_RELEASE);
    } else {
        __atomic_store_n(&t->held[0].stamp, 0, __ATOMIC_RELAXED);
    }
    t->reset_open = 0;
}
