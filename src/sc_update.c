/*
 * sc_update.c - apcu_inc, apcu_dec and apcu_cas: integer updates made in
 * place, atomic for the key across processes.
 *
 * Locks: the shard's write lock is held for the whole read-modify-write; the
 * entry's type, value and mtime change inside the shard's odd sequence
 * window, so an optimistic reader sees either the old or the new value.
 * inc/dec of a missing (or expired) key store 0 +/- step through
 * sc_cache_store's add path and try again, so a racing creator wins once and
 * the other caller updates its value.
 */
#include <string.h>
#include "sc_cache.h"
#include "sc_shard.h"
#include "sc_evict.h"
#include "sc_value.h"

static bool sc_apply(sc_update_op op, int64_t cur, int64_t a, int64_t b, uint8_t *vtype, int64_t *scalar)
{
    int64_t r;
    double d;

    switch (op) {
    case SC_UPDATE_INC:
        if (!__builtin_add_overflow(cur, a, &r)) {
            *vtype = SC_V_LONG;
            *scalar = r;
            return true;
        }
        d = (double)cur + (double)a;
        break;
    case SC_UPDATE_DEC:
        if (!__builtin_sub_overflow(cur, a, &r)) {
            *vtype = SC_V_LONG;
            *scalar = r;
            return true;
        }
        d = (double)cur - (double)a;
        break;
    case SC_UPDATE_CAS:
    default:
        if (cur != a) {
            return false;
        }
        *vtype = SC_V_LONG;
        *scalar = b;
        return true;
    }
    /* Overflow: PHP's own arithmetic turns the result into a float. */
    *vtype = SC_V_DOUBLE;
    memcpy(scalar, &d, sizeof(d));
    return true;
}

sc_status sc_cache_update(sc_cache *c, const sc_key *key, sc_update_op op, int64_t a, int64_t b, uint32_t ttl,
                          int64_t now, uint8_t *vtype, int64_t *scalar)
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

        sc_shard_lock(&c->seg, shard, SC_LOCK_WRITE);
        e = (sc_entry *)sc_table_lookup(seg, &shard->table, key->str, key->len, hash, &slot);
        if (e && !sc_entry_expired(e, now)) {
            if (e->vtype != SC_V_LONG) {
                sc_shard_unlock(shard);
                return SC_BADTYPE;
            }
            if (!sc_apply(op, e->scalar, a, b, vtype, scalar)) {
                sc_shard_unlock(shard);
                return SC_NOTFOUND;
            }
            sc_seq_write_begin(&shard->seq);
            e->vtype = *vtype;
            e->scalar = *scalar;
            e->mtime = now;
            sc_seq_write_end(&shard->seq);
            shard->stats.updates++;
            sc_shard_unlock(shard);
            return SC_OK;
        }
        sc_shard_unlock(shard);
        if (op == SC_UPDATE_CAS) {
            return SC_NOTFOUND;
        }
        /* Missing: create it from 0. */
        sc_apply(op, 0, a, b, vtype, scalar);
        start.vtype = *vtype;
        start.scalar = *scalar;
        start.data = NULL;
        start.len = 0;
        st = sc_cache_store(c, key, &start, ttl, now, true);
        if (st != SC_EXISTS) {
            return st;
        }
    }
    return SC_NOMEM;
}
