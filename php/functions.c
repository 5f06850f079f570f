/*
 * php/functions.c - apcu_exists, apcu_delete, apcu_clear_cache and
 * apcu_enabled: the functions that neither store, fetch nor update a
 * value.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "functions.h"
#include "php_shardcache.h"
#include "key.h"
#include "owner.h"
#include "iterator.h"
#include "zc.h"
#include "sc_cache.h"

/* The caller's own entry of key, or its preloaded one. */
static bool php_sc_exists_key(zend_string *key, int64_t now)
{
    sc_key k;

    if (!php_sc_make_key(&k, key)) {
        return false;
    }
    return sc_cache_exists(&php_sc_shared_cache, &k, now) == SC_OK
           || (SCG(public_reads) && php_sc_key_public(&k) && sc_cache_exists(&php_sc_shared_cache, &k, now) == SC_OK);
}

ZEND_FUNCTION(shardcache_exists)
{
    zval *key;
    int64_t now;

    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ZVAL(key)
    ZEND_PARSE_PARAMETERS_END();

    now = php_sc_now();
    if (Z_TYPE_P(key) == IS_ARRAY) {
        zval *v, t;
        array_init(return_value);
        ZVAL_TRUE(&t);
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(key), v) {
            ZVAL_DEREF(v);
            if (Z_TYPE_P(v) != IS_STRING) {
                php_error_docref(NULL, E_WARNING, "apc_exists() expects a string or array of strings.");
                continue;
            }
            if (php_sc_exists_key(Z_STR_P(v), now)) {
                zend_hash_update(Z_ARRVAL_P(return_value), Z_STR_P(v), &t);
            }
        } ZEND_HASH_FOREACH_END();
        return;
    }
    {
        zend_string *skey = zval_try_get_string(key);
        bool found;
        if (!skey) {
            RETURN_THROWS();
        }
        found = php_sc_exists_key(skey, now);
        zend_string_release(skey);
        RETURN_BOOL(found);
    }
}

#define PHP_SC_DELETE_TYPE_MSG "apc_delete() expects a string, array of strings, or APCIterator instance"

ZEND_FUNCTION(shardcache_delete)
{
    zval *key;
    sc_key k;

    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ZVAL(key)
    ZEND_PARSE_PARAMETERS_END();

    php_sc_zc_idle();
    if (Z_TYPE_P(key) == IS_ARRAY) {
        zval *v;
        array_init(return_value);
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(key), v) {
            ZVAL_DEREF(v);
            if (Z_TYPE_P(v) != IS_STRING) {
                php_error_docref(NULL, E_WARNING, PHP_SC_DELETE_TYPE_MSG);
                Z_TRY_ADDREF_P(v);
                add_next_index_zval(return_value, v);
                continue;
            }
            if (!php_sc_make_key(&k, Z_STR_P(v)) || sc_cache_delete(&php_sc_shared_cache, &k) != SC_OK) {
                Z_TRY_ADDREF_P(v);
                add_next_index_zval(return_value, v);
            }
        } ZEND_HASH_FOREACH_END();
        return;
    }
    if (Z_TYPE_P(key) == IS_STRING) {
        RETURN_BOOL(php_sc_make_key(&k, Z_STR_P(key)) && sc_cache_delete(&php_sc_shared_cache, &k) == SC_OK);
    }
    if (Z_TYPE_P(key) == IS_OBJECT) {
        if (php_sc_iterator_ce && instanceof_function(Z_OBJCE_P(key), php_sc_iterator_ce)) {
            php_sc_iterator_delete(key, return_value);
            return;
        }
        php_error_docref(NULL, E_ERROR, "apc_delete object argument must be instance of APCUIterator.");
        RETURN_FALSE;
    }
    php_error_docref(NULL, E_WARNING, PHP_SC_DELETE_TYPE_MSG);
    RETURN_FALSE;
}

ZEND_FUNCTION(shardcache_clear_cache)
{
    ZEND_PARSE_PARAMETERS_NONE();

    if (php_sc_active) {
        php_sc_zc_idle();
        php_sc_owner_clear();
    }
    RETURN_TRUE;
}

ZEND_FUNCTION(shardcache_enabled)
{
    ZEND_PARSE_PARAMETERS_NONE();

    RETURN_BOOL(php_sc_active);
}
