/*
 * sc_lock.c - process-shared locks in the shared segment.
 *
 * Owns: initialisation and use of the robust process-shared mutexes (shard
 * locks, global lock, page-pool lock). Lock order and the seqlock protocol are
 * described in sc_lock.h. A robust mutex whose owner died is handed to the
 * next locker with EOWNERDEAD; this file marks it consistent and reports the
 * death so that the caller can repair the state the mutex protects.
 * sc_mutex_reclaim_stale is for a segment file no process has mapped (see
 * sc_file.c): a lock still held there has a holder that is gone.
 *
 * Locks: the locks themselves (the kernel's robust-mutex list keeps them).
 * Death: a holder that dies leaves its mutex to the next locker, who gets
 * EOWNERDEAD; this file makes the mutex consistent and returns "owner
 * died", and the caller repairs what the mutex protects (sc_shard.c,
 * sc_alloc.c, sc_live.c).
 */
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "sc_lock.h"

#define SC_LOCK_SPINS 200

/* A read of the lock word, so that spinning waiters do not write the lock's
 * cache line; without glibc's layout every spin simply tries the lock. */
static inline bool sc_mutex_looks_free(sc_mutex *lock)
{
#if defined(__GLIBC__)
    return __atomic_load_n(&lock->mx.__data.__lock, __ATOMIC_RELAXED) == 0;
#else
    (void)lock;
    return true;
#endif
}

int sc_mutex_init(sc_mutex *lock)
{
    pthread_mutexattr_t attr;
    int rc;

    if (pthread_mutexattr_init(&attr) != 0) {
        return -1;
    }
    rc = pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
    if (rc == 0) {
        rc = pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
    }
    if (rc == 0) {
        rc = pthread_mutex_init(&lock->mx, &attr);
    }
    pthread_mutexattr_destroy(&attr);
    return rc == 0 ? 0 : -1;
}

bool sc_mutex_lock(sc_mutex *lock)
{
    int rc = pthread_mutex_lock(&lock->mx);

    if (rc == EOWNERDEAD) {
        pthread_mutex_consistent(&lock->mx);
        return true;
    }
    return false;
}

bool sc_mutex_lock_counted(sc_mutex *lock, bool *waited)
{
    int rc = pthread_mutex_trylock(&lock->mx);

    *waited = false;
    if (rc == EBUSY) {
        /* Critical sections are a few hundred instructions: spin a little
         * before sleeping in the kernel (a sleep and a wake cost far more
         * when the holder is running on another core). */
        int spins;
        *waited = true;
        /* Until the lock is taken, or SC_LOCK_SPINS turns: then the
         * kernel's wait. */
        for (spins = 0; spins < SC_LOCK_SPINS && rc == EBUSY; spins++) {
            sc_cpu_relax();
            if (sc_mutex_looks_free(lock)) {
                rc = pthread_mutex_trylock(&lock->mx);
            }
        }
        if (rc == EBUSY) {
            rc = pthread_mutex_lock(&lock->mx);
        }
    }
    if (rc == EOWNERDEAD) {
        pthread_mutex_consistent(&lock->mx);
        return true;
    }
    return false;
}

sc_try_result sc_mutex_trylock(sc_mutex *lock)
{
    int rc;

    if (!sc_mutex_looks_free(lock)) {
        return SC_TRY_BUSY;
    }
    rc = pthread_mutex_trylock(&lock->mx);
    if (rc == EOWNERDEAD) {
        pthread_mutex_consistent(&lock->mx);
        return SC_TRY_OWNER_DIED;
    }
    return rc == 0 ? SC_TRY_TAKEN : SC_TRY_BUSY;
}

int sc_lock_tid(void)
{
    return (int)syscall(SYS_gettid);
}

int sc_mutex_owner(const sc_mutex *lock)
{
#if defined(__GLIBC__) && defined(__linux__)
    const unsigned tid_mask = 0x3fffffffu; /* FUTEX_TID_MASK */

    return (int)((unsigned)__atomic_load_n(&lock->mx.__data.__lock, __ATOMIC_RELAXED) & tid_mask);
#else
    (void)lock;
    return -1;
#endif
}

bool sc_mutex_reclaim_stale(sc_mutex *lock)
{
#if defined(__GLIBC__) && defined(__linux__)
    /* The lock word of a robust mutex: the owner's thread id, plus
     * FUTEX_OWNER_DIED once the kernel has seen the owner go, plus
     * FUTEX_WAITERS while somebody sleeps on it. Nobody maps the file, so
     * nobody holds or waits: a word that is neither 0 nor "owner died" is
     * stale or damaged (waiters with no owner is a word glibc would sleep
     * on for ever: nobody would wake it). It becomes "owner died", so that
     * the next locker repairs what it protects; the return says whether it
     * was not marked so already. */
    const unsigned owner_died = 0x40000000u;
    unsigned word = (unsigned)__atomic_load_n(&lock->mx.__data.__lock, __ATOMIC_ACQUIRE);

    if (word != 0 && word != owner_died) {
        __atomic_store_n(&lock->mx.__data.__lock, (int)owner_died, __ATOMIC_RELEASE);
        return !(word & owner_died);
    }
#else
    (void)lock;
#endif
    return false;
}

bool sc_mutex_sane(const sc_mutex *lock)
{
#if defined(__GLIBC__) && defined(__linux__)
    static int kind = -1;
    const int not_recoverable = 0x7fffffff; /* glibc's PTHREAD_MUTEX_NOTRECOVERABLE */

    if (kind < 0) {
        sc_mutex ref;
        if (sc_mutex_init(&ref) != 0) {
            return false;
        }
        __atomic_store_n(&kind, ref.mx.__data.__kind, __ATOMIC_RELAXED);
        pthread_mutex_destroy(&ref.mx);
    }
    return __atomic_load_n(&lock->mx.__data.__kind, __ATOMIC_RELAXED) == __atomic_load_n(&kind, __ATOMIC_RELAXED)
           && __atomic_load_n(&lock->mx.__data.__owner, __ATOMIC_RELAXED) != not_recoverable;
#else
    (void)lock;
    return true;
#endif
}

void sc_mutex_unlock(sc_mutex *lock)
{
    pthread_mutex_unlock(&lock->mx);
}
