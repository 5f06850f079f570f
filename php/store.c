/*
 * php/store.c - apcu_store and apcu_add: a zval into the cache, as a
 * zero-copy value (php/zc.c) or encoded (php/value.c).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "store.h"
#include "php_shardcache.h"
#include "key.h"
#include "owner.h"
#include "value.h"
#include "zc.h"
#include "sc_cache.h"

/* Stores one value. Returns false when not stored (a warning or exception
 * has been raised where APCu raises one). */
bool php_sc_store_one(zend_string *key, zval *value, zend_long ttl, bool add_only, int64_t now)
{
    php_sc_encoded enc;
    sc_value_in in = {0};
    sc_status st;
    sc_key k;

    if (!php_sc_make_key(&k, key)) {
        return false;
    }
    if (add_only && UNEXPECTED(SCG(public_reads))) {
        /* A preloaded entry of the key: the caller sees it, so it exists. */
        sc_key pk = k;
        if (php_sc_key_public(&pk) && sc_cache_exists(&php_sc_shared_cache, &pk, now) == SC_OK) {
            return false;
        }
    }
    ZVAL_DEREF(value);
    php_sc_zc_idle();
    if (php_sc_zc_on && php_sc_zc_may_store(value)
        && php_sc_zc_store(&php_sc_shared_cache, &k, value, php_sc_clamp_ttl(ttl), now, add_only, &st)) {
        return st == SC_OK;
    }
    if (php_sc_value_encode(value, &enc) != SUCCESS) {
        return false;
    }
    in.vtype = enc.vtype;
    in.scalar = enc.scalar;
    in.data = enc.data;
    in.len = enc.len;
    st = sc_cache_store(&php_sc_shared_cache, &k, &in, php_sc_clamp_ttl(ttl), now, add_only);
    php_sc_value_encoded_release(&enc);
    return st == SC_OK;
}

static void php_sc_store_impl(INTERNAL_FUNCTION_PARAMETERS, bool add_only)
{
    zval *key, *value = NULL;
    zend_long ttl = 0;
    int64_t now;

    ZEND_PARSE_PARAMETERS_START(1, 3)
        Z_PARAM_ZVAL(key)
        Z_PARAM_OPTIONAL
        Z_PARAM_ZVAL(value)
        Z_PARAM_LONG(ttl)
    ZEND_PARSE_PARAMETERS_END();

    now = php_sc_now();
    if (Z_TYPE_P(key) == IS_ARRAY) {
        zend_string *skey;
        zend_ulong ikey;
        zval *v;
        array_init(return_value);
        ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(key), ikey, skey, v) {
            bool stored;
            if (skey) {
                stored = php_sc_store_one(skey, v, ttl, add_only, now);
            } else {
                zend_string *tmp = zend_long_to_str((zend_long)ikey);
                stored = php_sc_store_one(tmp, v, ttl, add_only, now);
                zend_string_release_ex(tmp, 0);
            }
            if (!stored) {
                if (skey) {
                    add_assoc_long_ex(return_value, ZSTR_VAL(skey), ZSTR_LEN(skey), -1);
                } else {
                    add_index_long(return_value, ikey, -1);
                }
            }
        } ZEND_HASH_FOREACH_END();
        return;
    }
    if (Z_TYPE_P(key) != IS_STRING) {
        php_error_docref(NULL, E_WARNING,
                         "apc_store expects key parameter to be a string or an array of key/value pairs.");
        RETURN_FALSE;
    }
    if (!value) {
        RETURN_FALSE;
    }
    RETURN_BOOL(php_sc_store_one(Z_STR_P(key), value, ttl, add_only, now));
}

ZEND_FUNCTION(shardcache_store)
{
    php_sc_store_impl(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_FUNCTION(shardcache_add)
{
    php_sc_store_impl(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}
