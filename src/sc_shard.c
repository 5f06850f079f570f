/*
 * sc_shard.c - the shard lock and what happens when its holder dies.
 *
 * Owns: the shard lock, shard->dirty, and the repair of a shard whose
 * holder died.
 * Locks: the shard lock itself; a repair takes the pool lock inside
 * (sc_alloc_reclaim_shard), as the lock order allows.
 * Death: a locker killed during a repair leaves the lock "owner died" with
 * the window odd: the next locker repairs again (every step of a repair
 * can be run again: sc_shard_repair.c).
 *
 * The lock is a robust process-shared mutex. A holder in SC_LOCK_REPAIR mode
 * sets shard->dirty right after taking it and clears it right before
 * releasing it; SC_LOCK_NO_REPAIR holders leave it clear. When a locker is told the previous owner died:
 *   - if dirty is clear and the sequence counter is even, the dead process
 *     was only reading: nothing to repair;
 *   - otherwise the dead process may have left the table, an entry or the
 *     shard's slab lists half changed. The shard is repaired inside an odd
 *     sequence window, so no reader trusts anything meanwhile: every entry
 *     its table refers to that can be proved whole is kept, the table is
 *     rehashed, and the shard's allocator state is rebuilt from the
 *     objects those entries use; everything else the shard owns goes back
 *     to the pool (sc_shard_repair.c says what a death at each point
 *     costs). The shard is emptied instead (its table dropped, every run
 *     it owns given back, sc_alloc.c walking the runs under the pool lock)
 *     only when the dead process was a clear that had frozen it (dirty is
 *     SC_SHARD_DIRTY_CLEAR), when its table cannot be proved, or when the
 *     pool waits for a full reset. With a reader inside an epoch, the
 *     zero-copy entries no kept entry uses stay in use and are retired
 *     (sc_shard_repair.c) rather than given back.
 * Readers that keep seeing an odd counter (a writer died inside its window)
 * fall back to this lock after a few tries and so trigger the repair too.
 * A waiter never blocks signals; with robust mutexes the wait for a dead
 * holder ends at once.
 *
 * Frozen shards. A clear owns every shard at once, but may not hold every
 * shard's mutex: when a thread dies, the kernel walks at most 2048 entries
 * (ROBUST_LIST_LIMIT) of its list of held robust mutexes, newest first;
 * a mutex past that stays held by the dead thread with no "owner died"
 * mark, and its next locker sleeps for ever. So the clear, holding the
 * global lock, takes each shard's REPAIR lock in turn, opens its window,
 * writes its thread id in its head's frozen and releases the mutex again
 * (sc_shard_freeze). A locker that finds frozen set releases the mutex,
 * waits for the global lock, and looks again: a clear that thaws its
 * shards (sc_shard_thaw) does so before it releases the global lock, so a
 * locker holding the global lock that still finds the shard frozen knows
 * the clear died, and repairs the shard (dirty is set, the window odd).
 * A thread of this cache holds at most four robust mutexes at once: its
 * liveness slot (sc_live.c, for its life), the global lock, one shard's
 * lock, the pool lock; well inside what the kernel recovers.
 *
 * Pending shards. The first locker of a shard whose pages a named
 * segment's restart has not checked yet (sc_verify.c: verify pending,
 * window odd) checks them, whatever its mode, before anything else: a
 * match ends the window, a mismatch empties the shard (a repair that keeps
 * nothing: pages that failed their check are never proved whole). A
 * checker that dies while it reads leaves the shard pending (dirty clear):
 * its next locker checks again; one that dies while it empties leaves it
 * pending with dirty set and its window odd: the next locker empties it
 * again. The shard stops being pending only once it is empty.
 *
 * Owns (also): the shard head's frozen.
 */
#include <string.h>
#include "sc_shard.h"
#include "sc_pin.h"
#include "sc_epoch.h"
#include "sc_verify.h"
#include "sc_fair.h"

/* The dirty value of a clear's freeze (sc_shard_freeze): its death
 * empties the shard, as the clear meant to. */
#define SC_SHARD_DIRTY_CLEAR 2

