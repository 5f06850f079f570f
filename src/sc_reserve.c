/*
 * sc_reserve.c - apcu_entry: one computation per missing key, without
 * blocking anybody else.
 *
 * Owns: the shard's reservation slots (sc_shard.reservations).
 * Locks: the shard's NO_REPAIR lock, for a few instructions per claim or
 * release (never while the callback runs); the wake words are atomic.
 * Death: see the end of the next paragraph, and below: a killed owner's
 * slot is taken over by the next caller once sc_live_gone says so.
 *
 * Each shard has SC_RESERVATIONS slots naming a key whose value a thread
 * is computing (its keyed hash, which holds the owner's salt, its length
 * and its first SC_RESERVATION_KEY bytes: a caller waits only on a slot
 * of its own key - of a key that short, byte for byte; of a longer one,
 * the same length, first bytes and 64-bit hash, which nobody can make
 * two keys share on purpose without the segment's secret: sc_hash_keyed), with that thread's liveness
 * token (sc_live.h: a liveness slot and its generation, never a pid) and a
 * wake word. Slots are claimed and released under the shard's lock, which
 * is held only for those few instructions, never while the user's callback
 * runs: stores and fetches of every other key go on. The lock is taken in
 * NO_REPAIR mode (sc_shard.c): a process killed while changing a slot leaves at
 * worst a slot with a dead owner, which the next caller takes over, so the
 * shard's entries need no repair.
 *
 * A caller that finds its key reserved by another process sleeps on the
 * slot's wake word (a futex on Linux, in the shared mapping, so it works
 * across processes) for at most SC_WAIT_SLICE_MS at a time, and then looks
 * again: the value is there, or the slot was released, or its owner died
 * (sc_live_gone: its liveness slot is no longer held by it - no /proc, no
 * signals, so it works across users and after pid reuse), in which case
 * the slot is taken over.
 * Signals are never blocked while waiting.
 *
 * Deadlock avoidance: a process that already holds a reservation (nested
 * apcu_entry) never waits for another process's reservation; it computes
 * the value itself without reserving. The same happens when every slot of
 * the shard is taken, or when no liveness slot is left for this thread.
 * These cases run the callback more than once for one key only when
 * apcu_entry calls nest across processes, more than SC_RESERVATIONS keys of
 * one shard are being computed at once, or more than SC_LIVE_SLOTS threads
 * hold liveness slots.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
# include <linux/futex.h>
# include <sys/syscall.h>
#endif
#include "sc_cache.h"
#include "sc_shard.h"
#include "sc_evict.h"
#include "sc_live.h"

#define SC_WAIT_SLICE_MS 50

static void sc_reserve_wait_on(uint32_t *word, uint32_t seen)
{
#ifdef __linux__
    struct timespec ts = {0, SC_WAIT_SLICE_MS * 1000000L};
    syscall(SYS_futex, word, FUTEX_WAIT, seen, &ts, NULL, 0);
#else
    struct timespec ts = {0, 1000000L};
    (void)word;
    (void)seen;
    nanosleep(&ts, NULL);
#endif
}

static void sc_reserve_wake_all(uint32_t *word)
{
#ifdef __linux__
    syscall(SYS_futex, word, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
#else
    (void)word;
#endif
}

/* Whether r is a reservation of key (of hash). */
static bool sc_reserve_is_key(const sc_reservation *r, const sc_key *key, uint64_t hash)
{
    return r->owner && r->hash == hash && r->key_len == key->len
           && memcmp(r->key, key->str, key->len < SC_RESERVATION_KEY ? key->len : SC_RESERVATION_KEY) == 0;
}

/* The slot of the shard's reservation of key (of hash), with its owner and
 * its wake count as read (*seen), or SC_NONE and a free slot in *free_slot
 * (SC_NONE: none; the slots of dead owners are free, taken back here).
 * Shard lock held (either mode). */
static uint32_t sc_reserve_find(sc_seg *seg, sc_shard *shard, const sc_key *key, uint64_t hash,
                                uint32_t *free_slot, sc_owner *owner, uint32_t *seen)
{
    uint32_t i;

    SC_ASSERT(sc_layout_shard_held(shard));
    *free_slot = SC_NONE;
    for (i = 0; i < SC_RESERVATIONS; i++) {
        sc_reservation *r = &shard->reservations[i];
        if (sc_reserve_is_key(r, key, hash)) {
            *owner = r->owner;
            *seen = __atomic_load_n(&r->wake, __ATOMIC_RELAXED);
            return i;
        }
        if (!r->owner && *free_slot == SC_NONE) {
            *free_slot = i;
        }
    }
    if (*free_slot == SC_NONE) {
        /* All taken: slots whose owner died are free. */
        for (i = 0; i < SC_RESERVATIONS && *free_slot == SC_NONE; i++) {
            if (sc_live_gone(&seg->hdr->live, shard->reservations[i].owner)) {
                shard->reservations[i].owner = 0;
                shard->reservations[i].hash = 0;
                __atomic_fetch_add(&shard->reservations[i].wake, 1, __ATOMIC_RELEASE);
                *free_slot = i;
            }
        }
    }
    return SC_NONE;
}

