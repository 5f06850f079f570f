/*
 * sc_live.c - liveness slots: "is the owner of this pin or reservation
 * still alive?" answered by the kernel, not by /proc or pids.
 *
 * Owns: the table of SC_LIVE_SLOTS slots in the segment header
 * (sc_live_table), and the calling thread's claim on one of them.
 *
 * Slots. Each is a robust process-shared mutex plus a generation. A thread
 * about to name itself in shared memory trylocks the slots until one is
 * free (or left by a dead owner), bumps its generation and keeps the lock
 * while it uses the cache. Its token is (generation << 32) | (slot + 1).
 * The token's owner is gone when the generation differs, or when a trylock
 * of the slot succeeds (free, or "owner died"); the checker then bumps the
 * generation. Busy means alive.
 *
 * Lanes and counts. A thread also takes one of SC_LIVE_LANES pin lanes
 * (sc_live_lane). Each slot holds the counts of its holders' lockless
 * stores and deletes (sc_live_slot.counts), summed by sc_live_total.
 *
 * Locks: the slot locks only, always with trylock, so this file never
 * waits and takes part in no lock order.
 * Death: killed while taking a slot (before the generation bump): nobody
 * was named; the next taker finds "owner died". Killed while checking a
 * slot: the slot looks dead, which it was. Killed at any other moment: the
 * kernel marks the slot "owner died" and every token of it reads as gone.
 * The slot's lock must be released (sc_live_leave) before the segment is
 * unmapped: the kernel marks a dead owner's lock only while it is mapped.
 *
 * Design: docs/internals.md#sc_live
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include "sc_live.h"

/* The calling thread's claim: the table it holds a slot of, and its token
 * (one thread-local object: one TLS lookup on the hot path; initial-exec,
 * as sc_local in sc_cache.h: every lockless store and delete reads it
 * twice, and a __tls_get_addr call costs more than the rest of the
 * lookup; 32 bytes of the static TLS surplus). */
static _Thread_local __attribute__((tls_model("initial-exec"))) struct {
    sc_live_table *table;
    sc_owner token;
    sc_owner lane_token;    /* the token lane was looked up for */
    uint32_t lane;          /* its lane (sc_live_lane) */
} sc_live_mine_tls;

#define sc_live_mine_table (sc_live_mine_tls.table)
#define sc_live_mine (sc_live_mine_tls.token)

/* A thread that found every slot held by a live thread remembers it: it
 * does without a slot (the locked paths, copies) and looks again only
 * after SC_LIVE_RETRY_CALLS more calls, not at every operation (1,024
 * trylocks each). Touched only on that slow path (general-dynamic TLS). */
#define SC_LIVE_RETRY_CALLS 8192
static _Thread_local struct {
    sc_live_table *table;   /* the table of the failed take (NULL: none) */
    uint32_t wait;          /* calls left before the next try */
    uint64_t scans;         /* full scans that found no slot (figures) */
} sc_live_miss;

static pthread_once_t sc_live_once = PTHREAD_ONCE_INIT;

static void sc_live_forget(void)
{
    /* In a fork child: the parent's slot is still the parent's, and the
     * child looks for one of its own at once. */
    sc_live_mine_table = NULL;
    sc_live_mine = 0;
    sc_live_miss.table = NULL;
    sc_live_miss.wait = 0;
}

static void sc_live_register_atfork(void)
{
    pthread_atfork(NULL, NULL, sc_live_forget);
}

int sc_live_init(sc_live_table *t)
{
    uint32_t i;

    t->nslots = SC_LIVE_SLOTS;
    for (i = 0; i < SC_LIVE_SLOTS; i++) {
        if (sc_mutex_init(&t->slots[i].lock) != 0) {
            return -1;
        }
        t->slots[i].gen = 0;
    }
    return 0;
}

/* Trylock of a slot: 1 taken (free, or its owner died), 0 busy or unusable. */
static int sc_live_trylock(sc_live_slot *s)
{
    int rc = pthread_mutex_trylock(&s->lock.mx);

    if (rc == EOWNERDEAD) {
        pthread_mutex_consistent(&s->lock.mx);
        return 1;
    }
    return rc == 0;
}

static uint32_t sc_live_next_gen(sc_live_slot *s)
{
    uint32_t gen = __atomic_load_n(&s->gen, __ATOMIC_RELAXED) + 1;

    if (gen == 0) {
        gen = 1;
    }
    __atomic_store_n(&s->gen, gen, __ATOMIC_RELEASE);
    return gen;
}

/* The first call of a thread (since its last fork): takes a slot. */
static __attribute__((noinline)) sc_owner sc_live_take(sc_live_table *t)
{
    uint32_t i, start, n;

    if (sc_live_miss.table == t && sc_live_miss.wait) {
        sc_live_miss.wait--;
        return 0;
    }
    pthread_once(&sc_live_once, sc_live_register_atfork);
    n = t->nslots;
    if (n == 0 || n > SC_LIVE_SLOTS) {
        return 0;
    }
    /* Start somewhere that differs between processes and threads, so that
     * a pool starting at once does not trylock the same slots in turn. */
    start = (uint32_t)(((uint64_t)getpid() * 2654435761u) ^ ((uintptr_t)&sc_live_mine_tls >> 6)) % n;
    for (i = 0; i < n; i++) {
        uint32_t idx = (start + i) % n;
        sc_live_slot *s = &t->slots[idx];
        if (sc_live_trylock(s)) {
            uint32_t gen = sc_live_next_gen(s);
            sc_live_mine_table = t;
            sc_live_mine = ((sc_owner)gen << 32) | (sc_owner)(idx + 1);
            sc_live_miss.table = NULL;
            return sc_live_mine;
        }
    }
    sc_live_miss.table = t;
    sc_live_miss.wait = SC_LIVE_RETRY_CALLS;
    sc_live_miss.scans++;
    return 0;
}

