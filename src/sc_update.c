/*
 * sc_update.c - apcu_inc, apcu_dec and apcu_cas: integer updates made in
 * place, atomic for the key across processes.
 *
 * Locks: the shard's lock is held for the whole read-modify-write, which
 * makes it atomic among writers. The new int is published with one aligned
 * 8-byte store, which optimistic readers load in one piece, so no sequence
 * window is opened; the lock is taken in read mode (sc_shard.c) because a
 * process killed here leaves either the old or the new int, nothing to
 * repair.
 * Ints wrap around on overflow, as in APCu 5.1.22.
 * inc/dec of a missing (or expired) key store 0 +/- step through
 * sc_cache_store's add path and try again, so a racing creator wins once and
 * the other caller updates its value.
 */
#include <string.h>
#include "sc_cache.h"
#include "sc_shard.h"
#include "sc_evict.h"
#include "sc_value.h"

/* APCu 5.1.22 updates with plain machine arithmetic: an int that passes
 * PHP_INT_MAX or PHP_INT_MIN wraps around and stays an int. */
static bool sc_apply(sc_update_op op, int64_t cur, int64_t a, int64_t b, int64_t *result)
{
    switch (op) {
    case SC_UPDATE_INC:
        *result = (int64_t)((uint64_t)cur + (uint64_t)a);
        return true;
    case SC_UPDATE_DEC:
        *result = (int64_t)((uint64_t)cur - (uint64_t)a);
        return true;
    case SC_UPDATE_CAS:
    default:
        if (cur != a) {
            return false;
        }
        *result = b;
        return true;
    }
}

sc_status sc_cache_update(sc_cache *c, const sc_key *key, sc_update_op op, int64_t a, int64_t b, uint32_t ttl,
                          bool create, int64_t now, int64_t *result)
{
    sc_seg *seg = &c->seg;
    uint64_t hash = sc_hash_mix(key->php_hash);
    sc_shard *shard = sc_seg_shard_for(seg, hash);
    int attempt;

    for (attempt = 0; attempt < 8; attempt++) {
        uint32_t slot;
        sc_entry *e;
        sc_status st;
        sc_value_in start;

        sc_shard_lock(&c->seg, shard, SC_LOCK_READ);
        e = (sc_entry *)sc_table_lookup(seg, &shard->table, key->str, key->len, hash, &slot);
        if (e && !sc_entry_expired(e, now)) {
            if (e->vtype != SC_V_LONG) {
                sc_shard_unlock(shard);
                return SC_BADTYPE;
            }
            if (!sc_apply(op, e->scalar, a, b, result)) {
                sc_shard_unlock(shard);
                return SC_NOTFOUND;
            }
            /* One aligned 8-byte store: an optimistic reader sees the old or
             * the new int, never a mix, so no sequence window is needed and
             * readers of other keys in the shard are not sent back. */
            __atomic_store_n(&e->scalar, *result, __ATOMIC_RELEASE);
            __atomic_store_n(&e->mtime, now, __ATOMIC_RELAXED);
            shard->stats.updates++;
            sc_shard_unlock(shard);
            return SC_OK;
        }
        sc_shard_unlock(shard);
        if (op == SC_UPDATE_CAS || !create) {
            return SC_NOTFOUND;
        }
        /* Missing: create it from 0. */
        sc_apply(op, 0, a, b, result);
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