sc_status sc_cache_reserve(sc_cache *c, const sc_key *key, int64_t now, sc_sink *sink, sc_value_out *out,
                           sc_reservation_ticket *ticket)
{
    sc_seg *seg = &c->seg;
    uint64_t hash = sc_cache_key_hash(seg, key);
    sc_shard *shard = sc_layout_shard_for(seg, hash);
    sc_owner self = 0;

    ticket->shard = shard->index;
    ticket->slot = SC_NONE;
    /* Repeats while another live thread holds the key's reservation: it
     * computes the value, and each turn waits for its release (or
     * SC_WAIT_SLICE_MS) and fetches again; also after the key was stored
     * since the fetch, and after a dead holder's reservation was taken
     * back. Ends with a hit, a reservation of this thread's, or a miss
     * without one (nested, no free slot, no liveness slot); a holder that
     * dies is found dead at the next turn. */
    for (;;) {
        uint32_t slot, free_slot = SC_NONE, busy, seen = 0;
        sc_owner owner = 0;
        const sc_entry *e;

        if (sc_cache_fetch_hashed(c, key, hash, sc_seg_shard_index(seg, hash), now, sink, out) == SC_OK
            && !(SC_UNLIKELY(c->unreadable != NULL) && sc_cache_vtype_checked(out->vtype)
                 && out->len <= UINT32_MAX && c->unreadable(out->vtype, out->data, (uint32_t)out->len))) {
            return SC_OK;
        }
        if (!self) {
            self = sc_live_self(&seg->hdr->live);
        }
        sc_shard_lock(&c->seg, shard, SC_LOCK_NO_REPAIR);
        e = sc_table_lookup(seg, &sc_layout_head(shard)->table, key->str, key->len, hash, &slot);
        if (e && !sc_cache_entry_absent(c, e, now)) {
            /* Stored since the fetch above: fetch it again. */
            sc_shard_unlock(shard);
            continue;
        }
        busy = sc_reserve_find(seg, shard, key, hash, &free_slot, &owner, &seen);
        if (busy == SC_NONE) {
            if (free_slot != SC_NONE && self) {
                sc_reservation *r = &shard->reservations[free_slot];
                r->hash = hash;
                r->key_len = key->len;
                memcpy(r->key, key->str, key->len < SC_RESERVATION_KEY ? key->len : SC_RESERVATION_KEY);
                r->owner = self;
                ticket->slot = free_slot;
                sc_local.reservations_held++;
            }
            sc_shard_unlock(shard);
            return SC_NOTFOUND;
        }
        if (owner == self || sc_local.reservations_held > 0) {
            /* Nested: compute without waiting (see the top of this file). */
            sc_shard_unlock(shard);
            return SC_NOTFOUND;
        }
        if (sc_live_gone(&seg->hdr->live, owner)) {
            sc_reservation *r = &shard->reservations[busy];
            r->owner = 0;
            r->hash = 0;
            __atomic_fetch_add(&r->wake, 1, __ATOMIC_RELEASE);
            sc_shard_unlock(shard);
            sc_reserve_wake_all(&r->wake);
            continue;
        }
        sc_shard_unlock(shard);
        sc_reserve_wait_on(&shard->reservations[busy].wake, seen);
    }
}

void sc_cache_release(sc_cache *c, sc_reservation_ticket *ticket)
{
    sc_shard *shard;
    sc_reservation *r;

    if (ticket->slot == SC_NONE || ticket->shard >= c->seg.nshards) {
        return;
    }
    shard = &c->seg.shards[ticket->shard];
    r = &shard->reservations[ticket->slot];
    sc_shard_lock(&c->seg, shard, SC_LOCK_NO_REPAIR);
    if (r->owner && r->owner == sc_live_self(&c->seg.hdr->live)) {
        r->owner = 0;
        r->hash = 0;
        __atomic_fetch_add(&r->wake, 1, __ATOMIC_RELEASE);
    }
    sc_shard_unlock(shard);
    sc_reserve_wake_all(&r->wake);
    ticket->slot = SC_NONE;
    if (sc_local.reservations_held > 0) {
        sc_local.reservations_held--;
    }
}