uint64_t sc_live_failed_scans(void)
{
    return sc_live_miss.scans;
}

sc_owner sc_live_self(sc_live_table *t)
{
    sc_owner mine = sc_live_mine;   /* (the struct's address is looked up once) */

    if (SC_LIKELY(mine && sc_live_mine_table == t)) {
        return mine;
    }
    return sc_live_take(t);
}

bool sc_live_gone(sc_live_table *t, sc_owner owner)
{
    uint32_t idx, gen;
    sc_live_slot *s;

    if (owner == 0) {
        return true;
    }
    idx = (uint32_t)(owner & UINT32_MAX) - 1;
    gen = (uint32_t)(owner >> 32);
    if (idx >= SC_LIVE_SLOTS || idx >= t->nslots) {
        return true; /* not a token this table ever handed out */
    }
    if (sc_live_mine_table == t && owner == sc_live_mine) {
        return false;
    }
    s = &t->slots[idx];
    if (__atomic_load_n(&s->gen, __ATOMIC_ACQUIRE) != gen) {
        return true;
    }
    if (!sc_live_trylock(s)) {
        /* Held: by its owner, or for an instant by another checker or by
         * a new owner about to bump the generation. Not gone, for now. */
        return false;
    }
    /* Nobody held it: the owner of gen is dead or left. Make later checks
     * cheap, then free the slot for the next taker. */
    if (__atomic_load_n(&s->gen, __ATOMIC_RELAXED) == gen) {
        sc_live_next_gen(s);
    }
    pthread_mutex_unlock(&s->lock.mx);
    return true;
}

uint32_t sc_live_lane(sc_live_table *t, sc_owner self)
{
    uint32_t first = (uint32_t)(self & UINT32_MAX) % SC_LIVE_LANES, i;

    for (i = 0; i < SC_LIVE_LANES; i++) {
        uint32_t k = (first + i) % SC_LIVE_LANES;
        sc_owner cur = __atomic_load_n(&t->lanes[k], __ATOMIC_ACQUIRE);
        if (cur == self) {
            return k;
        }
        if ((cur == 0 || sc_live_gone(t, cur))
            && __atomic_compare_exchange_n(&t->lanes[k], &cur, self, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            return k;
        }
    }
    return first;
}

uint32_t sc_live_my_lane(sc_live_table *t)
{
    /* One thread-local lookup on the hot path. A fork child's token was
     * forgotten (sc_live_forget), so it never matches lane_token: the
     * child looks its own lane up. */
    __typeof__(sc_live_mine_tls) *m = &sc_live_mine_tls;
    sc_owner self;

    if (SC_LIKELY(m->token && m->table == t && m->lane_token == m->token)) {
        return m->lane;
    }
    self = sc_live_self(t);
    if (!self) {
        return 0;
    }
    m->lane = sc_live_lane(t, self);
    m->lane_token = self;
    return m->lane;
}

sc_owner sc_live_self_lane(sc_live_table *t, uint32_t *lane)
{
    __typeof__(sc_live_mine_tls) *m = &sc_live_mine_tls;
    sc_owner self;

    if (SC_LIKELY(m->token && m->table == t && m->lane_token == m->token)) {
        *lane = m->lane;
        return m->token;
    }
    self = sc_live_self(t);
    *lane = self ? sc_live_my_lane(t) : 0;
    return self;
}

uint64_t sc_live_total(const sc_live_table *t, unsigned what)
{
    uint64_t sum = 0;
    uint32_t i;

    for (i = 0; i < t->nslots && i < SC_LIVE_SLOTS; i++) {
        sum += __atomic_load_n(&t->slots[i].counts[what], __ATOMIC_RELAXED)
               - __atomic_load_n(&t->slots[i].bases[what], __ATOMIC_RELAXED);
    }
    return sum;
}

void sc_live_counts_clear(sc_live_table *t)
{
    uint32_t i, k;

    for (i = 0; i < t->nslots && i < SC_LIVE_SLOTS; i++) {
        for (k = 0; k < SC_LIVE_NCOUNTS; k++) {
            __atomic_store_n(&t->slots[i].bases[k], __atomic_load_n(&t->slots[i].counts[k], __ATOMIC_RELAXED),
                             __ATOMIC_RELAXED);
        }
    }
}

void sc_live_leave(sc_live_table *t)
{
    sc_live_slot *s;
    uint32_t idx;

    if (sc_live_mine_table != t || !sc_live_mine) {
        return;
    }
    idx = (uint32_t)(sc_live_mine & UINT32_MAX) - 1;
    s = &t->slots[idx];
    sc_live_next_gen(s);
    sc_live_mine_table = NULL;
    sc_live_mine = 0;
    pthread_mutex_unlock(&s->lock.mx);
}
