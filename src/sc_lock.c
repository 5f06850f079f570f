/*
 * sc_lock.c - process-shared locks in the shared segment.
 *
 * Owns: initialisation and use of the robust process-shared mutexes (shard
 * locks, global lock, page-pool lock). Lock order and the seqlock protocol are
 * described in sc_lock.h. A robust mutex whose owner died is handed to the
 * next locker with EOWNERDEAD; this file marks it consistent and reports the
 * death so that the caller can repair the state the mutex protects.
 */
#include <errno.h>
#include "sc_lock.h"

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
        *waited = true;
        rc = pthread_mutex_lock(&lock->mx);
    }
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
