/*
 * sc_update.c - apcu_inc, apcu_dec and apcu_cas: integer updates made in
 * place, atomic for the key across processes.
 *
 * Owns: in-place changes of an int entry's scalar and mtime_after.
 * Locks: a pin (no lock), else the shard's NO_REPAIR lock; creating a
 * missing key goes through sc_cache_store (REPAIR lock).
 * Death: an update is one atomic instruction, never half done. A pin left
 * by a killed updater is cleared by the next writer once sc_live_gone says
 * its owner is gone; a NO_REPAIR holder leaves nothing to repair.
 *
 * Fast path, no lock: the updater pins the shard (sc_pin.c), finds the
 * entry under the sequence counter as a fetch does, and changes the int
 * with one atomic read-modify-write (add, subtract or compare-and-swap) on
 * the entry's aligned 8-byte scalar. Concurrent updaters of one key never
 * wait for each other, optimistic readers load the int in one piece (no
 * sequence window is opened), and the pin keeps every writer from freeing
 * the entry until the update is done.
 * Slow path, shard lock in NO_REPAIR mode (nothing to repair if the process dies
 * there): taken when the pin could not be used (every slot busy, no
 * liveness slot left for this thread (sc_live.c), a writer active, the key missing, expired or not an int). It updates with the same
 * atomic instructions, so it is atomic against pinned updaters too.
 * Ints wrap around on overflow, as in APCu 5.1.22.
 * inc/dec of a missing (or expired) key store 0 +/- step through
 * sc_cache_store's add path and try again, so a racing creator wins once and
 * the other caller updates its value.
 */
#include <string.h>
#include "sc_cache.h"
#include "sc_shard.h"
#include "sc_evict.h"
#include "sc_vtype.h"
#include "sc_pin.h"

/* Applies op to the int at *slot with one atomic instruction. APCu 5.1.22
 * updates with plain machine arithmetic: an int that passes PHP_INT_MAX or
 * PHP_INT_MIN wraps around and stays an int. Returns false when a CAS finds
 * another value. */
