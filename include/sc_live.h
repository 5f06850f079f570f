/*
 * sc_live.h - liveness slots: how one process (one thread in ZTS) tells
 * whether the owner of a pin or an apcu_entry reservation still runs,
 * without /proc, without signals and without trusting pids. See
 * src/sc_live.c.
 *
 * Owns: the liveness slots (sc_header.live) and each thread's claim on one,
 * and the per-thread store counts kept in them.
 * Locks: each slot's own robust mutex, held by its owner for its life and
 * only ever trylocked by others (no part in the lock order).
 * Death: the kernel releases a dead owner's slot as "owner died": every
 * token of it then reads as gone (src/sc_live.c).
 */
#ifndef SC_LIVE_H
#define SC_LIVE_H

#include "sc_common.h"
#include "sc_lock.h"

#define SC_LIVE_SLOTS 1024

/* One slot. Its lock is held by the slot's owner (a thread of a process
 * that uses the cache) from its first pin or reservation until it shuts
 * down or dies; the kernel releases it, marked "owner died", when the
 * owner dies. gen: written only by the holder of lock (a new owner right
 * after taking it, a leaving owner or a checker that found it dead right
 * before unlocking); read by anybody with an atomic load. */
/* What a slot counts (sc_live_slot.counts). */
enum { SC_LIVE_UPDATES, SC_LIVE_INSERTS, SC_LIVE_DELETES, SC_LIVE_NCOUNTS };

typedef struct sc_live_slot {
    _Alignas(SC_CACHELINE) sc_mutex lock;
    uint32_t gen;
    uint32_t unused;
    /* Per-thread statistics: what the slot's holders did
     * without a shard lock (sc_lockless.c), which therefore counts nowhere
     * in the shard figures: stores over an entry (SC_LIVE_UPDATES), stores
     * that brought back a key deleted without the lock (SC_LIVE_INSERTS),
     * deletes (SC_LIVE_DELETES). The slot and its line are the holder's
     * alone, so counting writes no line another thread writes (each slot
     * on lines of its own).
     *   counts: written only by the slot's holder (relaxed load + store),
     *       while it holds a pin of the shard it changed (so that a clear,
     *       which drains every pin, sees the count done).
     *   bases: written only by sc_cache_clear (global lock, every shard's
     *       window open: nothing lockless under way): the counts at the
     *       last clear.
     * A figure of the slot is counts[k] - bases[k]. It belongs to the
     * slot, not to one owner: a thread that dies or leaves leaves its counts
     * there, and the slot's next holder adds to them, so the totals keep
     * everything ever counted (until a clear). Read with relaxed loads and
     * no lock by the info functions (sc_live_total). */
    uint64_t counts[SC_LIVE_NCOUNTS];
    uint64_t bases[SC_LIVE_NCOUNTS];
} sc_live_slot;

/* Who holds a pin or a reservation: (generation << 32) | (slot + 1).
 * 0 names nobody. */
typedef uint64_t sc_owner;

/* Pin lanes: each shard has this many pin slots (SC_PINS), and
 * a thread tries the slot of its lane first in every shard, so that up to
 * this many threads each write a pin line of their own. */
#define SC_LIVE_LANES 8

/* The table of slots (sc_header.live). nslots: written once when the
 * segment is made (sc_live_init), read with no lock; the slots: see
 * sc_live_slot.
 *   lanes: the token of the thread that holds each pin lane, or 0 (or a
 *       token that is gone). No lock: taken by compare-and-swap from 0 or
 *       from a token sc_live_gone says is gone, once per thread
 *       (sc_live_lane); never released (a left or dead holder's token
 *       reads as gone). Read with atomic loads. A stale token after a
 *       restart of a named segment reads as gone too. */
typedef struct sc_live_table {
    uint32_t nslots;
    uint32_t unused;
    sc_owner lanes[SC_LIVE_LANES];
    sc_live_slot slots[SC_LIVE_SLOTS];
} sc_live_table;


/* Formats the table (segment creation, one process). -1 when a lock could
 * not be initialised. */
int sc_live_init(sc_live_table *t);

/* The calling thread's owner token. At its first call (in this thread,
 * since the last fork) it takes a free slot of t and holds it from then
 * on. 0 when every slot is held by a live thread: the caller must then do
 * without a pin or a reservation (the locked path). A thread that found
 * none looks again only after a few thousand more calls (each answered 0
 * at once), or in a fork child at once. */
sc_owner sc_live_self(sc_live_table *t);
/* How many times the calling thread looked at every slot and found none
 * (figures; a test that holds every slot checks that this stays small). */
uint64_t sc_live_failed_scans(void);

/* True when owner no longer holds its slot: it died (the kernel released
 * its lock), it left (sc_live_leave), or the slot changed hands since. A
 * live owner, or a slot being checked by someone else at this instant,
 * answers false (look again later). Never blocks. */
bool sc_live_gone(sc_live_table *t, sc_owner owner);

/* The pin lane of the owner of token self (the caller's own token): one
 * no live thread holds, taken for good, or when all are held by live
 * threads, a shared one. */
uint32_t sc_live_lane(sc_live_table *t, sc_owner self);

/* The calling thread's lane: sc_live_lane of its own token (taking a
 * liveness slot first if it has none), looked up once per token and
 * cached per thread; a fork child looks its own up. 0 when no slot could
 * be had (the lane is then shared). */
uint32_t sc_live_my_lane(sc_live_table *t);

/* sc_live_self and sc_live_my_lane in one look at the thread's cache:
 * the token (0: none could be had, *lane then 0) and its lane in *lane. */
sc_owner sc_live_self_lane(sc_live_table *t, uint32_t *lane);

/* Counts one lockless change of kind `what` (SC_LIVE_*) for the owner of
 * token self (the caller's own token, sc_live_self). */
static inline void sc_live_count(sc_live_table *t, sc_owner self, unsigned what)
{
    sc_live_slot *s = &t->slots[(uint32_t)(self & UINT32_MAX) - 1];

    __atomic_store_n(&s->counts[what], __atomic_load_n(&s->counts[what], __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

/* The lockless changes of kind `what` counted in all slots since the last
 * clear. */
uint64_t sc_live_total(const sc_live_table *t, unsigned what);
/* Starts the counts over (sc_cache_clear: nothing lockless under way). */
void sc_live_counts_clear(sc_live_table *t);

/* The calling thread gives its slot back (before the segment is unmapped,
 * or when the thread ends). Its pins and reservations must be released. */
void sc_live_leave(sc_live_table *t);

#endif
