/*
 * sc_lock.c - process-shared locks in the shared segment.
 *
 * Owns: initialisation and use of the shard rwlocks and the robust mutexes
 * (global lock, page-pool lock). Lock order and the seqlock protocol are
 * described in sc_lock.h. A robust mutex whose owner died is handed to the
 * next locker with EOWNERDEAD; this file marks it consistent and reports the
 * death so that the caller can repair the state the mutex protects.
 */
#include <errno.h>
#include "sc_lock.h"

int sc_rwlock_init(sc_rwlock *lock)
{
    pthread_rwlockattr_t attr;
    int rc;

    if (pthread_rwlockattr_init(&attr) != 0) {
        return -1;
    }
    rc = pthread_rwlockattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
#if defined(__GLIBC__)
    /* Readers only take the lock after failed optimistic reads, so a writer
     * must not be starved by a stream of them. */
    if (rc == 0) {
        rc = pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    }
#endif
    if (rc == 0) {
        rc = pthread_rwlock_init(&lock->rw, &attr);
    }
    pthread_rwlockattr_destroy(&attr);
    return rc == 0 ? 0 : -1;
}

void sc_rwlock_rdlock(sc_rwlock *lock)
{
    while (pthread_rwlock_rdlock(&lock->rw) == EAGAIN) {
        sc_cpu_relax();
    }
}

void sc_rwlock_wrlock(sc_rwlock *lock)
{
    pthread_rwlock_wrlock(&lock->rw);
}

void sc_rwlock_unlock(sc_rwlock *lock)
{
    pthread_rwlock_unlock(&lock->rw);
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

void sc_mutex_unlock(sc_mutex *lock)
{
    pthread_mutex_unlock(&lock->mx);
}
