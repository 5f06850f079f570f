/*
 * sc_lock.h - the locks of the shared segment and the shard sequence counter.
 *
 * Every lock in shared memory is a process-shared robust mutex (sc_mutex),
 * so a process killed while holding one never hangs the others: the next
 * locker gets the lock with "owner died" and repairs what it protects.
 *  - one lock per shard (sc_shard.c), taken in SC_LOCK_REPAIR mode by
 *    writers of that shard's table, entries and pages, and in
 *    SC_LOCK_NO_REPAIR mode by holders that leave nothing half done (readers
 *    whose optimistic read below failed several times, sampled hits,
 *    reservations, int updates without a pin);
 *  - the global lock: whole-cache work (clear, eviction across shards);
 *  - the page-pool lock: the pool of free pages (sc_alloc.c);
 *  - liveness slots (sc_live.c): each held by one thread for its life, only
 *    ever trylocked by others, so they take no part in the lock order.
 * Lock order, always: global -> shard locks in increasing index -> pool.
 *
 * The sequence counter (seqlock) lets a fetch read a shard without writing
 * any shared cache line: a writer holding the shard's REPAIR lock makes the
 * counter odd before changing anything readers can reach and even again
 * afterwards (sc_shard_write_begin/end in sc_shard.h, which also wait for
 * lock-free int updaters); a reader samples it before and after copying and retries when
 * it was odd or changed. Readers may therefore see torn data while copying:
 * every offset and length they read is bounds-checked, and nothing they copied
 * is interpreted until the counter confirmed it.
 *
 * Owns: the mutex type and the sequence counter protocol.
 * Locks: the list above; each shared struct says which of them guards
 * each of its fields.
 * Death: a dead holder's mutex reaches the next locker as "owner died"
 * (sc_mutex_lock returns true), who repairs what it protects.
 */
#ifndef SC_LOCK_H
#define SC_LOCK_H

#include <pthread.h>
#include <stdatomic.h>
#include "sc_common.h"

/* A robust process-shared mutex in shared memory: initialised once when
 * the segment is made; afterwards only locked and unlocked (by anybody),
 * and reclaimed by the first user of a named segment after a restart. */
typedef struct sc_mutex {
    pthread_mutex_t mx;
} sc_mutex;

int sc_mutex_init(sc_mutex *lock);
/* Returns true when the previous owner died holding the lock: the caller now
 * owns it and must repair what it protects before unlocking. */
bool sc_mutex_lock(sc_mutex *lock);
void sc_mutex_unlock(sc_mutex *lock);
/* Like sc_mutex_lock; *waited tells whether the lock was busy at first. */
bool sc_mutex_lock_counted(sc_mutex *lock, bool *waited);
/* Takes the lock only if it is free now: SC_TRY_BUSY (not taken),
 * SC_TRY_TAKEN, or SC_TRY_OWNER_DIED (taken; repair as for sc_mutex_lock). */
typedef enum sc_try_result { SC_TRY_BUSY, SC_TRY_TAKEN, SC_TRY_OWNER_DIED } sc_try_result;
sc_try_result sc_mutex_trylock(sc_mutex *lock);

/* For SC_ASSERT (sc_common.h). The kernel's id of the calling thread. */
int sc_lock_tid(void);
/* The thread id of lock's holder: 0 when free, -1 when it cannot be told
 * (not glibc on Linux). glibc keeps a robust mutex's holder in its lock
 * word (the robust-futex protocol: tid | FUTEX_WAITERS | FUTEX_OWNER_DIED),
 * in the shared struct itself, so a release and a debug build read the
 * same layout. Exact for the calling thread (only it sets or clears its
 * own id); a moment old for another. */
int sc_mutex_owner(const sc_mutex *lock);
/* Whether tid (sc_lock_tid) holds lock; true when that cannot be told. */
static inline bool sc_mutex_held_by(const sc_mutex *lock, int tid)
{
    int owner = sc_mutex_owner(lock);

    return owner < 0 || owner == tid;
}
/* Whether tid does not hold lock; true when that cannot be told. */
static inline bool sc_mutex_free_of(const sc_mutex *lock, int tid)
{
    int owner = sc_mutex_owner(lock);

    return owner < 0 || owner != tid;
}
static inline bool sc_mutex_held_by_me(const sc_mutex *lock)
{
    return sc_mutex_held_by(lock, sc_lock_tid());
}

/* Only for a lock in a segment that no process has mapped (a named segment
 * found by its first user, sc_file.c): a lock still held there belongs
 * to a process that is gone. The kernel marks such a lock "owner died" when
 * the holder exits, so the next locker repairs what it protects; if that
 * mark is missing (the holder vanished without its exit being processed,
 * e.g. the machine stopped with the file on a disk), this sets it, so that
 * the repair happens just the same; a word no holder at rest leaves (the
 * waiters bit with no owner: damage) is marked the same way. Returns true
 * when the word had no "owner died" mark before. glibc only (a no-op
 * elsewhere). */
bool sc_mutex_reclaim_stale(sc_mutex *lock);
/* Whether the bytes of lock (in a segment file made by another process)
 * are a robust process-shared mutex as sc_mutex_init makes it, in a state
 * that locking can leave (not "not recoverable"): a lock that fails this
 * would not be robust (its holder's death would block every later locker
 * for ever) or would never be granted. Reads only; no lock. glibc only
 * (true elsewhere). */
bool sc_mutex_sane(const sc_mutex *lock);

/* ---- sequence counter ---- */

static inline uint64_t sc_seq_read_begin(const uint64_t *seq)
{
    return __atomic_load_n(seq, __ATOMIC_ACQUIRE);
}

/* True when nothing was written between sc_seq_read_begin (which returned
 * an even start) and now. */
static inline bool sc_seq_read_valid(const uint64_t *seq, uint64_t start)
{
    atomic_thread_fence(memory_order_acquire);
    return __atomic_load_n(seq, __ATOMIC_RELAXED) == start;
}

/* Closes a window that a locked increment opened (sc_shard_write_begin):
 * seq is even again, and every write before it is visible to a reader
 * that sees the new value. */
static inline void sc_seq_write_end(uint64_t *seq)
{
    uint64_t s = __atomic_load_n(seq, __ATOMIC_RELAXED);
    __atomic_store_n(seq, s + 1, __ATOMIC_RELEASE);
}

#endif