/* Whether the keeping repair may run: not after a dead clear (which
 * meant to empty the shard). Readers inside an epoch do not stop it: what
 * they may hold is retired again by the repair (sc_shard_repair.c). */
static bool sc_shard_may_keep(const sc_shard *shard)
{
    return shard->dirty != SC_SHARD_DIRTY_CLEAR;
}

/* The shard emptied: its table dropped, every page run it owns given back
 * (or held while readers may use them: sc_epoch.c). */
static void sc_shard_empty(sc_seg *seg, sc_shard *shard)
{
    memset(&sc_layout_head(shard)->table, 0, sizeof(sc_table));
    shard->pending_set = 0;
    /* A reader may still use a zero-copy value of this shard: then its
     * pages are held back (sc_epoch.c) until every reader that could hold
     * one has left its epoch, rather than handed out again now. */
    if (!sc_epoch_shard_hold(seg, shard)) {
        sc_alloc_reclaim_shard(&seg->ac, (uint16_t)shard->index);
    }
    sc_alloc_init_shard(&shard->alloc);
}

/* Repairs the shard after a holder died in it (or its pages failed their
 * check: keep false): keeps every entry it can prove whole
 * (sc_shard_repair.c) when keep and sc_shard_may_keep allow, else empties
 * it; then recounts the owners' bytes of what it kept (sc_fair.h). */
static void sc_shard_repair(sc_seg *seg, sc_shard *shard, bool keep)
{
    uint64_t seq = __atomic_load_n(&sc_layout_head(shard)->seq, __ATOMIC_RELAXED);

    if (!shard->dirty) {
        /* A NO_REPAIR holder died inside a window it opened
         * (sc_lockless_open_window), or the pages of a pending shard
         * failed their check: the repairer works as a REPAIR holder. */
        shard->dirty = 1;
    }
    if (!(seq & 1)) {
        sc_shard_write_begin(shard);
    } else {
        /* The dead writer may have died before its pins drained. */
        sc_pin_drain(shard);
    }
    if (!keep || !sc_shard_may_keep(shard) || !sc_shard_repair_keep(seg, shard)) {
        sc_shard_empty(seg, shard);
    }
    /* Not pending any more, once the shard holds only what was checked or
     * nothing: a repairer killed before this leaves the shard pending, its
     * window odd and dirty set, and the next locker repairs it again with
     * keep false (sc_shard_locked), so unchecked pages are never kept. */
    __atomic_store_n(&shard->verify, 0, __ATOMIC_RELAXED);
    sc_fair_recount_shard(seg, shard);
    shard->stats.repairs++;
    sc_shard_write_end(shard);
}

/* The lock was just taken and the shard's pages are as the last user of
 * a named segment left them, unchecked (its window odd since the restart:
 * sc_verify.c): checks them, then ends the window, or empties the shard.
 * The check only reads: a checker killed inside it leaves the shard
 * pending, and its next locker checks again. */
static void sc_shard_check_pending(sc_seg *seg, sc_shard *shard)
{
    SC_ASSERT(sc_layout_window_open(shard));

    if (sc_verify_shard(seg, shard)) {
        __atomic_store_n(&shard->verify, 0, __ATOMIC_RELAXED);
        sc_shard_write_end(shard);
    } else {
        sc_shard_repair(seg, shard, false);
        shard->dirty = 0;
    }
}

/* The lock was just taken: repair after a dead owner, check a pending
 * shard, mark a writer. */
static void sc_shard_locked(sc_seg *seg, sc_shard *shard, sc_lock_mode mode, bool owner_died)
{
    bool pending = SC_UNLIKELY(shard->verify == SC_VERIFY_PENDING);

    if (owner_died) {
        /* A pending shard's odd window is the restart's, not a writer's. */
        if (shard->dirty || (!pending && (__atomic_load_n(&sc_layout_head(shard)->seq, __ATOMIC_RELAXED) & 1))) {
            /* Pending: a repairer of a shard that failed its check died;
             * its pages were never proved, so nothing of them is kept. */
            sc_shard_repair(seg, shard, !pending);
            pending = false;
        }
        shard->dirty = 0;
    }
    if (pending) {
        sc_shard_check_pending(seg, shard);
    }
    if (mode == SC_LOCK_REPAIR) {
        shard->dirty = 1;
    }
}

