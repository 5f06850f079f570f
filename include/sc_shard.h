/*
 * sc_shard.h - taking and releasing a shard's lock, with recovery from a
 * holder that died. See src/sc_shard.c.
 *
 * Owns: the shard lock and shard->dirty.
 * Locks: the shard lock is one exclusive robust mutex. The mode does not
 * make it shared: it says whether the holder may leave something half done
 * (REPAIR: it sets dirty, and its death makes the next locker repair the
 * shard) or not
 * (NO_REPAIR).
 * Death: see src/sc_shard.c.
 */
#ifndef SC_SHARD_H
#define SC_SHARD_H

#include "sc_layout.h"
#include "sc_pin.h"

typedef enum sc_lock_mode {
    /* Changes nothing a dead holder could leave half done: fallback
     * fetches, exists, snapshots, info, sampled hits, reservation slots,
     * in-place int updates. If its holder dies, the shard is not repaired. */
    SC_LOCK_NO_REPAIR,
    /* Changes the table, entries or the shard's pages: the holder marks the
     * shard dirty, and if it dies, the next locker repairs the shard,
     * keeping every entry it can prove whole (sc_shard_repair.c). */
    SC_LOCK_REPAIR
} sc_lock_mode;

/* Takes the lock; a shard frozen by a clear is waited for (on the global
 * lock, which the clear holds until it thaws the shard). The caller holds
 * no other lock of the segment. */
void sc_shard_lock(sc_seg *seg, sc_shard *shard, sc_lock_mode mode);
/* The same for a caller that holds the global lock (clear, eviction across
 * shards): a shard still frozen was frozen by a clear that died, and is
 * repaired. */
void sc_shard_lock_global(sc_seg *seg, sc_shard *shard, sc_lock_mode mode);
/* Takes the lock only if nobody holds it and no clear has the shard
 * frozen; false (and no lock) otherwise. For work that may be skipped,
 * such as recording a sampled hit. */
bool sc_shard_trylock(sc_seg *seg, sc_shard *shard, sc_lock_mode mode);
void sc_shard_unlock(sc_shard *shard);

/* The repair that keeps entries (src/sc_shard_repair.c): REPAIR lock held
 * after a dead owner, window open, pins drained. Keeps every entry of the
 * table it can prove whole and rebuilds the rest of the shard around them.
 * False when it cannot (the table itself fails its checks, the pool waits
 * for a full reset, no memory): the caller empties the shard then. */
bool sc_shard_repair_keep(sc_seg *seg, sc_shard *shard);

/* A clear's hold on a shard without its mutex (global lock held; tid is
 * the caller's sc_lock_tid()): takes the REPAIR lock, opens the window
 * (pins drained), marks the shard frozen and releases the mutex. Until
 * sc_shard_thaw the caller owns the shard as the REPAIR holder in its
 * window would; every other locker waits, optimistic readers and pin
 * claimers see the odd window. If the caller dies, the shard is repaired
 * by its next locker (sc_shard.c). Holding one robust mutex at a time, a
 * clear can own every shard whatever their number. */
void sc_shard_freeze(sc_seg *seg, sc_shard *shard, uint32_t tid);
/* Ends sc_shard_freeze (global lock still held): closes the window and
 * lets lockers in. */
void sc_shard_thaw(sc_shard *shard);

/* The window. With the REPAIR lock held (or the NO_REPAIR lock, by a
 * reader that must wait out a lockless store: sc_lockless_open_window; if
 * it dies inside, seq stays odd and the next locker repairs the shard):
 * opens the odd sequence window and waits until no pin taken before it is
 * held. Every change that readers or pin holders can reach goes between
 * this and sc_shard_write_end. */
static inline void sc_shard_write_begin(sc_shard *shard)
{
    SC_ASSERT(sc_layout_shard_held(shard));
    SC_ASSERT(!sc_layout_window_open(shard));
    /* A locked RMW: the odd value is visible before the slots are read. */
    __atomic_fetch_add(&sc_layout_head(shard)->seq, 1, __ATOMIC_SEQ_CST);
    sc_pin_drain(shard);
}

static inline void sc_shard_write_end(sc_shard *shard)
{
    SC_ASSERT(sc_layout_in_window(shard));
    sc_seq_write_end(&sc_layout_head(shard)->seq);
}

#endif