static inline bool sc_update_apply_atomic(sc_update_op op, int64_t *slot, int64_t a, int64_t b, int64_t *result)
{
    uint64_t *u = (uint64_t *)slot;

    switch (op) {
    case SC_UPDATE_INC:
        *result = (int64_t)(__atomic_fetch_add(u, (uint64_t)a, __ATOMIC_ACQ_REL) + (uint64_t)a);
        return true;
    case SC_UPDATE_DEC:
        *result = (int64_t)(__atomic_fetch_sub(u, (uint64_t)a, __ATOMIC_ACQ_REL) - (uint64_t)a);
        return true;
    case SC_UPDATE_CAS:
    default:
        if (!__atomic_compare_exchange_n(slot, &a, b, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            return false;
        }
        *result = b;
        return true;
    }
}

/* The value a missing key is created with. */
static int64_t sc_update_apply_to_zero(sc_update_op op, int64_t a)
{
    return op == SC_UPDATE_DEC ? (int64_t)(UINT64_C(0) - (uint64_t)a) : a;
}

static inline void sc_update_touch(sc_entry *e, int64_t now)
{
    uint32_t after = sc_table_entry_after(e, now);

    if (__atomic_load_n(&e->mtime_after, __ATOMIC_RELAXED) != after) {
        __atomic_store_n(&e->mtime_after, after, __ATOMIC_RELAXED);
    }
}

/* The update itself, on a live entry that cannot be freed meanwhile. */
static inline sc_status sc_update_entry(sc_entry *e, uint8_t vtype, sc_update_op op, int64_t a, int64_t b,
                                        int64_t now, int64_t *result)
{
    if (vtype != SC_V_LONG) {
        return SC_BADTYPE;
    }
    if (!sc_update_apply_atomic(op, &e->scalar, a, b, result)) {
        return SC_NOTFOUND;
    }
    sc_update_touch(e, now);
    return SC_OK;
}

typedef enum sc_pinned_result {
    SC_PINNED_DONE,     /* *status says how it went */
    SC_PINNED_LOCK      /* take the locked path */
} sc_pinned_result;

static inline sc_pinned_result sc_update_pinned(sc_cache *c, sc_shard *shard, const sc_key *key, uint64_t hash,
                                                sc_update_op op, int64_t a, int64_t b, int64_t now,
                                                sc_fetch_memos *memos, int64_t *result, sc_status *status)
{
    sc_seg *seg = &c->seg;
    uint64_t start = sc_seq_read_begin(&sc_layout_head(shard)->seq);
    uint32_t slot, lane;
    sc_entry *e = NULL;
    sc_fetch_memo *m = NULL;
    sc_pin *pin;
    sc_owner self;
    uint8_t vtype;
    bool expired;

    if (start & 1) {
        return SC_PINNED_LOCK;
    }
    self = sc_live_self_lane(sc_layout_shard_live(shard), &lane);
    pin = self ? sc_pin_claim_lane(shard, self, lane % SC_PINS) : NULL;
    if (!pin) {
        return SC_PINNED_LOCK;
    }
    /* The entry the thread's memo remembers while the shard's counter
     * has not moved since (sc_fetch_memos, sc_cache.h: it is still the key's one live
     * entry, inside the segment; the key is compared in full), else the
     * key's home slot inline (most keys are there), as a fetch. */
    if (memos) {
        if (SC_UNLIKELY(memos->gen != c->gen)) {
            sc_cache_memos_reset(memos, c->gen);
        }
        m = &memos->m[key->glue_hash & (SC_FETCH_MEMOS - 1)];
        if (m->glue_hash == key->glue_hash && m->key_len == key->len && m->seq == start
            && m->index == shard->index && sc_table_key_equal(SC_ENTRY_KEY(m->e), key->str, key->len)) {
            e = (sc_entry *)m->e;
        }
    }
    if (!e) {
        e = (sc_entry *)sc_table_find(seg, &sc_layout_head(shard)->table, key->str, key->len, hash, &slot);
    }
    if (e) {
        vtype = e->vtype;
        expired = sc_evict_is_expired(e, now);
    }
    if (__atomic_load_n(&sc_layout_head(shard)->seq, __ATOMIC_SEQ_CST) != start || !e || expired) {
        /* A writer came by, or the key must be created: under the lock. */
        sc_pin_release(pin);
        return SC_PINNED_LOCK;
    }
    /* From here until the release, no writer frees or reuses e. */
    *status = sc_update_entry(e, vtype, op, a, b, now, result);
    sc_pin_release(pin);
    if (m) {
        /* Confirmed by the counter, as a fetch's hit (sc_fetch_fast_commit). */
        m->glue_hash = key->glue_hash;
        m->key_len = key->len;
        m->index = shard->index;
        m->seq = start;
        m->e = e;
    }
    /* A zero-copy or serialized value (not an int: nothing was changed)
     * may be one this process cannot read, which is absent for it
     * (sc_cache_entry_absent): the locked path decides. */
    return SC_UNLIKELY(sc_cache_vtype_checked(vtype)) ? SC_PINNED_LOCK : SC_PINNED_DONE;
}

sc_status sc_cache_update(sc_cache *c, const sc_key *key, sc_update_op op, int64_t a, int64_t b, uint32_t ttl,
                          bool create, int64_t now, sc_fetch_memos *memos, int64_t *result)
{
    sc_seg *seg = &c->seg;
    uint64_t hash = sc_cache_key_hash(&c->seg, key);
    sc_shard *shard = sc_layout_shard_for(seg, hash);
    int attempt;

    {
        sc_status st;
        if (sc_update_pinned(c, shard, key, hash, op, a, b, now, memos, result, &st) == SC_PINNED_DONE) {
            return st;
        }
    }
    /* Repeats when the key is missing and the add that creates it finds
     * an entry after all (SC_EXISTS: another process created the key
     * between this look and the add): the next look updates that one. At
     * most 8 looks; a key created and deleted again each time ends in
     * SC_NOMEM. */
    for (attempt = 0; attempt < 8; attempt++) {
        uint32_t slot;
        sc_entry *e;
        sc_status st;
        sc_value_in start = {0};

        sc_shard_lock(&c->seg, shard, SC_LOCK_NO_REPAIR);
        e = (sc_entry *)sc_table_lookup(seg, &sc_layout_head(shard)->table, key->str, key->len, hash, &slot);
        if (e && !sc_cache_entry_absent(c, e, now)) {
            /* Atomic against pinned updaters; readers see the old or the
             * new int, never a mix, so no sequence window is opened. */
            st = sc_update_entry(e, e->vtype, op, a, b, now, result);
            sc_shard_unlock(shard);
            return st;
        }
        sc_shard_unlock(shard);
        if (op == SC_UPDATE_CAS || !create) {
            return SC_NOTFOUND;
        }
        /* Missing: create it from 0. */
        *result = sc_update_apply_to_zero(op, a);
        start.vtype = SC_V_LONG;
        start.scalar = *result;
        start.data = NULL;
        start.len = 0;
        st = sc_cache_store(c, key, &start, ttl, now, true);
        if (st != SC_EXISTS) {
            return st;
        }
    }
    return SC_NOMEM;
}