/* The mutex is held, the global lock too: a shard still frozen was frozen
 * by a clear that died (a live one holds the global lock until it thaws
 * it). Returns true when the shard must be treated as left by a dead
 * owner (dirty is SC_SHARD_DIRTY_CLEAR and the window odd: the repair
 * empties it). */
static bool sc_shard_frozen_dead(sc_shard *shard)
{
    if (!sc_layout_head(shard)->frozen) {
        return false;
    }
    sc_layout_head(shard)->frozen = 0;
    return true;
}

/* The mutex is held and the shard frozen; the caller holds no global lock.
 * Waits until the clear that froze it is over (or dead) and returns with
 * the mutex held again and whether the shard's previous owner died. */
static bool sc_shard_wait_thaw(sc_seg *seg, sc_shard *shard)
{
    bool owner_died;

    SC_ASSERT(!sc_layout_global_held(seg));

    sc_mutex_unlock(&shard->lock);
    /* Lock order: global, then shard. A dead holder of the global lock
     * leaves nothing to repair there; what it froze is looked at below. */
    sc_mutex_lock(&seg->hdr->global_lock);
    owner_died = sc_mutex_lock(&shard->lock);
    owner_died |= sc_shard_frozen_dead(shard);
    sc_mutex_unlock(&seg->hdr->global_lock);
    return owner_died;
}

void sc_shard_lock(sc_seg *seg, sc_shard *shard, sc_lock_mode mode)
{
    bool waited;
    bool owner_died = sc_mutex_lock_counted(&shard->lock, &waited);

    if (waited) {
        /* Under the lock now (either mode); atomic because the figures
         * read it with no lock. */
        __atomic_fetch_add(&shard->stats.lock_waits, 1, __ATOMIC_RELAXED);
    }
    if (SC_UNLIKELY(sc_layout_head(shard)->frozen)) {
        /* A death seen by the first lock was of a waiter (which changes
         * nothing) or of the clear (the shard is still frozen). */
        owner_died = sc_shard_wait_thaw(seg, shard);
    }
    sc_shard_locked(seg, shard, mode, owner_died);
}

void sc_shard_lock_global(sc_seg *seg, sc_shard *shard, sc_lock_mode mode)
{
    bool owner_died;

    SC_ASSERT(sc_layout_global_held(seg));

    owner_died = sc_mutex_lock(&shard->lock);
    owner_died |= sc_shard_frozen_dead(shard);
    sc_shard_locked(seg, shard, mode, owner_died);
}

bool sc_shard_trylock(sc_seg *seg, sc_shard *shard, sc_lock_mode mode)
{
    sc_try_result r = sc_mutex_trylock(&shard->lock);

    if (r == SC_TRY_BUSY) {
        return false;
    }
    if (SC_UNLIKELY(sc_layout_head(shard)->frozen)) {
        sc_mutex_unlock(&shard->lock);
        return false;
    }
    sc_shard_locked(seg, shard, mode, r == SC_TRY_OWNER_DIED);
    return true;
}

void sc_shard_freeze(sc_seg *seg, sc_shard *shard, uint32_t tid)
{
    SC_ASSERT(sc_layout_global_held(seg));

    sc_shard_lock_global(seg, shard, SC_LOCK_REPAIR);
    sc_shard_write_begin(shard);
    sc_layout_head(shard)->frozen = tid;
    /* dirty stays set: if this thread dies, the next locker repairs, and
     * empties the shard as the clear meant to. */
    shard->dirty = SC_SHARD_DIRTY_CLEAR;
    sc_mutex_unlock(&shard->lock);
}

void sc_shard_thaw(sc_shard *shard)
{
    /* A locker that died holding the mutex meanwhile only looked at
     * frozen: nothing to repair. */
    (void)sc_mutex_lock(&shard->lock);
    sc_layout_head(shard)->frozen = 0;
    sc_shard_write_end(shard);
    sc_shard_unlock(shard);
}

void sc_shard_unlock(sc_shard *shard)
{
    shard->dirty = 0;
    sc_mutex_unlock(&shard->lock);
}
