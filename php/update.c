/*
 * php/update.c - apcu_inc, apcu_dec and apcu_cas: an int updated in place
 * by the core (sc_cache_update), or, for a key the caller has no entry
 * of, made from the key's preloaded int (php/owner.c).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "update.h"
#include "php_shardcache.h"
#include "key.h"
#include "owner.h"
#include "sc_cache.h"

/* inc, dec or cas of a key the caller has no entry of: with a preloaded
 * int of the key (php/owner.c), the caller's own entry is made from it
 * (added: SC_EXISTS when that add stored nothing, as when an entry appeared
 * meanwhile; the caller then updates the key as asked). SC_NOTFOUND: no
 * preloaded entry (or cas compared unequal); SC_BADTYPE: it is not an
 * int. */
static zend_never_inline sc_status php_sc_update_public(const sc_key *k, sc_update_op op, int64_t a, int64_t b, uint32_t ttl,
                                      int64_t now, int64_t *result)
{
    sc_key pk = *k;
    sc_snapshot *snap;
    sc_entry_meta m;
    sc_value_in in = {0};
    uint8_t vtype;
    int64_t base, v;
    sc_status st;

    if (!php_sc_key_public(&pk)) {
        return SC_NOTFOUND;
    }
    snap = sc_snapshot_key(&php_sc_shared_cache, &pk, now, false);
    if (!sc_snapshot_next(snap, &m)) {
        sc_snapshot_free(snap);
        return SC_NOTFOUND;
    }
    vtype = m.vtype;
    base = m.scalar;
    sc_snapshot_free(snap);
    if (vtype != SC_V_LONG) {
        return SC_BADTYPE;
    }
    switch (op) {
    case SC_UPDATE_INC:
        v = (int64_t)((uint64_t)base + (uint64_t)a);
        break;
    case SC_UPDATE_DEC:
        v = (int64_t)((uint64_t)base - (uint64_t)a);
        break;
    default:
        if (base != a) {
            return SC_NOTFOUND;
        }
        v = b;
        break;
    }
    in.vtype = SC_V_LONG;
    in.scalar = v;
    st = sc_cache_store(&php_sc_shared_cache, k, &in, ttl, now, true);
    if (st == SC_OK) {
        *result = v;
    }
    return st == SC_OK ? SC_OK : SC_EXISTS;
}

/* The rest of an update whose key the caller has no entry of, when public
 * entries may exist: the key's preloaded int copied into the caller's own
 * entry, else the update as asked (create). */
static zend_never_inline sc_status php_sc_update_rest(const sc_key *k, sc_update_op op, int64_t a, int64_t b,
                                                      uint32_t ttl, bool create, int64_t now, int64_t *result)
{
    sc_status st = php_sc_update_public(k, op, a, b, ttl, now, result);

    if (st == SC_OK || st == SC_BADTYPE || (st == SC_NOTFOUND && op == SC_UPDATE_CAS)) {
        return st;
    }
    return sc_cache_update(&php_sc_shared_cache, k, op, a, b, ttl, create, now, &SCG(fetch_memos), result);
}

/* sc_cache_update on the caller's own entry, or on its copy of the key's
 * preloaded entry when it has none (php/owner.c). */
static zend_always_inline sc_status php_sc_update_key(const sc_key *k, sc_update_op op, int64_t a, int64_t b,
                                                      uint32_t ttl, bool create, int64_t now, int64_t *result)
{
    sc_status st;

    if (EXPECTED(!SCG(public_reads))) {
        return sc_cache_update(&php_sc_shared_cache, k, op, a, b, ttl, create, now, &SCG(fetch_memos), result);
    }
    st = sc_cache_update(&php_sc_shared_cache, k, op, a, b, ttl, false, now, &SCG(fetch_memos), result);
    return st == SC_NOTFOUND ? php_sc_update_rest(k, op, a, b, ttl, create, now, result) : st;
}

static void php_sc_update_impl(INTERNAL_FUNCTION_PARAMETERS, sc_update_op op)
{
    zend_string *key;
    zend_long step = 1, ttl = 0;
    zval *success = NULL;
    int64_t result, now;
    sc_key k;

    ZEND_PARSE_PARAMETERS_START(1, 4)
        Z_PARAM_STR(key)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(step)
        Z_PARAM_ZVAL(success)
        Z_PARAM_LONG(ttl)
    ZEND_PARSE_PARAMETERS_END();

    if (success) {
        ZEND_TRY_ASSIGN_REF_FALSE(success);
    }
    if (!php_sc_make_key(&k, key)) {
        RETURN_FALSE;
    }
    now = php_sc_now();
    if (php_sc_update_key(&k, op, (int64_t)step, 0, php_sc_clamp_ttl(ttl), ttl >= 0, now, &result) != SC_OK) {
        if (ttl < 0) {
            /* A negative ttl creates an entry that is already expired, as in
             * APCu: the key stays unreadable (and the call fails) but the
             * entry is kept, as a store with that ttl keeps it. */
            sc_value_in in = {0};
            in.vtype = SC_V_LONG;
            in.scalar = op == SC_UPDATE_DEC ? (int64_t)(0 - (uint64_t)step) : (int64_t)step;
            in.data = NULL;
            in.len = 0;
            (void)sc_cache_store(&php_sc_shared_cache, &k, &in, php_sc_clamp_ttl(ttl), now, true);
        }
        RETURN_FALSE;
    }
    if (success) {
        ZEND_TRY_ASSIGN_REF_TRUE(success);
    }
    RETURN_LONG((zend_long)result);
}

ZEND_FUNCTION(shardcache_inc)
{
    php_sc_update_impl(INTERNAL_FUNCTION_PARAM_PASSTHRU, SC_UPDATE_INC);
}

ZEND_FUNCTION(shardcache_dec)
{
    php_sc_update_impl(INTERNAL_FUNCTION_PARAM_PASSTHRU, SC_UPDATE_DEC);
}

ZEND_FUNCTION(shardcache_cas)
{
    zend_string *key;
    zend_long old_value, new_value;
    int64_t result;
    sc_key k;

    ZEND_PARSE_PARAMETERS_START(3, 3)
        Z_PARAM_STR(key)
        Z_PARAM_LONG(old_value)
        Z_PARAM_LONG(new_value)
    ZEND_PARSE_PARAMETERS_END();

    RETURN_BOOL(php_sc_make_key(&k, key)
                && php_sc_update_key(&k, SC_UPDATE_CAS, (int64_t)old_value, (int64_t)new_value, 0, false, php_sc_now(),
                                     &result) == SC_OK);
}
